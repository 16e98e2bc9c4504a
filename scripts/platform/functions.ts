import type { App } from '../../shared/app.ts'
import type { FunctionDeps } from '../../shared/deps.ts'
import * as apiKeys from '../../functions/api-keys/app.ts'
import * as content from '../../functions/content/app.ts'
import * as tenants from '../../functions/tenants/app.ts'

export interface FunctionModule {
  functionName: string
  createApp(deps: FunctionDeps): App
}

/** Every function the local platform serves; each also has its own Deno entry (index.ts). */
export const functionModules: FunctionModule[] = [apiKeys, content, tenants]

/** Jobs the local platform runs in process, as pg_cron does in production (see migrations). */
export const scheduledJobs: { path: string; everySeconds: number }[] = [
  { path: 'tenants/jobs/send-notifications', everySeconds: 10 },
  { path: 'tenants/jobs/prune-rate-limits', everySeconds: 300 },
]
