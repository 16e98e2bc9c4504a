import type { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { ownerOrAdmin } from '@shared/infra/http/route-auth.ts'
import { revokeInvitation } from '@shared/services/tenants/invitations.ts'
import { invitationSchema } from '@shared/services/tenants/schema.ts'

export const route = defineRoute(ownerOrAdmin, {
  method: 'delete',
  path: '/invitations/{id}',
  summary: 'Revoke a pending invitation (owners and admins)',
  request: { params: idParam },
  responses: {
    200: jsonContent(invitationSchema, 'Revoked'),
    ...errorResponses(400, 401, 403, 404, 409, 429),
  },
})

export type RevokeInvitationResponse = z.infer<typeof invitationSchema>

export const registerRevokeInvitation = (app: App) =>
  app.openapi(route, async (c) =>
    c.json(await revokeInvitation(serviceContext(c), c.req.valid('param').id), 200),
  )
