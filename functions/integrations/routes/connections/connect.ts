import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses } from '@shared/infra/http/openapi.ts'
import { member } from '@shared/infra/http/route-auth.ts'
import { connectMcp } from '@shared/services/integrations/connections.ts'
import { connectBody, connectionDetailSchema } from '@shared/services/integrations/schema.ts'

export const route = defineRoute(member, {
  method: 'post',
  path: '/connect',
  summary: 'Connect an MCP server: discovers its tools and stores the connection (token encrypted)',
  request: { body: { content: { 'application/json': { schema: connectBody } }, required: true } },
  responses: {
    201: {
      description: 'The connection with its tools',
      content: { 'application/json': { schema: connectionDetailSchema } },
    },
    ...errorResponses(400, 401, 403, 413, 422, 429),
  },
})

export const registerConnectMcp = (app: App) =>
  app.openapi(route, async (c) => c.json(await connectMcp(serviceContext(c), c.req.valid('json')), 201))
