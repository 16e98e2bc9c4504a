import type { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { signedIn } from '@shared/infra/http/route-auth.ts'
import { createTenantBody, tenantSchema } from '@shared/services/tenants/schema.ts'
import { createTenant } from '@shared/services/tenants/tenants.ts'

export const route = defineRoute(signedIn, {
  method: 'post',
  path: '/',
  summary: 'Sign up a new tenant',
  description: 'Sign up a new tenant; the signed-in user becomes its owner and it becomes the active tenant',
  request: { body: { content: { 'application/json': { schema: createTenantBody } }, required: true } },
  responses: { 201: jsonContent(tenantSchema, 'Created'), ...errorResponses(400, 401, 413, 429) },
})

export type CreateTenantResponse = z.infer<typeof tenantSchema>

export const registerCreateTenant = (app: App) =>
  app.openapi(route, async (c) =>
    c.json(await createTenant(c.var.deps, c.var.caller, c.req.valid('json')), 201),
  )
