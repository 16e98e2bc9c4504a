import type { FunctionDeps } from '@shared/infra/deps.ts'
import { createFunctionApp } from '@shared/infra/http/function-app.ts'
import { registerGenerate } from './routes/generate.ts'
import { registerSweep } from './routes/sweep.ts'

export const functionName = 'generate-article'

/** Draft articles written by the tenant's AI provider from scraped items, as background jobs. */
export function createApp(deps: FunctionDeps) {
  const app = createFunctionApp(functionName, deps, 'The article generator')
  for (const register of [registerGenerate, registerSweep]) register(app)
  return app
}
