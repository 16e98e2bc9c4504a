import type { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { ownerOrAdmin } from '@shared/infra/http/route-auth.ts'
import { tenantSchema, updateTenantBody } from '@shared/services/tenants/schema.ts'
import { updateCurrentTenant } from '@shared/services/tenants/tenants.ts'

export const route = defineRoute(ownerOrAdmin, {
  method: 'patch',
  path: '/current',
  summary: "Change the tenant's name, settings or plan",
  description: 'Change the name, settings (owners and admins) or plan (owners) of the tenant',
  request: { body: { content: { 'application/json': { schema: updateTenantBody } }, required: true } },
  responses: { 200: jsonContent(tenantSchema, 'Tenant'), ...errorResponses(400, 401, 403, 413, 429) },
})

export type UpdateCurrentTenantResponse = z.infer<typeof tenantSchema>

export const registerUpdateCurrentTenant = (app: App) =>
  app.openapi(route, async (c) =>
    c.json(await updateCurrentTenant(serviceContext(c), c.req.valid('json')), 200),
  )
