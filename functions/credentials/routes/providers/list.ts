import type { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import type { RouteAuth } from '@shared/infra/http/authenticate.ts'
import { defineRoute, depsOf } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { listProviders } from '@shared/services/credentials/providers.ts'
import { providerListSchema, providerQuery } from '@shared/services/credentials/schema.ts'

/** The provider catalog is public knowledge: members, and the anon key before sign-in. */
const catalogAuth = { allow: ['user', 'anon'] } as const satisfies RouteAuth

export const route = defineRoute(catalogAuth, {
  method: 'get',
  path: '/providers',
  summary: 'List the provider catalog (public path /api/providers)',
  request: { query: providerQuery },
  responses: {
    200: jsonContent(providerListSchema, 'Providers by category and name'),
    ...errorResponses(400, 401, 429),
  },
})

export type ListProvidersResponse = z.infer<typeof providerListSchema>

export const registerListProviders = (app: App) =>
  app.openapi(route, async (c) => c.json(await listProviders(depsOf(c), c.req.valid('query').category), 200))
