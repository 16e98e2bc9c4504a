import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses } from '@shared/infra/http/openapi.ts'
import { member } from '@shared/infra/http/route-auth.ts'
import { removeMember } from '@shared/services/tenants/members.ts'
import { userIdParam } from '@shared/services/tenants/schema.ts'

/** Members may leave, so the role check (owners and admins remove others) is in the service. */
export const route = defineRoute(member, {
  method: 'delete',
  path: '/current/members/{user_id}',
  summary: 'Remove a member',
  description: 'Remove a member (owners and admins), or leave (anyone); the last owner cannot go',
  request: { params: userIdParam },
  responses: { 204: { description: 'Removed' }, ...errorResponses(400, 401, 403, 404, 409, 429) },
})

export const registerRemoveMember = (app: App) =>
  app.openapi(route, async (c) => {
    await removeMember(serviceContext(c), c.req.valid('param').user_id)
    return c.body(null, 204)
  })
