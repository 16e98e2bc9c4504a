// Receiving and syncing: deliveries signed exactly as Shopify and WooCommerce sign them, for all
// five topics, through the real platform over HTTP; then the reads at /v1/commerce.
import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  post,
  SHOPIFY_PATH,
  shopifyHeaders,
  shopifyOrder,
  shopifyProduct,
  shopifyProductDelete,
  storePath,
  waitForDelivery,
  wooHeaders,
  wooOrder,
  wooProduct,
  wooProductDelete,
} from './support/commerce.ts'
import { startTestPlatform, type TestPlatform, type TestTenant } from './support/platform.ts'

let tp: TestPlatform
let a: TestTenant
let b: TestTenant
let shopifyStore: string
let wooStore: string
let keyWithScope: string
let keyWithoutScope: string
const DOMAIN = 'acme-test.myshopify.com'
const SECRET = 'shpss_acme_0123456789'
const WOO_SECRET = 'woo-webhook-secret-xyz'

beforeAll(async () => {
  tp = await startTestPlatform({ env: { MAX_BODY_BYTES: String(256 * 1024) } })
  a = await tp.createTenant()
  b = await tp.createTenant()
  shopifyStore = (
    await tp.json('/api/commerce/stores', {
      token: a.token,
      body: { platform: 'shopify', shop_domain: DOMAIN, name: 'Acme', secret: SECRET },
    })
  ).body.id
  wooStore = (
    await tp.json('/api/commerce/stores', {
      token: a.token,
      body: {
        platform: 'woocommerce',
        site_url: 'https://shop.example.com',
        name: 'Woo',
        secret: WOO_SECRET,
      },
    })
  ).body.id
  const key = (scopes: string[]) =>
    tp.json('/api/api-keys', {
      token: a.token,
      body: { name: scopes.join() || 'none', environment: 'production', scopes, rate_limit_per_minute: 1000 },
    })
  keyWithScope = (await key(['content:read'])).body.key
  keyWithoutScope = (await key(['analytics:read'])).body.key
})
afterAll(async () => {
  await tp?.close()
})

async function sendShopify(
  topic: string,
  body: string,
  extra: { webhookId?: string; triggeredAt?: string } = {},
) {
  const res = await post(
    tp,
    storePath(shopifyStore),
    shopifyHeaders({ domain: DOMAIN, secret: SECRET, topic, body, ...extra }),
    body,
  )
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body as { status: string; delivery_id: string | null }
}

async function sendWoo(topic: string, body: string, deliveryId?: string) {
  const res = await post(
    tp,
    storePath(wooStore),
    wooHeaders({ secret: WOO_SECRET, topic, body, deliveryId }),
    body,
  )
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body as { status: string; delivery_id: string | null }
}

const processed = async (receipt: { delivery_id: string | null }) => {
  expect(receipt.delivery_id).toBeTruthy()
  return waitForDelivery(tp, a.token, receipt.delivery_id!)
}

/** The order events of one shop order, oldest first. */
const orderEvents = async (externalId: string) =>
  tp.db.sql<{ type: string; data: Record<string, unknown> }[]>`
    select type, data from public.event_outbox
    where type like 'order.%' and data->>'external_id' = ${externalId} order by seq`.then((rows) =>
    rows.map((r) => ({ type: r.type, data: r.data })),
  )

