import type { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { member } from '@shared/infra/http/route-auth.ts'
import { tenantSchema } from '@shared/services/tenants/schema.ts'
import { getCurrentTenant } from '@shared/services/tenants/tenants.ts'

export const route = defineRoute(member, {
  method: 'get',
  path: '/current',
  summary: 'The tenant of the access token',
  responses: { 200: jsonContent(tenantSchema, 'Tenant'), ...errorResponses(401, 403, 429) },
})

export type GetCurrentTenantResponse = z.infer<typeof tenantSchema>

export const registerGetCurrentTenant = (app: App) =>
  app.openapi(route, async (c) => c.json(await getCurrentTenant(serviceContext(c)), 200))
