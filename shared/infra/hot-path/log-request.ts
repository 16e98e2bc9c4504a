import type { Context } from 'hono'
import type { Caller } from '../caller.ts'
import { ServiceError } from '../errors.ts'
import type { AppEnv } from '../http/app-env.ts'
import { hotPathOf } from './hot-path.ts'

/**
 * What the request path tells the request log (request-log.ts): who a refused key's request was
 * (authentication), that metering counted a caller's request, and, when the response is known, the
 * request itself. Apart from the buffer, so that the buffer does not reach back for the hot path
 * that holds it.
 */

/** Key requests refused before they had a caller (over the rate limit, without the scope). */
const refusedKeys = new WeakMap<Context<AppEnv>, { tenantId: string; keyId: string; userId: string }>()
/** Callers whose request was metered and admitted (a quota counted it). */
const counted = new WeakSet<object>()

/** Authentication verified a key and then refused the request: it is still the tenant's request. */
export function noteRefusedKey(
  c: Context<AppEnv>,
  key: { tenantId: string; keyId: string; userId: string },
): void {
  refusedKeys.set(c, key)
}

/** Metering admitted this caller's request (the request log's quota outcome: counted). */
export function noteQuotaCounted(caller: Caller): void {
  counted.add(caller)
}

/**
 * The frame's one call when the response is known: a request a tenant's key or signed-in member
 * made goes to the buffer. Service-role calls (jobs), anonymous ones and unknown keys are not a
 * tenant's requests. No await, no database.
 */
export function logTenantRequest(c: Context<AppEnv>, fn: string, started: number): void {
  const caller = c.get('caller')
  let tenantId: string
  let keyId: string | null = null
  let userId: string
  if (caller && 'tenantId' in caller) {
    if (caller.kind === 'service') return
    tenantId = caller.tenantId
    userId = caller.userId
    if (caller.kind !== 'user') keyId = caller.keyId
  } else {
    const refused = refusedKeys.get(c)
    if (!refused) return
    ;({ tenantId, keyId, userId } = refused)
  }
  const code = c.error instanceof ServiceError ? c.error.code : undefined
  const rl = c.get('rateLimit')
  const deps = c.get('deps')
  const latencyMs = Math.round(performance.now() - started)
  hotPathOf(deps).requestLog.add({
    at: deps.clock.now().getTime() - latencyMs,
    requestId: c.get('requestId'),
    method: c.req.method,
    fn,
    path: c.req.path,
    status: c.res.status,
    tenantId,
    keyId,
    userId,
    latencyMs,
    rateLimit: rl ? (code === 'RATE_LIMITED' ? 'limited' : 'allowed') : null,
    rateRemaining: rl ? rl.remaining : null,
    quota: code === 'QUOTA_EXCEEDED' ? 'exceeded' : caller && counted.has(caller) ? 'counted' : null,
    requests: 1,
  })
}