describe('Shopify deliveries', () => {
  it('syncs orders/create and orders/updated: exact 64-bit ids, decimal totals, no personal data', async () => {
    const created = await sendShopify(
      'orders/create',
      shopifyOrder({ updatedAt: '2021-12-31T19:00:00-05:00', financial: 'pending' }),
    )
    expect(created.status).toBe('accepted')
    expect(await processed(created)).toMatchObject({ status: 'processed', outcome: 'applied', attempts: 1 })
    const updated = await sendShopify(
      'orders/updated',
      shopifyOrder({ updatedAt: '2022-01-02T10:00:00-05:00', financial: 'paid' }),
    )
    expect(await processed(updated)).toMatchObject({ status: 'processed', outcome: 'applied' })

    const orders = await tp.json('/v1/commerce/orders', { token: a.token })
    expect(orders.status).toBe(200)
    expect(orders.body.data).toHaveLength(1)
    const order = orders.body.data[0]
    expect(order).toMatchObject({
      store_id: shopifyStore,
      external_id: '820982911946154508',
      order_number: '#9999',
      currency: 'USD',
      total_price: '403.00',
      subtotal_price: '393.00',
      total_discounts: '20.00',
      total_shipping: '10.00',
      financial_status: 'paid',
      fulfillment_status: null,
      customer_ref: '115310627314723954',
      source_updated_at: '2022-01-02T15:00:00.000Z',
    })
    expect(order.line_items).toEqual([
      {
        external_id: '866550311766439020',
        product_id: '632910392',
        variant_id: '808950810',
        sku: 'IPOD2008PINK',
        title: 'IPod Nano - 8GB',
        quantity: 1,
        price: '199.00',
      },
      {
        external_id: '141249953214522974',
        product_id: '632910392',
        variant_id: '49148385',
        sku: 'IPOD2008RED',
        title: 'IPod Nano - 8GB',
        quantity: 1,
        price: '199.00',
      },
    ])
    // Nothing personal is kept: not in the order, and the raw payload is dropped once processed.
    const stored = await tp.db.sql`select to_jsonb(o) as row from public.commerce_orders o`
    // The fixture's phone whole: a bare "555" also turns up in random UUIDs.
    expect(JSON.stringify(stored)).not.toMatch(/example\.com|Smith|Elm St|5555550100|203\.0\.113/)
    const payloads = await tp.db
      .sql`select payload from public.commerce_deliveries where topic like 'orders/%'`
    expect(payloads.length).toBeGreaterThan(0)
    expect(payloads.every((p) => p.payload === null)).toBe(true)
    const [numeric] = await tp.db.sql`select pg_typeof(total_price)::text as t from public.commerce_orders`
    expect(numeric!.t).toBe('numeric')

    // Subscribers hear order.created, then order.updated, with the order's id and state, nothing personal.
    const events = await orderEvents('820982911946154508')
    expect(events).toEqual([
      {
        type: 'order.created',
        data: {
          order_id: order.id,
          store_id: shopifyStore,
          platform: 'shopify',
          external_id: '820982911946154508',
          order_number: '#9999',
          currency: 'USD',
          total_price: '403.00',
          financial_status: 'pending',
          fulfillment_status: null,
          source_updated_at: '2022-01-01T00:00:00.000Z',
        },
      },
      {
        type: 'order.updated',
        data: expect.objectContaining({
          order_id: order.id,
          financial_status: 'paid',
          source_updated_at: '2022-01-02T15:00:00.000Z',
        }),
      },
    ])
  })

  it('syncs products/create, products/update and products/delete (a tombstone)', async () => {
    const created = await sendShopify(
      'products/create',
      shopifyProduct({ updatedAt: '2021-12-31T19:00:00-05:00' }),
    )
    await processed(created)
    const updated = await sendShopify(
      'products/update',
      shopifyProduct({ updatedAt: '2022-01-05T00:00:00Z', title: 'Better T-Shirt', price: '21.50' }),
    )
    await processed(updated)
    let products = await tp.json('/v1/commerce/products', { token: a.token })
    expect(products.body.data).toHaveLength(1)
    expect(products.body.data[0]).toMatchObject({
      external_id: '788032119674292922',
      title: 'Better T-Shirt',
      status: 'active',
      vendor: 'Acme',
      price_min: '21.50',
      price_max: '21.50',
      inventory_quantity: 125,
      deleted: false,
      images: [
        {
          external_id: '539438707724640965',
          src: 'https://cdn.shopify.com/s/files/1/0005/4838/0009/products/shirt.jpg',
          alt: 'Front',
          position: 1,
        },
      ],
    })
    expect(products.body.data[0].variants[0]).toEqual({
      external_id: '642667041472713922',
      title: 'Small',
      sku: 'example-shirt-s',
      price: '21.50',
      compare_at_price: '24.99',
      inventory_quantity: 75,
    })

    const deleted = await sendShopify('products/delete', shopifyProductDelete(), {
      triggeredAt: '2022-01-06T00:00:00Z',
    })
    expect(await processed(deleted)).toMatchObject({ status: 'processed', outcome: 'applied' })
    products = await tp.json('/v1/commerce/products', { token: a.token })
    expect(products.body.data).toEqual([])
    products = await tp.json('/v1/commerce/products?include_deleted=true', { token: a.token })
    expect(products.body.data[0]).toMatchObject({
      deleted: true,
      deleted_at: '2022-01-06T00:00:00.000Z',
      title: 'Better T-Shirt',
    })

    // A late update older than the deletion does not bring it back.
    const late = await sendShopify(
      'products/update',
      shopifyProduct({ updatedAt: '2022-01-05T12:00:00Z', title: 'Zombie' }),
    )
    expect(await processed(late)).toMatchObject({ outcome: 'stale' })
    expect((await tp.json('/v1/commerce/products', { token: a.token })).body.data).toEqual([])
  })

  it('keeps the newest data: an update before its create, and an older update after a newer one', async () => {
    const id = '1000000000000000001'
    const newer = await sendShopify(
      'products/update',
      shopifyProduct({ id, updatedAt: '2023-05-02T00:00:00Z', title: 'V3' }),
    )
    expect(await processed(newer)).toMatchObject({ outcome: 'applied' })
    const create = await sendShopify(
      'products/create',
      shopifyProduct({ id, updatedAt: '2023-05-01T00:00:00Z', title: 'V1' }),
    )
    expect(await processed(create)).toMatchObject({ outcome: 'stale' })
    const older = await sendShopify(
      'products/update',
      shopifyProduct({ id, updatedAt: '2023-05-01T12:00:00Z', title: 'V2' }),
    )
    expect(await processed(older)).toMatchObject({ outcome: 'stale' })
    const [row] = await tp.db
      .sql`select title, source_updated_at from public.commerce_products where external_id = ${id}`
    expect(row!.title).toBe('V3')

    // Orders too: a delayed orders/create after orders/updated changes nothing.
    const oid = '5000000000000000005'
    await processed(
      await sendShopify(
        'orders/updated',
        shopifyOrder({ id: oid, updatedAt: '2023-06-02T00:00:00Z', financial: 'refunded' }),
      ),
    )
    await processed(
      await sendShopify(
        'orders/create',
        shopifyOrder({ id: oid, updatedAt: '2023-06-01T00:00:00Z', financial: 'pending' }),
      ),
    )
    const [order] = await tp.db
      .sql`select financial_status from public.commerce_orders where external_id = ${oid}`
    expect(order!.financial_status).toBe('refunded')
    // Only the version that changed the order is an event: the late create is none.
    expect((await orderEvents(oid)).map((e) => [e.type, e.data.financial_status])).toEqual([
      ['order.created', 'refunded'],
    ])

    // A delete that arrives before the create: the late create stays deleted.
    const did = '2000000000000000002'
    await processed(
      await sendShopify('products/delete', shopifyProductDelete(did), {
        triggeredAt: '2023-07-02T00:00:00Z',
      }),
    )
    const lateCreate = await sendShopify(
      'products/create',
      shopifyProduct({ id: did, updatedAt: '2023-07-01T00:00:00Z' }),
    )
    expect(await processed(lateCreate)).toMatchObject({ outcome: 'stale' })
    const [tomb] = await tp.db.sql`select deleted_at from public.commerce_products where external_id = ${did}`
    expect(tomb!.deleted_at).toEqual(new Date('2023-07-02T00:00:00Z'))
  })

  it('acknowledges a repeated webhook id as a duplicate and stores it once', async () => {
    const body = shopifyOrder({ id: '42', updatedAt: '2024-01-01T00:00:00Z' })
    const headers = shopifyHeaders({
      domain: DOMAIN,
      secret: SECRET,
      topic: 'orders/create',
      body,
      webhookId: 'b54557e4-bdd9-4b37-8a5f-bf7d70bcd043',
    })
    const first = await post(tp, storePath(shopifyStore), headers, body)
    expect(first.body.status).toBe('accepted')
    const again = await post(tp, storePath(shopifyStore), headers, body)
    expect(again).toMatchObject({ status: 200, body: { status: 'duplicate', delivery_id: null } })
    const rows = await tp.db
      .sql`select 1 from public.commerce_deliveries where webhook_id = 'b54557e4-bdd9-4b37-8a5f-bf7d70bcd043'`
    expect(rows).toHaveLength(1)
  })

  it('acknowledges a topic outside the five and records it as ignored, without its payload', async () => {
    const receipt = await sendShopify(
      'customers/create',
      '{"id":706405506930370084,"email":"bob@example.com"}',
    )
    expect(receipt.status).toBe('ignored')
    const d = await tp.json(`/api/commerce/deliveries/${receipt.delivery_id}`, { token: a.token })
    expect(d.body).toMatchObject({ status: 'ignored', topic: 'customers/create', attempts: 0 })
    const [row] = await tp.db
      .sql`select payload from public.commerce_deliveries where id = ${receipt.delivery_id}`
    expect(row!.payload).toBeNull()
  })

  it('dead-letters, with the reason, a validly signed body that is not JSON or has the wrong shape', async () => {
    const notJson = await sendShopify('orders/create', '{"id": 1, "total_price": ')
    expect(notJson.status).toBe('accepted')
    expect(await processed(notJson)).toMatchObject({
      status: 'failed',
      last_error: 'body is not valid JSON',
      attempts: 1,
    })
    const wrongShape = await sendShopify('products/update', '{"id":"x y","title":5}')
    const dead = await processed(wrongShape)
    expect(dead.status).toBe('failed')
    expect(dead.last_error).toMatch(/unexpected payload shape: .*updated_at/)
    const list = await tp.json('/api/commerce/deliveries?status=failed', { token: a.token })
    expect(list.body.data.map((d: { id: string }) => d.id)).toEqual([
      wrongShape.delivery_id,
      notJson.delivery_id,
    ])
    // Replaying cannot fix a bad body, but it is allowed and ends in the dead letters again.
    const replay = await tp.json(`/api/commerce/deliveries/${notJson.delivery_id}/replay`, {
      method: 'POST',
      token: a.token,
    })
    expect(replay.body.status).toBe('pending')
    expect(await processed(notJson)).toMatchObject({ status: 'failed', attempts: 2 })
  })
})

