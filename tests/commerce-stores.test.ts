// The stores admin API: create, list, get, update, rotate, delete; the secret is write-only and
// encrypted; row-level security answers 404 across tenants; members read, owners/admins write.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addMember, startTestPlatform, type TestPlatform, type TestTenant } from './support/platform.ts'

let tp: TestPlatform
let a: TestTenant
let b: TestTenant

beforeAll(async () => {
  tp = await startTestPlatform()
  a = await tp.createTenant()
  b = await tp.createTenant()
})
afterAll(async () => {
  await tp?.close()
})

const shopify = {
  platform: 'shopify',
  shop_domain: 'Example-Shop.myshopify.com',
  name: 'Main',
  secret: 'shpss_0123456789abcdef',
}
const woo = {
  platform: 'woocommerce',
  site_url: 'https://shop.example.com/',
  name: 'Woo',
  secret: 'woo-secret-123',
}

describe('commerce stores', () => {
  it('creates stores and shows where to point the shop, never the secret', async () => {
    const s = await tp.json('/api/commerce/stores', { token: a.token, body: shopify })
    expect(s.status, JSON.stringify(s.body)).toBe(201)
    expect(s.body).toMatchObject({
      platform: 'shopify',
      shop_domain: 'example-shop.myshopify.com',
      site_url: null,
      name: 'Main',
    })
    // Its own address, for Shopify too: the shop domain names no store (docs/commerce.md).
    expect(s.body.webhook_url).toMatch(
      new RegExp(`^http://127\\.0\\.0\\.1:\\d+/functions/v1/commerce-webhook/stores/${s.body.id}$`),
    )
    expect(JSON.stringify(s.body)).not.toContain(shopify.secret)
    const w = await tp.json('/api/commerce/stores', { token: a.token, body: woo })
    expect(w.status).toBe(201)
    expect(w.body).toMatchObject({
      platform: 'woocommerce',
      site_url: 'https://shop.example.com',
      shop_domain: null,
    })
    expect(w.body.webhook_url).toMatch(new RegExp(`/functions/v1/commerce-webhook/stores/${w.body.id}$`))

    const [row] = await tp.db
      .sql`select secret_ciphertext from public.commerce_stores where id = ${s.body.id}`
    expect(row!.secret_ciphertext).toMatch(/^v1:/)
    expect(row!.secret_ciphertext).not.toContain(shopify.secret)

    const list = await tp.json('/api/commerce/stores', { token: a.token })
    expect(list.body.data.map((x: { name: string }) => x.name)).toEqual(['Woo', 'Main'])
    expect(JSON.stringify(list.body)).not.toMatch(/secret"|shpss_/)
  })

  it('refuses a second connection of the same shop (409) and bad input (400)', async () => {
    expect((await tp.json('/api/commerce/stores', { token: a.token, body: shopify })).status).toBe(409)
    for (const body of [
      { ...shopify, shop_domain: 'evil.example.com' },
      { ...shopify, secret: 'short' },
      { ...shopify, extra: 1 },
      { platform: 'magento', name: 'x', secret: 'long-enough' },
      { ...woo, site_url: 'ftp://x' },
    ]) {
      const res = await tp.json('/api/commerce/stores', { token: a.token, body })
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.code).toBe('VALIDATION_ERROR')
    }
  })

  it('updates, rotates and deletes; 404 across tenants; members read only', async () => {
    const created = await tp.json('/api/commerce/stores', {
      token: a.token,
      body: { ...shopify, shop_domain: 'second.myshopify.com', name: 'Second' },
    })
    const id = created.body.id
    const renamed = await tp.json(`/api/commerce/stores/${id}`, {
      method: 'PATCH',
      token: a.token,
      body: { name: 'Renamed' },
    })
    expect(renamed.body.name).toBe('Renamed')
    expect(
      (
        await tp.json(`/api/commerce/stores/${id}`, {
          method: 'PATCH',
          token: a.token,
          body: { site_url: 'https://x.example' },
        })
      ).status,
    ).toBe(400)
    const before = await tp.db.sql`select secret_ciphertext from public.commerce_stores where id = ${id}`
    const rotated = await tp.json(`/api/commerce/stores/${id}/rotate-secret`, {
      token: a.token,
      body: { secret: 'new-secret-456' },
    })
    expect(rotated.status).toBe(200)
    const after = await tp.db.sql`select secret_ciphertext from public.commerce_stores where id = ${id}`
    expect(after[0]!.secret_ciphertext).not.toBe(before[0]!.secret_ciphertext)

    // Another tenant sees nothing and changes nothing.
    expect((await tp.json(`/api/commerce/stores/${id}`, { token: b.token })).status).toBe(404)
    expect(
      (await tp.json(`/api/commerce/stores/${id}`, { method: 'PATCH', token: b.token, body: { name: 'x' } }))
        .status,
    ).toBe(404)
    expect((await tp.json(`/api/commerce/stores/${id}`, { method: 'DELETE', token: b.token })).status).toBe(
      404,
    )
    expect((await tp.json('/api/commerce/stores', { token: b.token })).body.data).toEqual([])

    const member = await addMember(tp, a.tenantId, 'member')
    expect((await tp.json(`/api/commerce/stores/${id}`, { token: member.token })).status).toBe(200)
    const refused = await tp.json(`/api/commerce/stores/${id}`, { method: 'DELETE', token: member.token })
    expect(refused.status).toBe(403)
    expect(refused.body.code).toBe('INSUFFICIENT_PERMISSIONS')

    expect(
      (await tp.request(`/api/commerce/stores/${id}`, { method: 'DELETE', token: a.token })).status,
    ).toBe(204)
    expect((await tp.json(`/api/commerce/stores/${id}`, { token: a.token })).status).toBe(404)
  })

  it('takes no API keys and no anonymous callers', async () => {
    const key = await tp.json('/api/api-keys', {
      token: a.token,
      body: { name: 'k', environment: 'production', scopes: ['content:read'], rate_limit_per_minute: 60 },
    })
    const res = await tp.json('/api/commerce/stores', { token: key.body.key })
    expect(res.status).toBe(401)
    expect((await tp.json('/api/commerce/stores')).body.code).toBe('AUTH_REQUIRED')
  })

  it('publishes its OpenAPI document, with who may call each route', async () => {
    const doc = await tp.json('/functions/v1/commerce-webhook/openapi.json')
    expect(doc.status).toBe(200)
    const paths = doc.body.paths
    expect(Object.keys(paths).sort()).toEqual([
      '/',
      '/deliveries',
      '/deliveries/{id}',
      '/deliveries/{id}/replay',
      '/jobs/process',
      '/orders',
      '/products',
      '/stores',
      '/stores/{id}',
      '/stores/{id}/rotate-secret',
      '/stores/{store_id}',
    ])
    expect(paths['/'].post['x-auth']).toEqual({ allow: [] })
    expect(paths['/orders'].get['x-auth']).toEqual({ allow: ['user', 'platform_key'], scope: 'content:read' })
    expect(paths['/stores'].post['x-auth']).toEqual({ allow: ['user'], roles: ['owner', 'admin'] })
    expect(paths['/jobs/process'].post['x-auth']).toEqual({ allow: ['service'] })
  })
})
