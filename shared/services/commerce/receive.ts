/**
 * Receiving a shop's delivery: identify the store, verify the signature over the raw bytes, and
 * store the delivery in one statement. Nothing is parsed before the signature holds, and the
 * answer goes back before any processing (a shop gives up after a few seconds: Shopify 5 s).
 *
 * This is service-role work: the shop is not a tenant caller. The store names the tenant, and
 * every statement scopes by it. An unknown store and a bad signature raise the same error.
 */
import type { FunctionDeps } from '@shared/infra/deps.ts'
import { ServiceError } from '@shared/infra/errors.ts'
import { normaliseTopic } from './payloads.ts'
import type { Platform } from './schema.ts'
import { STORE_SECRET_PURPOSE } from './stores.ts'
import { verifyShopSignature } from './verify.ts'

type HeaderReader = (name: string) => string | undefined

export interface InboundDelivery {
  /** Set for the per-store path (`/stores/{id}`); absent at the shared Shopify address (by shop domain). */
  storeId?: string
  header: HeaderReader
  body: Uint8Array
}

export interface ReceiveResult {
  status: 'accepted' | 'duplicate' | 'ignored' | 'ping'
  delivery_id: string | null
}

/**
 * The one refusal for an unknown store, a store of another platform and a bad signature: the
 * sender learns nothing more. `reason` says which, for the platform's own log line only.
 */
export class ReceiptRefused extends ServiceError {
  constructor(readonly reason: string) {
    super('AUTH_REQUIRED', 'Unknown store or invalid webhook signature')
  }
}
const refused = (reason: string) => new ReceiptRefused(reason)

const missingHeader = (name: string) =>
  new ServiceError('VALIDATION_ERROR', `Missing header ${name}`, {
    details: [{ field: `header.${name}`, message: 'required' }],
  })

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
/** WooCommerce's ping when a webhook is saved: an unsigned form body naming its webhook. */
const WOO_PING = /^webhook_id=\d{1,20}$/

interface DeliveryHeaders {
  platform: Platform
  signature: string
  topic: string
  webhookId: string
  eventId: string | null
  triggeredAt: Date | null
  apiVersion: string | null
}

const bounded = (value: string | undefined, max: number) => {
  const v = value?.trim()
  return v && v.length <= max ? v : null
}

function readHeaders(delivery: InboundDelivery): DeliveryHeaders {
  const h = delivery.header
  const shopifySignature = h('x-shopify-hmac-sha256')
  const wooSignature = h('x-wc-webhook-signature')
  // The shared address takes Shopify only; a store's own path takes either platform's headers.
  const platform: Platform | null =
    delivery.storeId === undefined
      ? 'shopify'
      : wooSignature
        ? 'woocommerce'
        : shopifySignature
          ? 'shopify'
          : null
  const signature = platform === 'woocommerce' ? wooSignature : shopifySignature
  if (!platform || !signature) throw refused('no X-Shopify-Hmac-Sha256 or X-WC-Webhook-Signature header')
  const [topicHeader, idHeader] =
    platform === 'shopify'
      ? ['x-shopify-topic', 'x-shopify-webhook-id']
      : ['x-wc-webhook-topic', 'x-wc-webhook-delivery-id']
  const topic = bounded(h(topicHeader), 200)
  if (!topic) throw missingHeader(topicHeader)
  const webhookId = bounded(h(idHeader), 200)
  if (!webhookId) throw missingHeader(idHeader)
  const triggered = platform === 'shopify' ? bounded(h('x-shopify-triggered-at'), 64) : null
  const triggeredAt = triggered ? new Date(triggered) : null
  return {
    platform,
    signature,
    topic,
    webhookId,
    eventId: platform === 'shopify' ? bounded(h('x-shopify-event-id'), 200) : null,
    triggeredAt: triggeredAt && !Number.isNaN(triggeredAt.getTime()) ? triggeredAt : null,
    apiVersion: platform === 'shopify' ? bounded(h('x-shopify-api-version'), 50) : null,
  }
}

interface CandidateStore {
  id: string
  tenant_id: string
  platform: Platform
  secret_ciphertext: string
  secret: Promise<string>
}

/**
 * Stores by shop domain or id, with their decrypted secrets, cached briefly per database. The
 * cache only saves the look-up: the insert re-checks that the secret verified with is still the
 * store's current one, so a rotation or a deletion takes effect on the next delivery everywhere.
 */
const CACHE_MS = 60_000
const CACHE_MAX = 10_000
const storeCaches = new WeakMap<object, Map<string, { at: number; stores: Promise<CandidateStore[]> }>>()

function cacheFor(deps: Pick<FunctionDeps, 'sql'>) {
  let cache = storeCaches.get(deps.sql)
  if (!cache) {
    cache = new Map()
    storeCaches.set(deps.sql, cache)
  }
  return cache
}