describe('refusals', () => {
  const body = shopifyProduct({ updatedAt: '2024-02-01T00:00:00Z' })

  it('gives an unknown store and a bad signature the same 401', async () => {
    const [before] = await tp.db.sql`select count(*)::int as n from public.commerce_deliveries`
    const unknown = await post(
      tp,
      SHOPIFY_PATH,
      shopifyHeaders({ domain: 'nobody.myshopify.com', secret: SECRET, topic: 'products/update', body }),
      body,
    )
    const badSig = await post(
      tp,
      storePath(shopifyStore),
      shopifyHeaders({ domain: DOMAIN, secret: 'wrong-secret', topic: 'products/update', body }),
      body,
    )
    const unknownWoo = await post(
      tp,
      storePath('7b0f0c36-3f5e-4a55-9a43-7c6d3e1d1d11'),
      wooHeaders({ secret: WOO_SECRET, topic: 'product.updated', body }),
      body,
    )
    const badWoo = await post(
      tp,
      storePath(wooStore),
      wooHeaders({ secret: 'nope-nope', topic: 'product.updated', body }),
      body,
    )
    const notAnId = await post(
      tp,
      storePath('not-a-uuid'),
      wooHeaders({ secret: WOO_SECRET, topic: 'product.updated', body }),
      body,
    )
    // A Shopify store's signature presented as WooCommerce's, at its own path.
    const wrongPlatform = await post(
      tp,
      storePath(shopifyStore),
      wooHeaders({ secret: SECRET, topic: 'product.updated', body }),
      body,
    )
    for (const res of [unknown, badSig, unknownWoo, badWoo, notAnId, wrongPlatform]) {
      expect(res.status).toBe(401)
      expect(res.body).toEqual({
        error: 'Unauthorized',
        code: 'AUTH_REQUIRED',
        message: 'Unknown store or invalid webhook signature',
      })
    }
    const [after] = await tp.db.sql`select count(*)::int as n from public.commerce_deliveries`
    expect(after!.n).toBe(before!.n)
  })

  it('verifies the raw bytes: the same JSON re-serialised does not pass', async () => {
    const headers = shopifyHeaders({ domain: DOMAIN, secret: SECRET, topic: 'products/update', body })
    const reserialised = JSON.stringify(JSON.parse(body))
    expect((await post(tp, storePath(shopifyStore), headers, reserialised)).status).toBe(401)
  })

  it('answers 401 without a signature or shop domain, 400 without topic or webhook id', async () => {
    const h = (over: Record<string, string | undefined>) =>
      shopifyHeaders({ domain: DOMAIN, secret: SECRET, topic: 'products/update', body, headers: over })
    expect((await post(tp, SHOPIFY_PATH, h({ 'x-shopify-hmac-sha256': undefined }), body)).status).toBe(401)
    expect((await post(tp, SHOPIFY_PATH, h({ 'x-shopify-shop-domain': undefined }), body)).status).toBe(401)
    const noTopic = await post(tp, SHOPIFY_PATH, h({ 'x-shopify-topic': undefined }), body)
    expect(noTopic).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } })
    expect((await post(tp, SHOPIFY_PATH, h({ 'x-shopify-webhook-id': undefined }), body)).status).toBe(400)
    const w = (over: Record<string, string | undefined>) =>
      wooHeaders({ secret: WOO_SECRET, topic: 'product.updated', body, headers: over })
    expect(
      (await post(tp, storePath(wooStore), w({ 'x-wc-webhook-delivery-id': undefined }), body)).status,
    ).toBe(400)
    expect(
      (await post(tp, storePath(wooStore), w({ 'x-wc-webhook-signature': undefined }), body)).status,
    ).toBe(401)
    // WooCommerce's headers at the shared address: it only takes Shopify's.
    expect((await post(tp, SHOPIFY_PATH, w({}), body)).status).toBe(401)
  })

  it('answers 413 to a body over the limit, and stores nothing', async () => {
    const big = `{"id":1,"pad":"${'x'.repeat(300 * 1024)}"}`
    const headers = shopifyHeaders({
      domain: DOMAIN,
      secret: SECRET,
      topic: 'products/update',
      body: big,
      webhookId: 'too-big',
    })
    // Its own connection: the server answers before reading the whole body and then closes it.
    const res = await new Promise<{ status: number; body: any }>((resolve, reject) => {
      const req = httpRequest(`${tp.baseUrl}${storePath(shopifyStore)}`, {
        method: 'POST',
        agent: false,
        headers,
      })
      req.on('response', (r) => {
        let text = ''
        r.on('data', (d) => (text += d))
        r.on('end', () => resolve({ status: r.statusCode ?? 0, body: JSON.parse(text) }))
      })
      req.on('error', reject)
      req.end(big)
    })
    expect(res.status).toBe(413)
    expect(res.body.code).toBe('PAYLOAD_TOO_LARGE')
    expect(
      await tp.db.sql`select 1 from public.commerce_deliveries where webhook_id = 'too-big'`,
    ).toHaveLength(0)
  })

  it('takes a rotated secret at once, and refuses the old one', async () => {
    const rotated = await tp.json(`/api/commerce/stores/${shopifyStore}/rotate-secret`, {
      token: a.token,
      body: { secret: 'shpss_rotated_999' },
    })
    expect(rotated.status).toBe(200)
    const oldSig = await post(
      tp,
      storePath(shopifyStore),
      shopifyHeaders({ domain: DOMAIN, secret: SECRET, topic: 'products/update', body }),
      body,
    )
    expect(oldSig.status).toBe(401)
    const newSig = await post(
      tp,
      storePath(shopifyStore),
      shopifyHeaders({ domain: DOMAIN, secret: 'shpss_rotated_999', topic: 'products/update', body }),
      body,
    )
    expect(newSig.status).toBe(200)
    await tp.json(`/api/commerce/stores/${shopifyStore}/rotate-secret`, {
      token: a.token,
      body: { secret: SECRET },
    })
  })
})

