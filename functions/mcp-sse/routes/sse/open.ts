import { hubFor } from '@functions/mcp-sse/sse-hub.ts'
import { checkOrigin, presentedKey, toolAuth } from '@functions/mcp-sse/tool-auth.ts'
import { errorBody, ServiceError } from '@shared/infra/errors.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { tenantCaller } from '@shared/infra/http/authenticate.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses } from '@shared/infra/http/openapi.ts'
import { hashKey } from '@shared/infra/keys.ts'
import { closeSseSession, openSseSession } from '@shared/services/tools/sse-sessions.ts'

export const route = defineRoute(toolAuth, {
  method: 'get',
  path: '/sse',
  summary: 'MCP HTTP+SSE: open the event stream',
  description:
    "The first event is `endpoint`, whose data is the address to POST JSON-RPC messages to (sse/messages?sessionId=...). Responses arrive as `message` events, whichever instance the POST reached. A comment line is sent as a heartbeat; the stream ends before the edge runtime's wall-clock limit (MCP_SSE_MAX_STREAM_MS) and the client reconnects to a new session. Send Accept: text/event-stream.",
  responses: {
    200: {
      description: 'The event stream',
      content: { 'text/event-stream': { schema: { type: 'string' } } },
    },
    406: { description: 'Accept must include text/event-stream' },
    ...errorResponses(401, 403, 429),
  },
})

const encoder = new TextEncoder()
const RECONNECT_MS = 1000

export const registerSseOpen = (app: App) =>
  app.openapi(route, async (c) => {
    checkOrigin(c)
    // A session belongs to a tool-server key (private.mcp_sse_sessions.key_id). OAuth clients
    // speak the current transport, Streamable HTTP at {mcp_url}.
    if (c.req.header('authorization')?.match(/^Bearer\s+mcpat_/i) && !c.req.header('x-api-key'))
      throw new ServiceError(
        'INSUFFICIENT_PERMISSIONS',
        'HTTP+SSE takes tool-server keys; with an OAuth token use Streamable HTTP at {mcp_url}',
      )
    if (!(c.req.header('accept') ?? '').includes('text/event-stream')) {
      return c.json(
        errorBody(406, 'NOT_ACCEPTABLE', 'Accept must include text/event-stream'),
        406 as never,
      ) as never
    }
    const deps = c.var.deps
    const caller = tenantCaller(c)
    const keyId = 'keyId' in caller ? caller.keyId : null
    const key = presentedKey(c)
    if (!keyId || !key) throw new Error('tool-key caller without a key')
    const hub = hubFor(deps)
    const sessionId = crypto.randomUUID()
    const opened = Date.now()
    const maxMs = deps.config.MCP_SSE_MAX_STREAM_MS
    const ctx = serviceContext(c)
    await openSseSession(ctx, {
      id: sessionId,
      keyId,
      keyHash: hashKey(key),
      instanceId: hub.instanceId,
      openedAt: new Date(opened),
      expiresAt: new Date(opened + maxMs + 5_000),
    })

    const pathname = new URL(c.req.url).pathname
    const endpoint = `${pathname.endsWith('/') ? '' : 'sse/'}messages?sessionId=${sessionId}`
    let heartbeat: ReturnType<typeof setInterval> | undefined
    let deadline: ReturnType<typeof setTimeout> | undefined
    let closed = false
    let ctrl: ReadableStreamDefaultController<Uint8Array>
    const write = (text: string) => {
      if (closed) return
      try {
        ctrl.enqueue(encoder.encode(text))
      } catch {
        void end()
      }
    }
    const end = async () => {
      if (closed) return
      closed = true
      clearInterval(heartbeat)
      clearTimeout(deadline)
      hub.release(sessionId)
      // Gone before the client sees the end (cascades to messages nobody will read).
      await closeSseSession(ctx, sessionId).catch((err) =>
        deps.logger.warn('mcp sse: session cleanup failed', { error: String(err) }),
      )
      try {
        ctrl.close()
      } catch {}
    }
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        ctrl = controller
        // retry: how soon EventSource clients reconnect after the stream ends (deadline, restart).
        write(`event: endpoint\ndata: ${endpoint}\nretry: ${RECONNECT_MS}\n\n`)
        hub.hold(sessionId, {
          tenantId: caller.tenantId,
          send: (payload) => write(`event: message\ndata: ${JSON.stringify(payload)}\n\n`),
        })
        heartbeat = setInterval(() => write(': ping\n\n'), deps.config.MCP_SSE_HEARTBEAT_MS)
        deadline = setTimeout(() => void end(), maxMs)
      },
      cancel() {
        return end()
      },
    })
    c.req.raw.signal?.addEventListener('abort', () => void end(), { once: true })
    return new Response(body, {
      status: 200,
      headers: {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
        'x-mcp-session-id': sessionId,
      },
    }) as never
  })
