import type { z } from '@hono/zod-openapi'
import type { ServiceContext } from '@shared/infra/deps.ts'
import { notFound, ServiceError } from '@shared/infra/errors.ts'
import { generateKey } from '@shared/infra/keys.ts'
import { assertPublicUrl, OutboundBlockedError, outboundPolicyFrom } from '@shared/infra/outbound.ts'
import { keysetPage, type Page, type PageRequest } from '@shared/infra/pagination.ts'
import {
  asPermissionError,
  columns,
  findSubscription,
  present,
  SECRET_PURPOSE,
  type SubscriptionRow,
} from './rows.ts'
import {
  type CreatedSubscription,
  type createSubscriptionBody,
  MAX_SUBSCRIPTIONS_PER_TENANT,
  type Subscription,
  type updateSubscriptionBody,
} from './schema.ts'

/** Webhook subscriptions: create (with its signing secret), list, get, update, delete. */

/** The SSRF policy at registration; the dispatcher applies it again at every send (DNS rebinding). */
async function assertDeliverable(ctx: ServiceContext, url: string): Promise<void> {
  try {
    await assertPublicUrl(url, outboundPolicyFrom(ctx.config))
  } catch (err) {
    const message =
      err instanceof OutboundBlockedError ? `refused: ${err.reason}` : 'the host does not resolve'
    throw new ServiceError('VALIDATION_ERROR', `url ${message}`, { details: [{ field: 'url', message }] })
  }
}

export type CreateSubscriptionInput = z.output<typeof createSubscriptionBody>

export async function createSubscription(
  ctx: ServiceContext,
  input: CreateSubscriptionInput,
): Promise<CreatedSubscription> {
  const { caller } = ctx
  await assertDeliverable(ctx, input.url)
  const now = ctx.clock.now()
  const secret = generateKey('whsec_')
  // Encrypt before the transaction: the vault uses its own connection.
  const ciphertext = await ctx.vault.encrypt(caller.tenantId, secret, SECRET_PURPOSE)
  const row = await ctx
    .asTenant(async (tx) => {
      // Serialise creations per tenant so the cap holds under concurrent requests.
      await tx`select pg_advisory_xact_lock(hashtextextended(${`webhooks:${caller.tenantId}`}, 0))`
      const [{ n }] =
        (await tx`select count(*)::int as n from public.webhook_subscriptions where tenant_id = ${caller.tenantId}`) as unknown as [
          { n: number },
        ]
      if (n >= MAX_SUBSCRIPTIONS_PER_TENANT) {
        throw new ServiceError(
          'UNPROCESSABLE',
          `A tenant has at most ${MAX_SUBSCRIPTIONS_PER_TENANT} webhook subscriptions`,
        )
      }
      const [created] = await tx<SubscriptionRow[]>`
      insert into public.webhook_subscriptions (tenant_id, url, events, description, secret_ciphertext, created_by, created_at, updated_at)
      values (${caller.tenantId}, ${input.url}, ${input.events}, ${input.description ?? null}, ${ciphertext}, ${caller.userId}, ${now}, ${now})
      returning ${tx.unsafe(columns)}`
      return created!
    })
    .catch(asPermissionError)
  return { ...present(row, now), secret }
}

export async function listSubscriptions(ctx: ServiceContext, page: PageRequest): Promise<Page<Subscription>> {
  const { caller } = ctx
  const now = ctx.clock.now()
  return keysetPage(
    page,
    { at: 'created_at' },
    (r: SubscriptionRow) => present(r, now),
    (keyset) =>
      ctx.asTenant(
        (tx) => tx<SubscriptionRow[]>`
      select ${tx.unsafe(columns)} from public.webhook_subscriptions
      where tenant_id = ${caller.tenantId}
        ${keyset(tx)}`,
      ),
  )
}

export async function getSubscription(ctx: ServiceContext, id: string): Promise<Subscription> {
  const { caller } = ctx
  const row = await ctx.asTenant((tx) => findSubscription(tx, caller.tenantId, id))
  return present(row, ctx.clock.now())
}

export type UpdateSubscriptionInput = z.output<typeof updateSubscriptionBody>

export async function updateSubscription(
  ctx: ServiceContext,
  id: string,
  input: UpdateSubscriptionInput,
): Promise<Subscription> {
  const { caller } = ctx
  if (input.url !== undefined) await assertDeliverable(ctx, input.url)
  const now = ctx.clock.now()
  const row = await ctx
    .asTenant(async (tx) => {
      const [updated] = await tx<SubscriptionRow[]>`
      update public.webhook_subscriptions set
        url = coalesce(${input.url ?? null}, url),
        events = coalesce(${input.events ?? null}::text[], events),
        description = ${input.description === undefined ? tx`description` : input.description},
        updated_at = ${now}
      where id = ${id} and tenant_id = ${caller.tenantId}
      returning ${tx.unsafe(columns)}`
      if (!updated) throw notFound('Webhook subscription')
      return updated
    })
    .catch(asPermissionError)
  return present(row, now)
}

/** Deletes the subscription with its delivery log. */
export async function deleteSubscription(ctx: ServiceContext, id: string): Promise<void> {
  const { caller } = ctx
  const deleted = await ctx
    .asTenant(
      (tx) =>
        tx`delete from public.webhook_subscriptions where id = ${id} and tenant_id = ${caller.tenantId} returning id`,
    )
    .catch(asPermissionError)
  if (deleted.length === 0) throw notFound('Webhook subscription')
}
