import type { App } from '@shared/infra/http/app-env.ts'
import { registerGetJob } from './get.ts'
import { registerListJobs } from './list.ts'

/**
 * GET /api/jobs and /api/jobs/{id}: the job engine's rows, seen by the tenant. Served inside the
 * function at /background-jobs, since /jobs/* are the tenants function's own scheduled jobs.
 */
export function registerJobRoutes(app: App) {
  registerListJobs(app)
  registerGetJob(app)
}