describe('WooCommerce deliveries', () => {
  it('answers the unsigned ping WooCommerce sends when a webhook is saved', async () => {
    const res = await tp.json(storePath(wooStore), {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'user-agent': 'WooCommerce/9.4.0 Hookshot (WordPress/6.7)',
      },
      body: 'webhook_id=12',
    })
    expect(res).toMatchObject({ status: 200, body: { status: 'ping', delivery_id: null } })
  })

  it('syncs order.created / order.updated and product.created / .updated / .deleted', async () => {
    await processed(
      await sendWoo('order.created', wooOrder({ modifiedGmt: '2017-03-22T19:28:08', status: 'pending' })),
    )
    await processed(
      await sendWoo('order.updated', wooOrder({ modifiedGmt: '2017-03-23T08:00:00', status: 'completed' })),
    )
    const orders = await tp.json(`/v1/commerce/orders?store_id=${wooStore}`, { token: a.token })
    expect(orders.body.data).toHaveLength(1)
    expect(orders.body.data[0]).toMatchObject({
      external_id: '727',
      order_number: '727',
      total_price: '29.35',
      total_tax: '1.35',
      total_shipping: '10.00',
      financial_status: 'paid',
      fulfillment_status: 'fulfilled',
      source_status: 'completed',
      customer_ref: null,
      source_updated_at: '2017-03-23T08:00:00.000Z',
    })
    expect(orders.body.data[0].line_items[1]).toEqual({
      external_id: '316',
      product_id: '22',
      variant_id: '23',
      sku: 'SYI-BLK',
      title: 'Ship Your Idea',
      quantity: 1,
      price: '20',
    })
    expect(JSON.stringify(orders.body)).not.toMatch(/john|Market|198\.51/i)

    await processed(await sendWoo('product.created', wooProduct({ modifiedGmt: '2017-03-23T20:01:14' })))
    await processed(
      await sendWoo('product.updated', wooProduct({ modifiedGmt: '2017-03-24T10:00:00', price: '19.99' })),
    )
    const products = await tp.json(`/v1/commerce/products?store_id=${wooStore}`, { token: a.token })
    expect(products.body.data[0]).toMatchObject({
      external_id: '794',
      title: 'Premium Quality',
      status: 'publish',
      price_min: '19.99',
      inventory_quantity: 12,
      variants: [
        {
          external_id: '794',
          sku: 'PQ-19',
          price: '19.99',
          compare_at_price: '24.99',
          inventory_quantity: 12,
          title: 'Premium Quality',
        },
      ],
    })
    expect(products.body.data[0].images).toHaveLength(2)
    await processed(await sendWoo('product.deleted', wooProductDelete()))
    expect(
      (await tp.json(`/v1/commerce/products?store_id=${wooStore}`, { token: a.token })).body.data,
    ).toEqual([])
  })

  it('acknowledges a WooCommerce topic outside the five as ignored', async () => {
    const receipt = await sendWoo('customer.created', '{"id":25,"email":"x@example.com"}')
    expect(receipt.status).toBe('ignored')
  })
})

