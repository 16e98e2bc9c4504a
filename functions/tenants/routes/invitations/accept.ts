import type { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { signedIn } from '@shared/infra/http/route-auth.ts'
import { acceptInvitation } from '@shared/services/tenants/invitations.ts'
import { acceptedInvitationSchema, acceptInvitationBody } from '@shared/services/tenants/schema.ts'

export const route = defineRoute(signedIn, {
  method: 'post',
  path: '/invitations/accept',
  summary: 'Accept an invitation as the invited user',
  description: 'Accept an invitation as the signed-in user whose e-mail was invited',
  request: { body: { content: { 'application/json': { schema: acceptInvitationBody } }, required: true } },
  responses: {
    200: jsonContent(acceptedInvitationSchema, 'Joined'),
    ...errorResponses(400, 401, 403, 404, 409, 422, 429),
  },
})

export type AcceptInvitationResponse = z.infer<typeof acceptedInvitationSchema>

export const registerAcceptInvitation = (app: App) =>
  app.openapi(route, async (c) =>
    c.json(await acceptInvitation(c.var.deps, c.var.caller, c.req.valid('json').token), 200),
  )
