import { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { signedIn } from '@shared/infra/http/route-auth.ts'
import { tenantSchema } from '@shared/services/tenants/schema.ts'
import { listTenants } from '@shared/services/tenants/tenants.ts'

const tenantListSchema = z.object({ data: z.array(tenantSchema) })

export const route = defineRoute(signedIn, {
  method: 'get',
  path: '/',
  summary: 'The tenants the signed-in user belongs to',
  responses: { 200: jsonContent(tenantListSchema, 'Tenants'), ...errorResponses(401, 429) },
})

export type ListTenantsResponse = z.infer<typeof tenantListSchema>

export const registerListTenants = (app: App) =>
  app.openapi(route, async (c) => c.json({ data: await listTenants(c.var.deps, c.var.caller) }, 200))
