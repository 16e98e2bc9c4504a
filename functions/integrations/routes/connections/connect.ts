import { setBindingCookie } from '@functions/integrations/binding-cookie.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses } from '@shared/infra/http/openapi.ts'
import { member } from '@shared/infra/http/route-auth.ts'
import { connectMcp } from '@shared/services/integrations/connections.ts'
import {
  connectBody,
  connectionDetailSchema,
  mcpAuthorizeResponse,
} from '@shared/services/integrations/schema.ts'

export const route = defineRoute(member, {
  method: 'post',
  path: '/connect',
  summary: 'Connect an MCP server',
  description:
    'Connect an MCP server: discovers its tools and stores the connection (token encrypted); an OAuth-protected server answers 202 with the sign-in address',
  request: { body: { content: { 'application/json': { schema: connectBody } }, required: true } },
  responses: {
    201: {
      description: 'The connection with its tools',
      content: { 'application/json': { schema: connectionDetailSchema } },
    },
    202: {
      description:
        'The server asks for an OAuth sign-in: the authorization address, and the HttpOnly cookie that binds the flow to this browser',
      content: { 'application/json': { schema: mcpAuthorizeResponse } },
    },
    ...errorResponses(400, 401, 403, 413, 422, 429),
  },
})

export const registerConnectMcp = (app: App) =>
  app.openapi(route, async (c) => {
    const result = await connectMcp(serviceContext(c), c.req.valid('json'))
    if (result.kind === 'connected') return c.json(result.connection, 201)
    const { binding, authorization_url, expires_at } = result
    setBindingCookie(c, binding)
    c.header('Cache-Control', 'no-store')
    return c.json({ authorization_url, expires_at }, 202)
  })
