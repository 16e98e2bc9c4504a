import type { z } from '@hono/zod-openapi'
import { isPgError, pgErrors, privilegeErrorAs } from '@shared/infra/db.ts'
import type { FunctionDeps, ServiceContext } from '@shared/infra/deps.ts'
import { invalidField, notFound, ServiceError } from '@shared/infra/errors.ts'
import { keysetPage, type Page, type PageRequest } from '@shared/infra/pagination.ts'
import type { createStoreBody, Platform, rotateStoreSecretBody, Store, updateStoreBody } from './schema.ts'

/** Connected shops: create, list, get, update, rotate the signing secret, delete. */

export const STORE_SECRET_PURPOSE = 'commerce-webhook-secret'
const FUNCTION_NAME = 'commerce-webhook'

interface StoreRow {
  id: string
  platform: Platform
  shop: string
  name: string
  secret_updated_at: Date
  created_at: Date
  updated_at: Date
}

const columns = 'id, platform, shop, name, secret_updated_at, created_at, updated_at'

/** {functions_url}: the Supabase project URL where functions answer, else this deployment's public URL. */
function functionsUrl(deps: Pick<FunctionDeps, 'config'>): string {
  return (deps.config.SUPABASE_URL ?? deps.config.PUBLIC_URL).replace(/\/+$/, '')
}

/**
 * Every store, Shopify's too, has its own delivery address: only that store's secret is tried
 * there, so no other tenant's stores can change its outcome (docs/commerce.md, "Why each store has
 * its own address"). The shared Shopify address still answers, for shops whose webhooks point there.
 */
function webhookUrl(deps: Pick<FunctionDeps, 'config'>, row: Pick<StoreRow, 'id'>): string {
  return `${functionsUrl(deps)}/functions/v1/${FUNCTION_NAME}/stores/${row.id}`
}

function present(deps: Pick<FunctionDeps, 'config'>, row: StoreRow): Store {
  return {
    id: row.id,
    platform: row.platform,
    name: row.name,
    shop_domain: row.platform === 'shopify' ? row.shop : null,
    site_url: row.platform === 'woocommerce' ? row.shop : null,
    webhook_url: webhookUrl(deps, row),
    secret_updated_at: row.secret_updated_at.toISOString(),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  }
}

const asPermissionError = privilegeErrorAs('Only owners and admins manage commerce stores')

function asConflict(err: unknown): never {
  if (isPgError(err, pgErrors.uniqueViolation))
    throw new ServiceError('CONFLICT', 'This tenant already connected that shop')
  throw err
}

export async function createStore(
  ctx: ServiceContext,
  input: z.output<typeof createStoreBody>,
): Promise<Store> {
  const { caller } = ctx
  const now = ctx.clock.now()
  const shop = input.platform === 'shopify' ? input.shop_domain : input.site_url
  // The vault is called outside the tenant transaction (see shared/infra/vault.ts).
  const ciphertext = await ctx.vault.encrypt(caller.tenantId, input.secret, STORE_SECRET_PURPOSE)
  const [row] = await ctx
    .asTenant(
      (tx) => tx<StoreRow[]>`
      insert into public.commerce_stores (tenant_id, platform, shop, name, secret_ciphertext, secret_updated_at, created_by, created_at, updated_at)
      values (${caller.tenantId}, ${input.platform}, ${shop}, ${input.name}, ${ciphertext}, ${now}, ${caller.userId}, ${now}, ${now})
      returning ${tx.unsafe(columns)}`,
    )
    .catch(asPermissionError)
    .catch(asConflict)
  return present(ctx, row!)
}

export async function listStores(ctx: ServiceContext, page: PageRequest): Promise<Page<Store>> {
  const { caller } = ctx
  return keysetPage(
    page,
    { at: 'created_at' },
    (r: StoreRow) => present(ctx, r),
    (keyset) =>
      ctx.asTenant(
        (tx) => tx<StoreRow[]>`
      select ${tx.unsafe(columns)} from public.commerce_stores
      where tenant_id = ${caller.tenantId}
        ${keyset(tx)}`,
      ),
  )
}

export async function getStore(ctx: ServiceContext, id: string): Promise<Store> {
  const { caller } = ctx
  const [row] = await ctx.asTenant(
    (tx) => tx<StoreRow[]>`
      select ${tx.unsafe(columns)} from public.commerce_stores where id = ${id} and tenant_id = ${caller.tenantId}`,
  )
  if (!row) throw notFound('Store')
  return present(ctx, row)
}

export async function updateStore(
  ctx: ServiceContext,
  id: string,
  input: z.output<typeof updateStoreBody>,
): Promise<Store> {
  const { caller } = ctx
  const now = ctx.clock.now()
  const row = await ctx
    .asTenant(async (tx) => {
      const [existing] = await tx<StoreRow[]>`
      select ${tx.unsafe(columns)} from public.commerce_stores where id = ${id} and tenant_id = ${caller.tenantId}`
      if (!existing) return null
      if (input.shop_domain !== undefined && existing.platform !== 'shopify')
        throw invalidField('shop_domain', 'is for Shopify stores; a WooCommerce store has site_url')
      if (input.site_url !== undefined && existing.platform !== 'woocommerce')
        throw invalidField('site_url', 'is for WooCommerce stores; a Shopify store has shop_domain')
      const shop = input.shop_domain ?? input.site_url ?? existing.shop
      const [updated] = await tx<StoreRow[]>`
      update public.commerce_stores set name = ${input.name ?? existing.name}, shop = ${shop}, updated_at = ${now}
      where id = ${id} and tenant_id = ${caller.tenantId}
      returning ${tx.unsafe(columns)}`
      return updated ?? null
    })
    .catch(asPermissionError)
    .catch(asConflict)
  if (!row) throw notFound('Store')
  return present(ctx, row)
}

/** Takes effect on the next delivery, on every instance: the receiver checks the ciphertext it verified with. */
export async function rotateStoreSecret(
  ctx: ServiceContext,
  id: string,
  input: z.output<typeof rotateStoreSecretBody>,
): Promise<Store> {
  const { caller } = ctx
  const now = ctx.clock.now()
  const ciphertext = await ctx.vault.encrypt(caller.tenantId, input.secret, STORE_SECRET_PURPOSE)
  const [row] = await ctx
    .asTenant(
      (tx) => tx<StoreRow[]>`
      update public.commerce_stores set secret_ciphertext = ${ciphertext}, secret_updated_at = ${now}, updated_at = ${now}
      where id = ${id} and tenant_id = ${caller.tenantId}
      returning ${tx.unsafe(columns)}`,
    )
    .catch(asPermissionError)
  if (!row) throw notFound('Store')
  return present(ctx, row)
}

/** Deletes the store with its deliveries, orders and products. */
export async function deleteStore(ctx: ServiceContext, id: string): Promise<void> {
  const { caller } = ctx
  const deleted = await ctx
    .asTenant(
      (tx) =>
        tx`delete from public.commerce_stores where id = ${id} and tenant_id = ${caller.tenantId} returning id`,
    )
    .catch(asPermissionError)
  if (deleted.length === 0) throw notFound('Store')
}
