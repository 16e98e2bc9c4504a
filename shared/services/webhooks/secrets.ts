import { withTenant } from '../../infra/db.ts'
import type { ServiceContext } from '../../infra/deps.ts'
import { notFound } from '../../infra/errors.ts'
import { generateKey } from '../../infra/keys.ts'
import { asPermissionError, runningOverlap, SECRET_PURPOSE } from './rows.ts'
import type { Secret } from './schema.ts'

/** The signing secret: reveal it (owners and admins) and rotate it with an overlap. */

export async function revealSecret(ctx: ServiceContext, id: string): Promise<Secret> {
  const { caller } = ctx
  const [row] = await withTenant(
    ctx.sql,
    caller.claims,
    (tx) => tx<{ secret_ciphertext: string; previous_secret_expires_at: Date | null }[]>`
      select secret_ciphertext, previous_secret_expires_at from public.webhook_subscriptions
      where id = ${id} and tenant_id = ${caller.tenantId}`,
  )
  if (!row) throw notFound('Webhook subscription')
  const now = ctx.clock.now()
  const secret = await ctx.vault.decrypt(caller.tenantId, row.secret_ciphertext, SECRET_PURPOSE)
  return { secret, previous_secret_expires_at: runningOverlap(row.previous_secret_expires_at, now) }
}

/** A new secret; the previous one keeps signing for `overlapSeconds` (0: switch at once). */
export async function rotateSecret(ctx: ServiceContext, id: string, overlapSeconds: number): Promise<Secret> {
  const { caller } = ctx
  const now = ctx.clock.now()
  const secret = generateKey('whsec_')
  const ciphertext = await ctx.vault.encrypt(caller.tenantId, secret, SECRET_PURPOSE)
  const expiresAt = overlapSeconds > 0 ? new Date(now.getTime() + overlapSeconds * 1000) : null
  // One statement: the outgoing secret becomes the previous one, whatever concurrent rotations do.
  const [row] = await withTenant(
    ctx.sql,
    caller.claims,
    (tx) => tx<{ id: string }[]>`
      update public.webhook_subscriptions set
        previous_secret_ciphertext = ${expiresAt ? tx`secret_ciphertext` : null},
        previous_secret_expires_at = ${expiresAt},
        secret_ciphertext = ${ciphertext},
        updated_at = ${now}
      where id = ${id} and tenant_id = ${caller.tenantId}
      returning id`,
  ).catch(asPermissionError)
  if (!row) throw notFound('Webhook subscription')
  return { secret, previous_secret_expires_at: expiresAt?.toISOString() ?? null }
}
