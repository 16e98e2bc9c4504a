import { handleMessage, parseMessage } from '@functions/mcp-sse/mcp-server.ts'
import { hubFor } from '@functions/mcp-sse/sse-hub.ts'
import { sessionForKey } from '@functions/mcp-sse/sse-sessions.ts'
import { checkOrigin, toolAuth } from '@functions/mcp-sse/tool-auth.ts'
import { z } from '@hono/zod-openapi'
import { ServiceError } from '@shared/infra/errors.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute } from '@shared/infra/http/define-route.ts'
import { errorResponses } from '@shared/infra/http/openapi.ts'

const query = z.object({ sessionId: z.uuid().openapi({ param: { name: 'sessionId', in: 'query' } }) })

export const route = defineRoute(toolAuth, {
  method: 'post',
  path: '/sse/messages',
  summary: 'MCP HTTP+SSE: send one JSON-RPC message to a session',
  description:
    "Answers 202; the JSON-RPC response travels down the session's event stream. Only the key that opened the stream may post to it. Over the rate limit the POST gets 429 and a request also gets a JSON-RPC error on the stream (data.retryAfter).",
  request: { query },
  responses: {
    202: { description: 'Accepted; the response follows on the stream' },
    ...errorResponses(400, 401, 403, 404, 413, 429),
  },
})

export const registerSseMessages = (app: App) =>
  app.openapi(route, async (c) => {
    checkOrigin(c)
    const { sessionId } = c.req.valid('query')
    const session = await sessionForKey(c, sessionId)
    if (!session) throw new ServiceError('NOT_FOUND', 'Unknown or expired session')
    const parsed = parseMessage(await c.req.text())
    if ('error' in parsed) return parsed.error as never
    const headers: Record<string, string> = {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
    }
    const version = c.req.header('mcp-protocol-version')
    if (version) headers['mcp-protocol-version'] = version
    const res = await handleMessage(c, new Request(c.req.url, { method: 'POST', headers }), parsed.message)
    if (res.status === 200) {
      await hubFor(c.var.deps).deliver(sessionId, session.tenant_id, await res.json())
      return new Response('Accepted', { status: 202 }) as never
    }
    return res as never
  })