async function loadStores(
  deps: Pick<FunctionDeps, 'sql' | 'vault'>,
  key: { storeId: string } | { shopDomain: string },
): Promise<CandidateStore[]> {
  const rows =
    'storeId' in key
      ? await deps.sql<Omit<CandidateStore, 'secret'>[]>`
          select id, tenant_id, platform, secret_ciphertext from public.commerce_stores where id = ${key.storeId}`
      : // The shared address: every store still on it for this domain (no limit: with one, enough
        // squatted stores would hide the real one). Only stores connected before per-store addresses
        // are on it, so this set is closed; see migrations/20261127010100.
        await deps.sql<Omit<CandidateStore, 'secret'>[]>`
          select id, tenant_id, platform, secret_ciphertext from public.commerce_stores
          where platform = 'shopify' and shop = ${key.shopDomain} and shared_address
          order by created_at, id`
  return rows.map((r) => {
    const secret = deps.vault.decrypt(r.tenant_id, r.secret_ciphertext, STORE_SECRET_PURPOSE)
    secret.catch(() => {})
    return { ...r, secret }
  })
}

function candidateStores(
  deps: Pick<FunctionDeps, 'sql' | 'vault'>,
  key: { storeId: string } | { shopDomain: string },
  fresh: boolean,
): Promise<CandidateStore[]> {
  const cache = cacheFor(deps)
  const cacheKey = 'storeId' in key ? `id:${key.storeId}` : `shop:${key.shopDomain}`
  const hit = cache.get(cacheKey)
  if (hit && !fresh && performance.now() - hit.at < CACHE_MS) return hit.stores
  if (cache.size >= CACHE_MAX) cache.clear()
  const stores = loadStores(deps, key)
  cache.set(cacheKey, { at: performance.now(), stores })
  stores.catch(() => cache.delete(cacheKey))
  return stores
}

/**
 * The first store (oldest first) whose secret verifies the signature. Every candidate is checked,
 * each in constant time, whether or not an earlier one matched: the time taken does not say which
 * store, if any, the delivery was for.
 */
async function verifiedStore(
  stores: CandidateStore[],
  platform: Platform,
  body: Uint8Array,
  signature: string,
): Promise<CandidateStore | null> {
  let found: CandidateStore | null = null
  for (const store of stores) {
    if (store.platform !== platform) continue
    let secret: string
    try {
      secret = await store.secret
    } catch {
      continue
    }
    const verified = await verifyShopSignature(secret, body, signature)
    if (verified && !found) found = store
  }
  return found
}

/**
 * Verifies and stores one delivery. Topics outside the five are stored as ignored (without their
 * payload) and acknowledged, so the shop neither retries nor disables the webhook. A repeated
 * webhook id is acknowledged as a duplicate: the unique key makes that hold across instances.
 */
export async function receiveDelivery(
  deps: Pick<FunctionDeps, 'sql' | 'vault' | 'clock'>,
  delivery: InboundDelivery,
): Promise<ReceiveResult> {
  if (delivery.storeId !== undefined) {
    const unsigned = !delivery.header('x-wc-webhook-signature') && !delivery.header('x-shopify-hmac-sha256')
    if (unsigned && delivery.body.length <= 40 && WOO_PING.test(new TextDecoder().decode(delivery.body)))
      return { status: 'ping', delivery_id: null }
    if (!UUID.test(delivery.storeId)) throw refused('the store id in the address is not a store id')
  }
  const headers = readHeaders(delivery)
  let key: { storeId: string } | { shopDomain: string }
  if (delivery.storeId !== undefined) key = { storeId: delivery.storeId.toLowerCase() }
  else {
    const domain = bounded(delivery.header('x-shopify-shop-domain'), 255)?.toLowerCase()
    if (!domain) throw refused('no X-Shopify-Shop-Domain header')
    key = { shopDomain: domain }
  }

  const topic = normaliseTopic(headers.platform, headers.topic)
  const now = deps.clock.now()
  for (const fresh of [false, true]) {
    const store = await verifiedStore(
      await candidateStores(deps, key, fresh),
      headers.platform,
      delivery.body,
      headers.signature,
    )
    if (!store) {
      if (fresh)
        throw refused(
          'no store of this platform matches the address, or the signature does not verify with its secret',
        )
      continue
    }
    const ignored = topic === null
    // One statement: the store check (its secret unchanged since we verified) and the insert.
    const [row] = await deps.sql<{ stores: number; id: string | null }[]>`
      with store as (
        select id, tenant_id from public.commerce_stores
        where id = ${store.id} and secret_ciphertext = ${store.secret_ciphertext}
      ), inserted as (
        insert into public.commerce_deliveries
          (tenant_id, store_id, platform, topic, webhook_id, event_id, triggered_at, api_version, payload,
           payload_bytes, status, outcome, next_attempt_at, received_at, processed_at, updated_at)
        select tenant_id, id, ${headers.platform}, ${topic ?? headers.topic}, ${headers.webhookId}, ${headers.eventId},
               ${headers.triggeredAt}, ${headers.apiVersion}, ${ignored ? null : delivery.body}, ${delivery.body.length},
               ${ignored ? 'ignored' : 'pending'}, ${ignored ? 'topic not handled' : null}, ${ignored ? null : now},
               ${now}, ${ignored ? now : null}, ${now}
        from store
        on conflict (store_id, webhook_id) do nothing
        returning id
      )
      select (select count(*)::int from store) as stores, (select id from inserted) as id`
    if (row!.stores === 0) continue // rotated or deleted since it was cached: look again
    if (!row!.id) return { status: 'duplicate', delivery_id: null }
    return { status: ignored ? 'ignored' : 'accepted', delivery_id: row!.id }
  }
  throw refused('the store was rotated or deleted while the delivery arrived')
}
