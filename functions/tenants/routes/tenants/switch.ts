import type { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { signedIn } from '@shared/infra/http/route-auth.ts'
import { switchTenantBody, switchTenantResponse } from '@shared/services/tenants/schema.ts'
import { switchActiveTenant } from '@shared/services/tenants/tenants.ts'

export const route = defineRoute(signedIn, {
  method: 'post',
  path: '/active',
  summary: "Switch the user's active tenant",
  description: "Switch the user's active tenant (the next access token carries it; refresh the session)",
  request: { body: { content: { 'application/json': { schema: switchTenantBody } }, required: true } },
  responses: { 200: jsonContent(switchTenantResponse, 'Switched'), ...errorResponses(400, 401, 404, 429) },
})

export type SwitchTenantResponse = z.infer<typeof switchTenantResponse>

export const registerSwitchTenant = (app: App) =>
  app.openapi(route, async (c) =>
    c.json(await switchActiveTenant(c.var.deps, c.var.caller, c.req.valid('json').tenant_id), 200),
  )
