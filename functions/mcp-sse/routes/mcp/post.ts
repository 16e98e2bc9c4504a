import { handleMessage, parseMessage } from '@functions/mcp-sse/mcp-server.ts'
import { checkOrigin, toolAuth } from '@functions/mcp-sse/tool-auth.ts'
import { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute } from '@shared/infra/http/define-route.ts'
import { errorResponses } from '@shared/infra/http/openapi.ts'

const jsonRpc = z
  .object({ jsonrpc: z.literal('2.0') })
  .passthrough()
  .openapi('JsonRpcMessage')

export const route = defineRoute(toolAuth, {
  method: 'post',
  path: '/',
  summary: 'MCP Streamable HTTP: one JSON-RPC message',
  description:
    "Stateless Streamable HTTP (MCP 2025-11-25): each POST carries one JSON-RPC message and is answered with application/json (202 for notifications); a tools/call of a connected MCP server's tool is answered as text/event-stream, carrying that server's progress and log notifications before the result. No session id is issued. Send Accept: application/json, text/event-stream.",
  responses: {
    200: {
      description: 'The JSON-RPC response (or an event stream of notifications and the response)',
      content: {
        'application/json': { schema: jsonRpc },
        'text/event-stream': { schema: z.string() },
      },
    },
    202: { description: 'A notification or response was accepted' },
    400: {
      description: 'Malformed JSON-RPC (a JSON-RPC error)',
      content: { 'application/json': { schema: jsonRpc } },
    },
    ...errorResponses(401, 403, 413, 429),
    406: { description: 'Accept must list application/json and text/event-stream' },
    415: { description: 'Content-Type must be application/json' },
  },
})

export const registerMcpPost = (app: App) =>
  app.openapi(route, async (c) => {
    checkOrigin(c)
    const parsed = parseMessage(await c.req.text())
    if ('error' in parsed) return parsed.error as never
    return (await handleMessage(c, c.req.raw, parsed.message, { stream: true })) as never
  })
