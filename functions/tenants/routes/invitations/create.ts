import type { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { ownerOrAdmin } from '@shared/infra/http/route-auth.ts'
import { createInvitation } from '@shared/services/tenants/invitations.ts'
import { createInvitationBody, invitationSchema } from '@shared/services/tenants/schema.ts'

export const route = defineRoute(ownerOrAdmin, {
  method: 'post',
  path: '/invitations',
  summary: 'Invite someone by e-mail',
  description: 'Invite someone by e-mail (owners and admins); the link is single use and expires in 7 days',
  request: { body: { content: { 'application/json': { schema: createInvitationBody } }, required: true } },
  responses: {
    201: jsonContent(invitationSchema, 'Invited'),
    ...errorResponses(400, 401, 403, 409, 413, 429),
  },
})

export type CreateInvitationResponse = z.infer<typeof invitationSchema>

export const registerCreateInvitation = (app: App) =>
  app.openapi(route, async (c) => c.json(await createInvitation(serviceContext(c), c.req.valid('json')), 201))
