import type { AppEnv } from '@shared/infra/http/app-env.ts'
import type { MiddlewareHandler } from 'hono'
import { hubFor } from './sse-hub.ts'
import { sessionForKey } from './sse-sessions.ts'

/**
 * POST sse/messages over the limit: authenticate() answers 429 RATE_LIMITED; a JSON-RPC request
 * that the key's own open stream is waiting on also gets a JSON-RPC error there, with the wait in
 * error.data.retryAfter (seconds), so SSE clients see it where they read answers.
 */
const JSONRPC_RATE_LIMITED = -32029

export function relayRateLimitToStream(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next()
    if (c.req.method !== 'POST' || c.res.status !== 429) return
    try {
      const sessionId = c.req.query('sessionId') ?? ''
      const session = await sessionForKey(c, sessionId)
      if (!session) return
      const message = JSON.parse(await c.req.text()) as { id?: unknown; method?: unknown }
      if (message === null || typeof message !== 'object' || message.id === undefined || !message.method)
        return
      const body = (await c.res.clone().json()) as { retryAfter?: number; message?: string }
      await hubFor(c.var.deps).deliver(sessionId, session.tenant_id, {
        jsonrpc: '2.0',
        id: message.id,
        error: {
          code: JSONRPC_RATE_LIMITED,
          message: `Rate limit exceeded; retry after ${body.retryAfter ?? 60} s`,
          data: { code: 'RATE_LIMITED', retryAfter: body.retryAfter ?? 60 },
        },
      })
    } catch (err) {
      c.var.deps.logger.warn('mcp sse: could not relay the rate limit', { error: String(err) })
    }
  }
}
