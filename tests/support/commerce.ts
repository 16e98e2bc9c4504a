/**
 * A shop on loopback, as far as our receiver can tell: deliveries signed the way Shopify and
 * WooCommerce sign them (base64 HMAC-SHA256 of the raw body, computed here with node:crypto,
 * independently of the code under test), with payloads shaped like the platforms' documented
 * examples for the five topics.
 */
import { createHmac, randomUUID } from 'node:crypto'
import type { TestPlatform } from './platform.ts'

export const nodeSign = (secret: string, body: string | Buffer) =>
  createHmac('sha256', secret).update(body).digest('base64')

export interface ShopifyDelivery {
  domain: string
  secret: string
  topic: string
  body: string
  webhookId?: string
  triggeredAt?: string
  /** Overrides (or, with undefined, removes) headers after signing. */
  headers?: Record<string, string | undefined>
}

export function shopifyHeaders(d: ShopifyDelivery): Record<string, string> {
  const headers: Record<string, string | undefined> = {
    'content-type': 'application/json',
    'x-shopify-topic': d.topic,
    'x-shopify-hmac-sha256': nodeSign(d.secret, d.body),
    'x-shopify-shop-domain': d.domain,
    'x-shopify-webhook-id': d.webhookId ?? randomUUID(),
    'x-shopify-event-id': randomUUID(),
    'x-shopify-triggered-at': d.triggeredAt ?? new Date().toISOString(),
    'x-shopify-api-version': '2025-10',
    ...d.headers,
  }
  return Object.fromEntries(Object.entries(headers).filter((e): e is [string, string] => e[1] !== undefined))
}

export interface WooDelivery {
  secret: string
  topic: string
  body: string
  deliveryId?: string
  headers?: Record<string, string | undefined>
}

export function wooHeaders(d: WooDelivery): Record<string, string> {
  const [resource, event] = d.topic.split('.')
  const headers: Record<string, string | undefined> = {
    'content-type': 'application/json',
    'user-agent': 'WooCommerce/9.4.0 Hookshot (WordPress/6.7)',
    'x-wc-webhook-source': 'https://shop.example.com/',
    'x-wc-webhook-topic': d.topic,
    'x-wc-webhook-resource': resource,
    'x-wc-webhook-event': event,
    'x-wc-webhook-signature': nodeSign(d.secret, d.body),
    'x-wc-webhook-id': '12',
    'x-wc-webhook-delivery-id': d.deliveryId ?? randomUUID().replace(/-/g, ''),
    ...d.headers,
  }
  return Object.fromEntries(Object.entries(headers).filter((e): e is [string, string] => e[1] !== undefined))
}

export const SHOPIFY_PATH = '/functions/v1/commerce-webhook'
export const storePath = (storeId: string) => `/functions/v1/commerce-webhook/stores/${storeId}`

export async function post(
  tp: TestPlatform,
  path: string,
  headers: Record<string, string>,
  body: string,
  instance = 0,
) {
  return tp.json(path, { method: 'POST', headers, body, instance })
}

