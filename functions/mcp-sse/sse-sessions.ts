import { timingSafeEqual } from '@shared/infra/crypto.ts'
import type { AppEnv } from '@shared/infra/http/app-env.ts'
import { hashKey } from '@shared/infra/keys.ts'
import type { Context } from 'hono'
import { presentedKey } from './tool-auth.ts'

/** HTTP+SSE sessions in private.mcp_sse_sessions; times are wall-clock (streams are real time). */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * The session if it is open and was opened with the key this request presents; null otherwise
 * (unknown, expired, or another key's: all refused alike).
 */
export async function sessionForKey(
  c: Context<AppEnv>,
  sessionId: string,
): Promise<{ tenant_id: string } | null> {
  const key = presentedKey(c)
  if (!key || !UUID.test(sessionId)) return null
  const [row] = await c.var.deps.sql<{ tenant_id: string; key_hash: string }[]>`
    select tenant_id, key_hash from private.mcp_sse_sessions where id = ${sessionId} and expires_at > ${new Date()}`
  if (!row || !timingSafeEqual(row.key_hash, hashKey(key))) return null
  return { tenant_id: row.tenant_id }
}