describe('reading orders and products', () => {
  it('takes platform keys with content:read; refuses keys without it; isolates tenants', async () => {
    const withKey = await tp.json('/v1/commerce/orders', { token: keyWithScope })
    expect(withKey.status).toBe(200)
    expect(withKey.body.data.length).toBeGreaterThan(1)
    const refused = await tp.json('/v1/commerce/products', { token: keyWithoutScope })
    expect(refused).toMatchObject({ status: 403, body: { code: 'INSUFFICIENT_PERMISSIONS' } })
    expect((await tp.json('/v1/commerce/orders')).status).toBe(401)
    expect((await tp.json('/v1/commerce/orders', { token: b.token })).body.data).toEqual([])
    expect(
      (await tp.json('/v1/commerce/products?include_deleted=true', { token: b.token })).body.data,
    ).toEqual([])
    const someDelivery = (await tp.json('/api/commerce/deliveries', { token: a.token })).body.data[0].id
    expect((await tp.json(`/api/commerce/deliveries/${someDelivery}`, { token: b.token })).status).toBe(404)
    expect(
      (await tp.json(`/api/commerce/deliveries/${someDelivery}/replay`, { method: 'POST', token: b.token }))
        .status,
    ).toBe(404)
  })

  it('filters and pages with a keyset cursor', async () => {
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const page: { body: { data: { id: string }[]; next_cursor: string | null } } = await tp.json(
        `/v1/commerce/orders?limit=1${cursor ? `&cursor=${cursor}` : ''}`,
        { token: a.token },
      )
      seen.push(...page.body.data.map((o) => o.id))
      cursor = page.body.next_cursor
    } while (cursor)
    const all = (await tp.json('/v1/commerce/orders?limit=100', { token: a.token })).body.data.map(
      (o: { id: string }) => o.id,
    )
    expect(seen).toEqual(all)
    const refunded = await tp.json('/v1/commerce/orders?financial_status=refunded', { token: a.token })
    expect(refunded.body.data.map((o: { external_id: string }) => o.external_id)).toEqual([
      '5000000000000000005',
    ])
    const since = await tp.json('/v1/commerce/orders?updated_since=2023-01-01T00:00:00Z', { token: a.token })
    expect(since.body.data.length).toBeGreaterThan(0)
    expect(since.body.data.every((o: { source_updated_at: string }) => o.source_updated_at >= '2023')).toBe(
      true,
    )
    const search = await tp.json('/v1/commerce/products?q=v3', { token: a.token })
    expect(search.body.data.map((p: { title: string }) => p.title)).toEqual(['V3'])
    const bySku = await tp.json('/v1/commerce/products?q=EXAMPLE-SHIRT-S', { token: a.token })
    expect(bySku.body.data.length).toBeGreaterThan(0)
    expect((await tp.json('/v1/commerce/orders?limit=0', { token: a.token })).status).toBe(400)
    expect((await tp.json('/v1/commerce/orders?cursor=bogus', { token: a.token })).status).toBe(400)
    expect((await tp.json('/v1/commerce/products?include_deleted=yes', { token: a.token })).status).toBe(400)
  })
})

