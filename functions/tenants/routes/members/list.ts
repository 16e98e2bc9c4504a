import { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { member } from '@shared/infra/http/route-auth.ts'
import { listMembers } from '@shared/services/tenants/members.ts'
import { memberSchema } from '@shared/services/tenants/schema.ts'

const memberListSchema = z.object({ data: z.array(memberSchema) })

export const route = defineRoute(member, {
  method: 'get',
  path: '/current/members',
  summary: "The tenant's members",
  responses: { 200: jsonContent(memberListSchema, 'Members'), ...errorResponses(401, 403, 429) },
})

export type ListMembersResponse = z.infer<typeof memberListSchema>

export const registerListMembers = (app: App) =>
  app.openapi(route, async (c) => c.json({ data: await listMembers(serviceContext(c)) }, 200))
