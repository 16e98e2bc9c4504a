import type { ServiceContext } from '@shared/infra/deps.ts'

/**
 * HTTP+SSE sessions (private.mcp_sse_sessions): a row per open GET /sse stream, naming the key
 * that opened it and the instance that holds it. The table is in the private schema (no API-role
 * grant), so both operations use the owner handle; times are wall-clock (streams are real time).
 */

export interface OpenedSession {
  id: string
  keyId: string
  keyHash: string
  instanceId: string
  openedAt: Date
  expiresAt: Date
}

/** Clears sessions of instances that died without cleaning up, then records this one. */
export async function openSseSession(ctx: ServiceContext, s: OpenedSession): Promise<void> {
  await ctx.asOwner`delete from private.mcp_sse_sessions where expires_at < ${new Date(s.openedAt.getTime() - 60_000)}`
  await ctx.asOwner`
    insert into private.mcp_sse_sessions (id, tenant_id, key_id, key_hash, instance_id, opened_at, expires_at)
    values (${s.id}, ${ctx.caller.tenantId}, ${s.keyId}, ${s.keyHash}, ${s.instanceId}, ${s.openedAt}, ${s.expiresAt})`
}

/** Removes a session when its stream ends (its queued messages go with it, by cascade). */
export async function closeSseSession(ctx: ServiceContext, sessionId: string): Promise<void> {
  await ctx.asOwner`delete from private.mcp_sse_sessions where id = ${sessionId}`
}
