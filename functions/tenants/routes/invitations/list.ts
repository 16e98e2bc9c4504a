import { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { member } from '@shared/infra/http/route-auth.ts'
import { listInvitations } from '@shared/services/tenants/invitations.ts'
import { invitationSchema } from '@shared/services/tenants/schema.ts'

const invitationListSchema = z.object({ data: z.array(invitationSchema) })

export const route = defineRoute(member, {
  method: 'get',
  path: '/invitations',
  summary: "The tenant's invitations, newest first",
  responses: { 200: jsonContent(invitationListSchema, 'Invitations'), ...errorResponses(401, 403, 429) },
})

export type ListInvitationsResponse = z.infer<typeof invitationListSchema>

export const registerListInvitations = (app: App) =>
  app.openapi(route, async (c) => c.json({ data: await listInvitations(serviceContext(c)) }, 200))
