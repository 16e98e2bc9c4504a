import type { FunctionDeps } from '@shared/infra/deps.ts'
import { createFunctionApp } from '@shared/infra/http/function-app.ts'
import { registerChangePlan } from './routes/admin/change-plan.ts'
import { registerGetCurrentTenant } from './routes/current/get.ts'
import { registerUpdateCurrentTenant } from './routes/current/update.ts'
import { registerAcceptInvitation } from './routes/invitations/accept.ts'
import { registerCreateInvitation } from './routes/invitations/create.ts'
import { registerListInvitations } from './routes/invitations/list.ts'
import { registerPreviewInvitation } from './routes/invitations/preview.ts'
import { registerRevokeInvitation } from './routes/invitations/revoke.ts'
import { registerGetJob } from './routes/jobs/get.ts'
import { registerListJobs } from './routes/jobs/list.ts'
import { registerPruneRateLimitsJob } from './routes/jobs/prune-rate-limits.ts'
import { registerPruneRetentionJob } from './routes/jobs/prune-retention.ts'
import { registerSendNotificationsJob } from './routes/jobs/send-notifications.ts'
import { registerListMembers } from './routes/members/list.ts'
import { registerRemoveMember } from './routes/members/remove.ts'
import { registerUpdateMember } from './routes/members/update.ts'
import { registerCreateTenant } from './routes/tenants/create.ts'
import { registerListTenants } from './routes/tenants/list.ts'
import { registerSwitchTenant } from './routes/tenants/switch.ts'

export const functionName = 'tenants'

/**
 * Tenants (sign-up, switching), the current tenant, its members and invitations, and two platform
 * jobs. Role checks that depend on the input are in the services.
 */
export function createApp(deps: FunctionDeps) {
  const app = createFunctionApp(functionName, deps, 'Tenants, teams, invitations, notifications')
  for (const register of [
    registerSendNotificationsJob,
    registerPruneRateLimitsJob,
    registerPruneRetentionJob,
    registerCreateTenant,
    registerListTenants,
    registerSwitchTenant,
    registerGetCurrentTenant,
    registerUpdateCurrentTenant,
    registerListMembers,
    registerUpdateMember,
    registerRemoveMember,
    registerCreateInvitation,
    registerListInvitations,
    registerRevokeInvitation,
    registerAcceptInvitation,
    registerPreviewInvitation,
    // The job engine's tenant view (GET /api/jobs and /api/jobs/{id}), served inside the function
    // at /background-jobs, since /jobs/* are this function's own scheduled jobs.
    registerListJobs,
    registerGetJob,
    registerChangePlan,
  ])
    register(app)
  return app
}
