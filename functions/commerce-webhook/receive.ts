import { z } from '@hono/zod-openapi'
import { runInBackground } from '@shared/infra/background.ts'
import { ServiceError } from '@shared/infra/errors.ts'
import type { AppEnv } from '@shared/infra/http/app-env.ts'
import { chargeClientAddress } from '@shared/infra/http/authenticate.ts'
import { depsOf } from '@shared/infra/http/define-route.ts'
import { kickProcessing } from '@shared/services/commerce/process.ts'
import { ReceiptRefused, receiveDelivery } from '@shared/services/commerce/receive.ts'
import type { Context } from 'hono'

export const receiptSchema = z
  .object({
    status: z.enum(['accepted', 'duplicate', 'ignored', 'ping']),
    delivery_id: z.uuid().nullable(),
  })
  .openapi('CommerceReceipt')

type ReceiptResponse = z.infer<typeof receiptSchema>

/**
 * A shop's delivery is never refused for its query string (a merchant may paste the address with
 * one, and a refused delivery is retried and then disabled by the shop): loose, unlike the API.
 */
export const receiptQuery = z.object({}).loose()

export const receiveDescription = `Shops authenticate by signature, not by our keys: base64 HMAC-SHA256 of the raw body under the
store's secret, in X-Shopify-Hmac-Sha256 (Shopify) or X-WC-Webhook-Signature (WooCommerce). Shopify also sends
X-Shopify-Shop-Domain, X-Shopify-Topic, X-Shopify-Webhook-Id (the dedupe key), X-Shopify-Event-Id,
X-Shopify-Triggered-At and X-Shopify-API-Version; WooCommerce X-WC-Webhook-Topic, X-WC-Webhook-Delivery-ID
(the dedupe key), -Source, -Resource and -Event. The delivery is stored and acknowledged at once (200) and
processed afterwards. An unknown store and a bad signature get the same 401; a topic outside the five is
acknowledged as ignored; a repeated webhook id is acknowledged as a duplicate.`

/** Shared by the two receiving routes: the shared Shopify address and a store's own path. */
export async function handleReceipt(c: Context<AppEnv>, storeId: string | undefined) {
  const deps = depsOf(c)
  const body = new Uint8Array(await c.req.arrayBuffer())
  try {
    const result = await receiveDelivery(deps, { storeId, header: (name) => c.req.header(name), body })
    if (result.status === 'accepted' && deps.config.COMMERCE_PROCESS_ON_RECEIPT)
      runInBackground(kickProcessing(deps))
    return c.json(result satisfies ReceiptResponse, 200)
  } catch (err) {
    // One line for the platform's operator; the sender gets only the generic refusal.
    if (err instanceof ReceiptRefused)
      deps.logger.warn('commerce delivery refused', {
        store_id: storeId,
        shop_domain: storeId ? undefined : c.req.header('x-shopify-shop-domain')?.slice(0, 255),
        topic: (c.req.header('x-shopify-topic') ?? c.req.header('x-wc-webhook-topic'))?.slice(0, 100),
        reason: err.reason,
      })
    // Failed signatures count against the sender's address, which throttles guessing; signed
    // deliveries are never rate limited (a shop that gets 429s disables the webhook).
    if (err instanceof ServiceError && err.code === 'AUTH_REQUIRED') await chargeClientAddress(c)
    throw err
  }
}
