import type { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { limitAnonymous } from '@shared/infra/http/authenticate.ts'
import { defineRoute } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { publicRoute } from '@shared/infra/http/route-auth.ts'
import { previewInvitation } from '@shared/services/tenants/invitations.ts'
import { invitationPreviewSchema, previewInvitationQuery } from '@shared/services/tenants/schema.ts'

/** Public: the invitation link opens this before the invitee signs in; the token is the credential. */
export const route = defineRoute(publicRoute, {
  method: 'get',
  path: '/invitations/accept',
  summary: 'What an invitation link invites to (does not use it up)',
  request: { query: previewInvitationQuery },
  responses: { 200: jsonContent(invitationPreviewSchema, 'Invitation'), ...errorResponses(400, 404, 429) },
})

export type PreviewInvitationResponse = z.infer<typeof invitationPreviewSchema>

export function registerPreviewInvitation(app: App) {
  // A public route: each calling address is charged to the unauthenticated rate limit. GET only:
  // POST on the same path (accept) authenticates and is charged to the user.
  app.on('GET', route.path, limitAnonymous())
  return app.openapi(route, async (c) =>
    c.json(await previewInvitation(c.var.deps, c.req.valid('query').token), 200),
  )
}
