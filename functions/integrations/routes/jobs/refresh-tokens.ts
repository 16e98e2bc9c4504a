import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute } from '@shared/infra/http/define-route.ts'
import { errorResponses } from '@shared/infra/http/openapi.ts'
import { job } from '@shared/infra/http/route-auth.ts'
import { resolveProviders } from '@shared/services/integrations/catalog.ts'
import { refreshJobResult } from '@shared/services/integrations/schema.ts'
import { refreshExpiringTokens } from '@shared/services/integrations/token-refresh.ts'

export const route = defineRoute(job, {
  method: 'post',
  path: '/jobs/refresh-tokens',
  summary: 'Job: refresh OAuth tokens that expire within 1 hour',
  description: 'Job: refresh OAuth tokens that expire within 1 hour (service role only; hourly)',
  security: [{ serviceRole: [] }],
  responses: {
    200: { description: 'Counts', content: { 'application/json': { schema: refreshJobResult } } },
    ...errorResponses(401),
  },
})

export const registerRefreshTokensJob = (app: App) =>
  app.openapi(route, async (c) =>
    c.json(await refreshExpiringTokens(c.var.deps, resolveProviders(c.var.deps.config)), 200),
  )
