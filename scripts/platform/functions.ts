import * as apiKeys from '../../functions/api-keys/app.ts'
import * as content from '../../functions/content/app.ts'
import * as credentials from '../../functions/credentials/app.ts'
import * as integrations from '../../functions/integrations/app.ts'
import * as mcpSse from '../../functions/mcp-sse/app.ts'
import * as tenants from '../../functions/tenants/app.ts'
import * as usage from '../../functions/usage/app.ts'
import * as webhooks from '../../functions/webhooks/app.ts'
import type { App } from '../../shared/app.ts'
import type { FunctionDeps } from '../../shared/deps.ts'

export interface FunctionModule {
  functionName: string
  createApp(deps: FunctionDeps): App
}

/** Every function the local platform serves; each also has its own Deno entry (index.ts). */
export const functionModules: FunctionModule[] = [
  apiKeys,
  content,
  tenants,
  mcpSse,
  credentials,
  usage,
  webhooks,
  integrations,
]

/** Jobs the local platform runs in process, as pg_cron does in production (see migrations). */
export const scheduledJobs: { path: string; everySeconds: number }[] = [
  { path: 'tenants/jobs/send-notifications', everySeconds: 10 },
  { path: 'tenants/jobs/prune-rate-limits', everySeconds: 300 },
  { path: 'usage/jobs/check-usage-alerts', everySeconds: 60 },
  { path: 'credentials/jobs/expiry-alerts', everySeconds: 86_400 },
  { path: 'credentials/jobs/prune-usage', everySeconds: 86_400 },
  // Poll every second so any instance delivers promptly; attempt 1 is also triggered on commit (server.ts).
  { path: 'webhooks/jobs/dispatch', everySeconds: 1 },
  // Hourly, as pg_cron's 'oauth-token-refresh' (0 * * * *): tokens expiring within the hour.
  { path: 'integrations/jobs/refresh-tokens', everySeconds: 3600 },
]
