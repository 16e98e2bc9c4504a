import type { ServiceContext } from '@shared/infra/deps.ts'
import { notFound } from '@shared/infra/errors.ts'
import { generateKey } from '@shared/infra/keys.ts'
import { usingSecretsOf } from '@shared/infra/secret-columns.ts'
import { asPermissionError, runningOverlap, SECRET_PURPOSE } from './rows.ts'
import type { Secret } from './schema.ts'

/** The signing secret: reveal it (owners and admins) and rotate it with an overlap. */

export async function revealSecret(ctx: ServiceContext, id: string): Promise<Secret> {
  const { caller } = ctx
  // The ciphertext columns are not granted to members (the Data API must never show them), so
  // row-level security decides whether the caller sees the subscription, and the owner connection
  // reads the ciphertext of that row only.
  const row = await usingSecretsOf(
    ctx,
    ctx.asOwner,
    'Webhook subscription',
    async (tx) =>
      (
        await tx`select id from public.webhook_subscriptions where id = ${id} and tenant_id = ${caller.tenantId}`
      )[0],
    async (owner) =>
      (
        await owner<{ secret_ciphertext: string; previous_secret_expires_at: Date | null }[]>`
        select secret_ciphertext, previous_secret_expires_at from public.webhook_subscriptions
        where id = ${id} and tenant_id = ${caller.tenantId}`
      )[0],
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
  // Row-level security decides whether the caller may change the subscription (owners and admins):
  // touching it as the tenant is refused otherwise. Members cannot read the ciphertext columns,
  // so the swap itself runs on the owner connection, for that row only, in one statement: the
  // outgoing secret becomes the previous one, whatever concurrent rotations do.
  const row = await usingSecretsOf(
    ctx,
    ctx.asOwner,
    'Webhook subscription',
    async (tx) =>
      (
        await tx<{ id: string }[]>`
        update public.webhook_subscriptions set updated_at = ${now}
        where id = ${id} and tenant_id = ${caller.tenantId}
        returning id`.catch(asPermissionError)
      )[0],
    async (owner) =>
      (
        await owner<{ id: string }[]>`
        update public.webhook_subscriptions set
          previous_secret_ciphertext = ${expiresAt ? owner`secret_ciphertext` : null},
          previous_secret_expires_at = ${expiresAt},
          secret_ciphertext = ${ciphertext},
          updated_at = ${now}
        where id = ${id} and tenant_id = ${caller.tenantId}
        returning id`
      )[0],
  )
  if (!row) throw notFound('Webhook subscription')
  return { secret, previous_secret_expires_at: expiresAt?.toISOString() ?? null }
}
