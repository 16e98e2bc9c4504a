import type { FunctionDeps } from '@shared/infra/deps.ts'
import { createFunctionApp } from '@shared/infra/http/function-app.ts'
import { registerCreateDestination } from './routes/destinations/create.ts'
import { registerDeleteDestination } from './routes/destinations/delete.ts'
import { registerGetDestination } from './routes/destinations/get.ts'
import { registerListDestinations } from './routes/destinations/list.ts'
import { registerUpdateDestination } from './routes/destinations/update.ts'
import { registerListProducts } from './routes/products/list.ts'
import { registerCreateProgram } from './routes/programs/create.ts'
import { registerDeleteProgram } from './routes/programs/delete.ts'
import { registerSweep } from './routes/sweep.ts'
import { registerTrigger } from './routes/trigger.ts'

export const functionName = 'sync-affiliate'

/** Affiliate destinations and programs (/api/affiliate), products (/v1/products), the sync and its sweep. */
export function createApp(deps: FunctionDeps) {
  const app = createFunctionApp(functionName, deps, 'Affiliate catalogs')
  for (const register of [
    registerTrigger,
    registerSweep,
    registerCreateDestination,
    registerListDestinations,
    registerGetDestination,
    registerUpdateDestination,
    registerDeleteDestination,
    registerCreateProgram,
    registerDeleteProgram,
    registerListProducts,
  ])
    register(app)
  return app
}
