import type { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { ownerOrAdmin } from '@shared/infra/http/route-auth.ts'
import { updateMemberRole } from '@shared/services/tenants/members.ts'
import { memberSchema, updateMemberBody, userIdParam } from '@shared/services/tenants/schema.ts'

export const route = defineRoute(ownerOrAdmin, {
  method: 'patch',
  path: '/current/members/{user_id}',
  summary: "Change a member's role",
  description: "Change a member's role (owners and admins; only owners grant or take the owner role)",
  request: {
    params: userIdParam,
    body: { content: { 'application/json': { schema: updateMemberBody } }, required: true },
  },
  responses: { 200: jsonContent(memberSchema, 'Member'), ...errorResponses(400, 401, 403, 404, 409, 429) },
})

export type UpdateMemberResponse = z.infer<typeof memberSchema>

export const registerUpdateMember = (app: App) =>
  app.openapi(route, async (c) =>
    c.json(
      await updateMemberRole(serviceContext(c), c.req.valid('param').user_id, c.req.valid('json').role),
      200,
    ),
  )