describe('shop-domain squatting', () => {
  const VICTIM_DOMAIN = 'victim-shop.myshopify.com'
  const VICTIM_SECRET = 'shpss_victim_secret_0001'
  const SQUATTERS = 12 // more than a limit of 10 on the shared address's candidates would see

  /** Other tenants connecting the same shop domain, each with a secret of its own. */
  async function squat(domain: string) {
    const ids: string[] = []
    for (let i = 0; i < SQUATTERS; i++) {
      const t = await tp.createTenant()
      const res = await tp.json('/api/commerce/stores', {
        token: t.token,
        body: {
          platform: 'shopify',
          shop_domain: domain,
          name: `Squat ${i}`,
          secret: `squatter-secret-${i}`,
        },
      })
      expect(res.status).toBe(201)
      ids.push(res.body.id)
    }
    return ids
  }

  const productBody = shopifyProduct({ updatedAt: '2024-03-01T00:00:00Z' })
  const signedBy = (domain: string, secret: string) =>
    shopifyHeaders({ domain, secret, topic: 'products/update', body: productBody })

  it("no number of other tenants' stores changes a tenant's outcome at its delivery URL", async () => {
    await squat(VICTIM_DOMAIN)
    const victim = await tp.createTenant()
    const store = await tp.json('/api/commerce/stores', {
      token: victim.token,
      body: { platform: 'shopify', shop_domain: VICTIM_DOMAIN, name: 'The real shop', secret: VICTIM_SECRET },
    })
    expect(store.status).toBe(201)
    // The URL the dashboard shows and the owner pastes into Shopify.
    const url = new URL(store.body.webhook_url)
    const delivered = await post(tp, url.pathname, signedBy(VICTIM_DOMAIN, VICTIM_SECRET), productBody)
    expect(delivered.status, JSON.stringify(delivered.body)).toBe(200)
    expect(delivered.body.status).toBe('accepted')
    const [row] = await tp.db.sql<{ tenant_id: string; store_id: string }[]>`
      select tenant_id, store_id from public.commerce_deliveries where id = ${delivered.body.delivery_id}`
    expect(row).toEqual({ tenant_id: victim.tenantId, store_id: store.body.id })
    expect(url.pathname).toBe(storePath(store.body.id))

    // A squatter's own signature gets nowhere at the victim's address.
    const squatted = await post(tp, url.pathname, signedBy(VICTIM_DOMAIN, 'squatter-secret-0'), productBody)
    expect(squatted.status).toBe(401)
    // New stores are not on the shared address at all: nobody can crowd anybody out there.
    expect((await post(tp, SHOPIFY_PATH, signedBy(VICTIM_DOMAIN, VICTIM_SECRET), productBody)).status).toBe(
      401,
    )
  }, 120_000)

  it('keeps the shared address for stores connected before, checking every candidate there', async () => {
    const domain = 'legacy-shop.myshopify.com'
    // Squatters connected before per-store addresses as well: on the shared address like it.
    const oldSquatters = await squat(domain)
    const owner = await tp.createTenant()
    const legacy = await tp.json('/api/commerce/stores', {
      token: owner.token,
      body: { platform: 'shopify', shop_domain: domain, name: 'Legacy', secret: VICTIM_SECRET },
    })
    // What migrations/20261127010100 does to every Shopify store that existed.
    const connectedBefore: string[] = [...oldSquatters, legacy.body.id]
    await tp.db
      .sql`update public.commerce_stores set shared_address = true where id = any (${connectedBefore})`
    // And more stores for that domain afterwards, which do not join it.
    await squat(domain)

    const res = await post(tp, SHOPIFY_PATH, signedBy(domain, VICTIM_SECRET), productBody)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const [row] = await tp.db.sql<{ store_id: string }[]>`
      select store_id from public.commerce_deliveries where id = ${res.body.delivery_id}`
    expect(row!.store_id).toBe(legacy.body.id)
    // Its own address works too, and is what the API now shows.
    expect(legacy.body.webhook_url).toMatch(new RegExp(`${storePath(legacy.body.id)}$`))

    // Changing its shop domain takes a store off the shared address.
    const moved = await tp.json(`/api/commerce/stores/${legacy.body.id}`, {
      method: 'PATCH',
      token: owner.token,
      body: { shop_domain: 'moved-shop.myshopify.com' },
    })
    expect(moved.status).toBe(200)
    const [after] = await tp.db.sql<{ shared_address: boolean }[]>`
      select shared_address from public.commerce_stores where id = ${legacy.body.id}`
    expect(after!.shared_address).toBe(false)
  }, 120_000)

  it('lets no tenant put a store on the shared address, not even through the Data API', async () => {
    const t = await tp.createTenant()
    const attempt = tp.db.sql.begin(async (tx) => {
      await tx`select set_config('role', 'authenticated', true),
                      set_config('request.jwt.claims', ${JSON.stringify({ sub: t.userId, role: 'authenticated' })}, true)`
      await tx`insert into public.commerce_stores (tenant_id, platform, shop, name, secret_ciphertext, shared_address)
               values (${t.tenantId}, 'shopify', 'data-api.myshopify.com', 'Sneaky', 'x', true)`
    })
    await expect(attempt).rejects.toMatchObject({ code: '42501' })
  })
})
