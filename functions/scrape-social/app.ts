import type { FunctionDeps } from '@shared/infra/deps.ts'
import { createFunctionApp } from '@shared/infra/http/function-app.ts'
import { registerCreateSource } from './routes/sources/create.ts'
import { registerDeleteSource } from './routes/sources/delete.ts'
import { registerGetSource } from './routes/sources/get.ts'
import { registerListSourceItems } from './routes/sources/items.ts'
import { registerListSources } from './routes/sources/list.ts'
import { registerUpdateSource } from './routes/sources/update.ts'
import { registerSweep } from './routes/sweep.ts'
import { registerTrigger } from './routes/trigger.ts'
import { registerWebsubPush } from './routes/websub/push.ts'
import { registerWebsubVerify } from './routes/websub/verify.ts'

export const functionName = 'scrape-social'

/**
 * Social sources (/api/sources), the scrape trigger, the sweep that runs due and scheduled scrapes,
 * and the WebSub callback a feed's hub calls (verification and pushes).
 */
export function createApp(deps: FunctionDeps) {
  const app = createFunctionApp(functionName, deps, 'Social sources and the scraper')
  for (const register of [
    registerTrigger,
    registerSweep,
    registerCreateSource,
    registerListSources,
    registerGetSource,
    registerUpdateSource,
    registerDeleteSource,
    registerListSourceItems,
    registerWebsubVerify,
    registerWebsubPush,
  ])
    register(app)
  return app
}
