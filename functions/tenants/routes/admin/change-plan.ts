import type { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { serviceRole } from '@shared/infra/http/route-auth.ts'
import { changePlanBody, planChangeSchema, tenantIdParam } from '@shared/services/tenants/schema.ts'
import { changePlan } from '@shared/services/tenants/tenants.ts'

export const route = defineRoute(serviceRole, {
  method: 'post',
  path: '/admin/tenants/{id}/plan',
  summary: "Change a tenant's plan",
  description:
    "Change a tenant's plan (service role only: billing; a user's attempt anywhere else is refused with 403)",
  request: {
    params: tenantIdParam,
    body: { content: { 'application/json': { schema: changePlanBody } }, required: true },
  },
  responses: { 200: jsonContent(planChangeSchema, 'The plan change'), ...errorResponses(400, 401, 404) },
})

export type ChangePlanResponse = z.infer<typeof planChangeSchema>

export const registerChangePlan = (app: App) =>
  app.openapi(route, async (c) =>
    c.json(await changePlan(c.var.deps, c.req.valid('param').id, c.req.valid('json').plan), 200),
  )