/** Polls the delivery log until the delivery reaches one of `statuses`. */
export async function waitForDelivery(
  tp: TestPlatform,
  token: string,
  id: string,
  statuses: string[] = ['processed', 'failed', 'ignored'],
  timeoutMs = 10_000,
): Promise<Record<string, any>> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const res = await tp.json(`/api/commerce/deliveries/${id}`, { token })
    if (res.status === 200 && statuses.includes(res.body.status)) return res.body
    if (Date.now() > deadline) throw new Error(`delivery ${id} stayed ${JSON.stringify(res.body)}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

// Payloads shaped like the platforms' documented webhook examples. Shopify's ids are 64-bit
// (beyond JavaScript's safe integers), so these bodies are written as text, not JSON.stringify'd.

export function shopifyOrder(o: { id?: string; updatedAt: string; financial?: string; total?: string }) {
  return `{"id":${o.id ?? '820982911946154508'},"admin_graphql_api_id":"gid://shopify/Order/${o.id ?? '820982911946154508'}",
"email":"jon@example.com","name":"#9999","order_number":1234,"currency":"USD","presentment_currency":"USD",
"created_at":"2021-12-31T19:00:00-05:00","updated_at":"${o.updatedAt}","processed_at":"2021-12-31T19:00:00-05:00",
"total_price":"${o.total ?? '403.00'}","subtotal_price":"393.00","total_tax":"0.00","total_discounts":"20.00",
"total_shipping_price_set":{"shop_money":{"amount":"10.00","currency_code":"USD"},"presentment_money":{"amount":"10.00","currency_code":"USD"}},
"financial_status":"${o.financial ?? 'paid'}","fulfillment_status":null,"phone":"+15555550100","note":"Leave at the door",
"customer":{"id":115310627314723954,"email":"john@example.com","first_name":"John","last_name":"Smith","phone":"+15555550100",
"default_address":{"address1":"123 Elm St.","city":"Ottawa","country":"Canada","zip":"K2H7A8"}},
"billing_address":{"first_name":"Bob","address1":"123 Billing Street","city":"Billtown","zip":"K2P0B0","country":"United States"},
"shipping_address":{"first_name":"Steve","address1":"123 Shipping Street","city":"Shippington","zip":"40003","country":"United States"},
"browser_ip":"203.0.113.7",
"line_items":[{"id":866550311766439020,"product_id":632910392,"variant_id":808950810,"sku":"IPOD2008PINK","title":"IPod Nano - 8GB","variant_title":null,"quantity":1,"price":"199.00","name":"IPod Nano - 8GB"},
{"id":141249953214522974,"product_id":632910392,"variant_id":49148385,"sku":"IPOD2008RED","title":"IPod Nano - 8GB","variant_title":"red","quantity":1,"price":"199.00","name":"IPod Nano - 8GB - red"}]}`
}

export function shopifyProduct(p: { id?: string; updatedAt: string; title?: string; price?: string }) {
  const id = p.id ?? '788032119674292922'
  return `{"id":${id},"admin_graphql_api_id":"gid://shopify/Product/${id}","title":"${p.title ?? 'Example T-Shirt'}",
"body_html":"An example T-Shirt","vendor":"Acme","product_type":"Shirts","handle":"example-t-shirt","status":"active",
"created_at":null,"updated_at":"${p.updatedAt}","published_at":"2021-12-31T19:00:00-05:00","tags":"example, mens, t-shirt",
"variants":[{"id":642667041472713922,"product_id":${id},"title":"Small","price":"${p.price ?? '19.99'}","sku":"example-shirt-s","position":1,
"compare_at_price":"24.99","inventory_quantity":75,"inventory_item_id":null,"created_at":null,"updated_at":null},
{"id":757650484644203962,"product_id":${id},"title":"Medium","price":"${p.price ?? '19.99'}","sku":"example-shirt-m","position":2,
"compare_at_price":"24.99","inventory_quantity":50,"inventory_item_id":null,"created_at":null,"updated_at":null}],
"options":[{"id":527050010214937811,"product_id":${id},"name":"Title","position":1,"values":["Small","Medium"]}],
"images":[{"id":539438707724640965,"product_id":${id},"position":1,"alt":"Front","width":323,"height":434,"src":"https://cdn.shopify.com/s/files/1/0005/4838/0009/products/shirt.jpg"}],
"image":null,"variant_gids":[]}`
}

export const shopifyProductDelete = (id = '788032119674292922') => `{"id":${id}}`

export function wooOrder(o: { id?: number; modifiedGmt: string; status?: string }) {
  return JSON.stringify({
    id: o.id ?? 727,
    parent_id: 0,
    number: String(o.id ?? 727),
    order_key: 'wc_order_58d2d042d1d',
    created_via: 'rest-api',
    version: '9.4.0',
    status: o.status ?? 'processing',
    currency: 'USD',
    date_created: '2017-03-22T16:28:02',
    date_created_gmt: '2017-03-22T19:28:02',
    date_modified: '2017-03-22T16:28:08',
    date_modified_gmt: o.modifiedGmt,
    discount_total: '0.00',
    shipping_total: '10.00',
    total: '29.35',
    total_tax: '1.35',
    prices_include_tax: false,
    customer_id: 0,
    customer_ip_address: '198.51.100.4',
    billing: { first_name: 'John', last_name: 'Doe', email: 'john.doe@example.com', phone: '(555) 555-5555' },
    shipping: { first_name: 'John', last_name: 'Doe', address_1: '969 Market', city: 'San Francisco' },
    payment_method: 'bacs',
    line_items: [
      {
        id: 315,
        name: 'Woo Single #1',
        product_id: 93,
        variation_id: 0,
        quantity: 2,
        subtotal: '6.00',
        total: '6.00',
        sku: '',
        price: 3,
      },
      {
        id: 316,
        name: 'Ship Your Idea',
        product_id: 22,
        variation_id: 23,
        quantity: 1,
        subtotal: '20.00',
        total: '20.00',
        sku: 'SYI-BLK',
        price: 20,
      },
    ],
  })
}

export function wooProduct(p: { id?: number; modifiedGmt: string; name?: string; price?: string }) {
  return JSON.stringify({
    id: p.id ?? 794,
    name: p.name ?? 'Premium Quality',
    slug: 'premium-quality-19',
    type: 'simple',
    status: 'publish',
    featured: false,
    description: '<p>Pellentesque habitant morbi tristique.</p>',
    sku: 'PQ-19',
    price: p.price ?? '21.99',
    regular_price: '24.99',
    sale_price: p.price ?? '21.99',
    date_created_gmt: '2017-03-23T20:01:14',
    date_modified_gmt: p.modifiedGmt,
    manage_stock: true,
    stock_quantity: 12,
    stock_status: 'instock',
    categories: [{ id: 9, name: 'Clothing', slug: 'clothing' }],
    images: [
      { id: 792, src: 'https://example.com/wp-content/uploads/2017/03/T_2_front-4.jpg', name: '', alt: '' },
      {
        id: 793,
        src: 'https://example.com/wp-content/uploads/2017/03/T_2_back-2.jpg',
        name: '',
        alt: 'Back',
      },
    ],
    variations: [],
  })
}

export const wooProductDelete = (id = 794) => JSON.stringify({ id })
