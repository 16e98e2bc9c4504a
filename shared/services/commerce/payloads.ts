/**
 * The shops' payloads, read into one shape per resource: an index of one reader per platform
 * (`payloads/shopify.ts`, `payloads/woocommerce.ts`) over shared field schemas
 * (`payloads/fields.ts`). Only the fields the sync needs are read; everything else (customer
 * names, e-mail, addresses, notes) is dropped there and never stored.
 */
import { z } from 'zod'
import { externalId, type OrderRecord, type ProductRecord, parseWith } from './payloads/fields.ts'
import { readShopifyOrder, readShopifyProduct } from './payloads/shopify.ts'
import { type CommerceTopic, commerceTopics } from './payloads/topics.ts'
import { readWooOrder, readWooProduct, wooTopics } from './payloads/woocommerce.ts'

export {
  type Image,
  type OrderRecord,
  PayloadError,
  type ProductRecord,
  parseShopJson,
  readJsonBody,
  type Variant,
} from './payloads/fields.ts'
export type { CommerceTopic } from './payloads/topics.ts'

type Platform = 'shopify' | 'woocommerce'

/** Each platform's readers: its topic names, its order and its product payloads. */
const platforms: Record<
  Platform,
  {
    topic(topic: string): CommerceTopic | null
    order(body: unknown): OrderRecord
    product(body: unknown): ProductRecord
  }
> = {
  shopify: {
    topic: (topic) =>
      (commerceTopics as readonly string[]).includes(topic) ? (topic as CommerceTopic) : null,
    order: readShopifyOrder,
    product: readShopifyProduct,
  },
  woocommerce: { topic: (topic) => wooTopics[topic] ?? null, order: readWooOrder, product: readWooProduct },
}

/** Our topic for a shop's topic header, or null for a topic we do not handle. */
export function normaliseTopic(platform: Platform, topic: string): CommerceTopic | null {
  return platforms[platform].topic(topic)
}

export function readOrder(platform: Platform, body: unknown): OrderRecord {
  return platforms[platform].order(body)
}

export function readProduct(platform: Platform, body: unknown): ProductRecord {
  return platforms[platform].product(body)
}

const deletedResource = z.object({ id: externalId })

export function readDeletedId(body: unknown): string {
  return parseWith(deletedResource, body).id
}
