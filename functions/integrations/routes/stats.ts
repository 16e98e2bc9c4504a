import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses } from '@shared/infra/http/openapi.ts'
import { member } from '@shared/infra/http/route-auth.ts'
import { integrationParam, statsQuery, statsSchema } from '@shared/services/integrations/schema.ts'
import { getIntegrationStats } from '@shared/services/integrations/tool-calls.ts'

export const route = defineRoute(member, {
  method: 'get',
  path: '/{id}/stats',
  summary: "Usage statistics of one integration for the caller's tenant",
  request: { params: integrationParam, query: statsQuery },
  responses: {
    200: { description: 'Statistics', content: { 'application/json': { schema: statsSchema } } },
    ...errorResponses(400, 401, 404, 429),
  },
})

export const registerStats = (app: App) =>
  app.openapi(route, async (c) =>
    c.json(
      await getIntegrationStats(serviceContext(c), c.req.valid('param').id, c.req.valid('query').period),
      200,
    ),
  )
