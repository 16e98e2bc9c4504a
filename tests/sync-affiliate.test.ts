import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type AffiliateServer,
  AWIN_COLUMNS_HEADER,
  type AwinRow,
  awinRow,
  csvLine,
  startAffiliateServer,
} from './support/affiliate-server.ts'
import { needsRealConcurrency } from './support/concurrency.ts'
import {
  addMember,
  setupTimeout,
  startTestPlatform,
  TestClock,
  type TestPlatform,
  type TestTenant,
} from './support/platform.ts'

let tp: TestPlatform
let peers: AffiliateServer
let a: TestTenant
let b: TestTenant
const clock = new TestClock(new Date())

const PROVIDER = {
  awin: '0b5f3c2e-6d1a-4e7b-9a42-3f8c1d2e5a60',
  cj: 'c8014e6c-40f9-48d9-ab02-6a18805d7ba6',
  amazon: '71c0ce9a-e6a2-433c-b982-d6e3104b3c02',
}

beforeAll(async () => {
  peers = await startAffiliateServer()
  tp = await startTestPlatform({
    instances: 2,
    clock,
    env: {
      AWIN_FEED_URL: peers.url,
      CJ_API_URL: `${peers.url}/query`,
      AMAZON_CREATORS_API_URL: peers.url,
      AMAZON_CREATORS_TOKEN_URL: `${peers.url}/auth/o2/token`,
    },
  })
  a = await tp.createTenant()
  b = await tp.createTenant()
  await credential(a, PROVIDER.awin, peers.awinKey)
  await credential(a, PROVIDER.cj, peers.cjToken)
  await credential(a, PROVIDER.amazon, JSON.stringify(peers.amazon))
}, setupTimeout())
afterAll(async () => {
  await tp?.close()
  await peers?.close()
})

const asUser = (t: TestTenant) => ({ apikey: tp.anonKey, authorization: `Bearer ${t.token}` })

async function credential(t: TestTenant, provider_id: string, secret: string) {
  const res = await tp.json('/api/credentials', {
    token: t.token,
    body: { provider_id, name: 'Affiliate', environment: 'production', credential: secret },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
}

async function site(t: TestTenant) {
  const [row] = await tp.db.sql<{ id: string }[]>`
    insert into public.sites (tenant_id, name) values (${t.tenantId}, 'Shop blog') returning id`
  return row!.id
}

async function destination(t = a, extra: Record<string, unknown> = {}) {
  const res = await tp.json('/api/affiliate/destinations', {
    token: t.token,
    body: { site_id: await site(t), name: 'Deals', ...extra },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body as { id: string }
}

async function program(destId: string, body: Record<string, unknown>, t = a) {
  const res = await tp.json(`/api/affiliate/destinations/${destId}/programs`, {
    token: t.token,
    body: { name: 'Program', ...body },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body as { id: string }
}

type Job = { status: string; result: any; error: string | null; attempts: number }

async function finished(jobId: string, t = a): Promise<Job> {
  let job: Job = { status: 'queued' } as Job
  await expect
    .poll(
      async () => {
        job = (await tp.json(`/api/jobs/${jobId}`, { token: t.token })).body
        return job.status
      },
      { timeout: 240_000, interval: 100 },
    )
    .toMatch(/succeeded|failed/)
  return job
}

async function sync(destId: string, t = a, instance = 0): Promise<Job> {
  const res = await tp.json('/functions/v1/sync-affiliate', {
    headers: asUser(t),
    body: { destination_id: destId },
    instance,
  })
  expect(res.status, JSON.stringify(res.body)).toBe(202)
  expect(res.body).toMatchObject({
    kind: 'sync-affiliate.destination',
    status_url: `/api/jobs/${res.body.job_id}`,
  })
  return finished(res.body.job_id, t)
}

async function products(destId: string, query = '', t = a) {
  const res = await tp.json(`/v1/products?destination_id=${destId}&limit=100${query}`, { token: t.token })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.data as Record<string, any>[]
}

const row = (i: number, over: AwinRow = {}): AwinRow => ({ ...awinRow(i), ...over })
const awinCsv = (rows: AwinRow[], extra = '') =>
  csvLine(AWIN_COLUMNS_HEADER) +
  rows.map((r) => csvLine(AWIN_COLUMNS_HEADER.map((c) => r[c] ?? ''))).join('') +
  extra

describe('admin API', () => {
  it('creates destinations and attaches programs under RLS; validates; refuses members and other tenants', async () => {
    const d = await destination()
    const s = await site(a)
    // One destination per site.
    const dup = await tp.json('/api/affiliate/destinations', {
      token: a.token,
      body: { site_id: s, name: 'x' },
    })
    expect(dup.status).toBe(201)
    const again = await tp.json('/api/affiliate/destinations', {
      token: a.token,
      body: { site_id: s, name: 'y' },
    })
    expect(again.status).toBe(409)
    expect(again.body.code).toBe('CONFLICT')
    const foreignSite = await tp.json('/api/affiliate/destinations', {
      token: b.token,
      body: { site_id: s, name: 'x' },
    })
    expect(foreignSite.status).toBe(400)
    const p = await program(d.id, {
      network: 'awin',
      config: { feed_ids: ['1'] },
      tracking_id: 'article-1',
      currency: 'GBP',
    })
    const got = await tp.json(`/api/affiliate/destinations/${d.id}`, { token: a.token })
    expect(got.body.programs).toMatchObject([
      { id: p.id, network: 'awin', config: { feed_ids: ['1'], language: 'en' }, currency: 'GBP' },
    ])
    for (const bad of [
      { network: 'awin', config: {} },
      { network: 'cj', config: { company_id: '../x' } },
      { network: 'feed', config: { url: 'ftp://x/y', format: 'csv' } },
      { network: 'amazon', config: { keywords: 'x' }, currency: 'euro' },
      { network: 'ebay', config: {} },
    ]) {
      const res = await tp.json(`/api/affiliate/destinations/${d.id}/programs`, {
        token: a.token,
        body: { name: 'x', ...bad },
      })
      expect(res.status, JSON.stringify(bad)).toBe(400)
      expect(res.body.code).toBe('VALIDATION_ERROR')
    }
    const member = await addMember(tp, a.tenantId, 'member')
    const refused = await tp.json(`/api/affiliate/destinations/${d.id}/programs`, {
      token: member.token,
      body: { name: 'x', network: 'awin', config: { feed_ids: ['1'] } },
    })
    expect(refused.status).toBe(403)
    expect((await tp.json(`/api/affiliate/destinations/${d.id}`, { token: member.token })).status).toBe(200)
    expect((await tp.json(`/api/affiliate/destinations/${d.id}`, { token: b.token })).status).toBe(404)
    const foreign = await tp.json('/functions/v1/sync-affiliate', {
      headers: asUser(b),
      body: { destination_id: d.id },
    })
    expect(foreign.status).toBe(404)
    const badBody = await tp.json('/functions/v1/sync-affiliate', {
      headers: asUser(a),
      body: { destination_id: 'nope' },
    })
    expect(badBody.status).toBe(400)
  })
})

describe('destination update and delete', () => {
  it('renames, schedules and pauses a destination; only owners and admins, only their own', async () => {
    const d = await destination()
    const stored = async () =>
      (
        await tp.db.sql<
          { name: string; schedule: string | null; enabled: boolean; next_run_at: Date | null }[]
        >`
          select name, schedule, enabled, next_run_at from public.affiliate_destinations where id = ${d.id}`
      )[0]
    const patch = (t: TestTenant, body: unknown) =>
      tp.json(`/api/affiliate/destinations/${d.id}`, { method: 'PATCH', token: t.token, body })
    const daily = await patch(a, { name: 'Daily deals', schedule: 'daily' })
    expect(daily.status, JSON.stringify(daily.body)).toBe(200)
    expect(daily.body).toMatchObject({ id: d.id, name: 'Daily deals', schedule: 'daily', enabled: true })
    const dueAt = clock.now().getTime() + 24 * 3600_000
    expect(Date.parse(daily.body.next_run_at)).toBe(dueAt)
    expect(await stored()).toEqual({
      name: 'Daily deals',
      schedule: 'daily',
      enabled: true,
      next_run_at: new Date(dueAt),
    })
    const paused = await patch(a, { enabled: false })
    expect([paused.status, paused.body.enabled, paused.body.next_run_at]).toEqual([200, false, null])
    expect(await stored()).toMatchObject({ name: 'Daily deals', enabled: false, next_run_at: null })
    const invalid = await patch(a, { schedule: 'weekly' })
    expect([invalid.status, invalid.body.code]).toEqual([400, 'VALIDATION_ERROR'])
    const member = await addMember(tp, a.tenantId, 'member')
    expect((await patch(member, { name: 'pwned' })).status).toBe(403)
    expect((await patch(b, { name: 'pwned' })).status).toBe(404)
    expect((await stored())!.name).toBe('Daily deals')
  })

  it('deletes a destination with its programs and products; members and other tenants cannot', async () => {
    const d = await destination()
    const p = await program(d.id, { network: 'awin', config: { feed_ids: ['7'] } })
    const [job] = await tp.db.sql<{ id: string }[]>`
      insert into public.jobs (tenant_id, kind) values (${a.tenantId}, 'sync-affiliate') returning id`
    await tp.db.sql`
      insert into public.affiliate_products (tenant_id, destination_id, program_id, network, external_id, title, price,
        currency, availability, affiliate_url, raw, last_sync_job_id, last_synced_at)
      values (${a.tenantId}, ${d.id}, ${p.id}, 'awin', 'x1', 'Product', 1, 'GBP', 'in_stock', 'https://example.com/x', '{}',
        ${job!.id}, now())`
    const rows = async () =>
      (
        await tp.db.sql<{ n: number }[]>`
          select (select count(*) from public.affiliate_destinations where id = ${d.id})
               + (select count(*) from public.affiliate_programs where destination_id = ${d.id})
               + (select count(*) from public.affiliate_products where destination_id = ${d.id}) as n`
      )[0]!.n
    expect(Number(await rows())).toBe(3)
    const del = (t: TestTenant) =>
      tp.request(`/api/affiliate/destinations/${d.id}`, { method: 'DELETE', token: t.token })
    const member = await addMember(tp, a.tenantId, 'member')
    expect((await del(member)).status).toBe(403)
    expect((await del(b)).status).toBe(404)
    expect(Number(await rows())).toBe(3)
    const gone = await del(a)
    expect([gone.status, await gone.text()]).toEqual([204, ''])
    expect(Number(await rows())).toBe(0)
    expect((await del(a)).status).toBe(404)
    expect((await tp.json(`/api/affiliate/destinations/${d.id}`, { token: a.token })).status).toBe(404)
  })
})

describe('Awin feed download (CSV, gzip)', () => {
  let dest: { id: string }
  const feed = [
    row(1, { search_price: '19.99', rrp_price: '24.99', currency: 'GBP' }),
    row(2, { search_price: '5.10', stock_status: 'out of stock' }),
    row(3),
  ]
  beforeAll(async () => {
    dest = await destination()
    await program(dest.id, {
      network: 'awin',
      config: { feed_ids: ['100'] },
      tracking_id: 'trk-1',
      currency: 'GBP',
    })
  })

  it('maps the feed to products with exact decimals; malformed rows are skipped and counted with reasons', async () => {
    peers.awinFeeds.set('100', {
      csv: awinCsv(
        [...feed, row(4, { search_price: 'twelve' }), row(5, { product_name: '' })],
        // One record with too many fields.
        'x,y,z,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16\n',
      ),
    })
    const job = await sync(dest.id)
    expect(job.status, job.error ?? '').toBe('succeeded')
    expect(job.result).toMatchObject({ destination_id: dest.id, products: 3, marked_unavailable: 0 })
    const [p] = job.result.programs
    expect(p).toMatchObject({ network: 'awin', fetched: 3, upserted: 3, skipped: 3 })
    const reasons = p.skipped_reasons.map((r: { reason: string }) => r.reason).join(' | ')
    expect(reasons).toMatch(/price is not a decimal amount: "twelve"/)
    expect(reasons).toMatch(/the title is missing/)
    expect(reasons).toMatch(/record length|fields/i)

    const list = await products(dest.id, '&include_raw=true')
    const first = list.find((x) => x.external_id === '1000001')!
    expect(first).toMatchObject({
      network: 'awin',
      merchant: 'Big Shop',
      title: 'Product 1 kettle',
      price: '24.99',
      sale_price: '19.99',
      currency: 'GBP',
      availability: 'in_stock',
      gtin: '5000000000001',
      previous_price: null,
    })
    expect(new URL(first.affiliate_url).searchParams.get('clickref')).toBe('trk-1')
    expect(first.raw.aw_product_id).toBe('1000001')
    expect(list.find((x) => x.external_id === '1000002')).toMatchObject({
      price: '5.10',
      availability: 'out_of_stock',
    })
  })

  it('re-syncs idempotently and keeps the last price when it changes', async () => {
    peers.awinFeeds.set('100', feed)
    const before = await products(dest.id)
    const job = await sync(dest.id)
    expect(job.result).toMatchObject({ products: 3, marked_unavailable: 0 })
    const after = await products(dest.id)
    expect(after.map((x) => x.id).sort()).toEqual(before.map((x) => x.id).sort())
    expect(after).toHaveLength(3)
    expect(after.every((x) => x.previous_price === null && x.price_changed_at === null)).toBe(true)
    const [counted] = await tp.db.sql<{ count: number }[]>`
      select count(*)::int as count from public.affiliate_products where destination_id = ${dest.id}`
    expect(counted!.count).toBe(3)

    peers.awinFeeds.set('100', [
      feed[0]!,
      row(2, { search_price: '4.95', stock_status: 'out of stock' }),
      feed[2]!,
    ])
    await sync(dest.id)
    const changed = (await products(dest.id)).find((x) => x.external_id === '1000002')!
    expect(changed).toMatchObject({ price: '4.95', previous_price: '5.10' })
    expect(changed.price_changed_at).not.toBeNull()
  })

  it('marks products the feed no longer lists unavailable after a complete sync; a failed sync removes nothing', async () => {
    peers.awinFeeds.set('100', [feed[0]!, feed[2]!])
    const job = await sync(dest.id)
    expect(job.result).toMatchObject({ products: 2, marked_unavailable: 1 })
    expect((await products(dest.id, '&availability=unavailable')).map((x) => x.external_id)).toEqual([
      '1000002',
    ])

    // The feed disappears (404): the job fails readably and nothing is marked unavailable.
    peers.awinFeeds.delete('100')
    const failed = await sync(dest.id)
    expect(failed.status).toBe('failed')
    expect(failed.error).toMatch(/the Awin feed download answered 404/)
    expect(failed.attempts).toBe(1)
    expect(await products(dest.id, '&availability=unavailable')).toHaveLength(1)
    const d = (await tp.json(`/api/affiliate/destinations/${dest.id}`, { token: a.token })).body
    expect(d).toMatchObject({ last_status: 'failed' })

    // Back again: the product returns to stock.
    peers.awinFeeds.set('100', feed)
    expect((await sync(dest.id)).result).toMatchObject({ products: 3, marked_unavailable: 0 })
    expect(await products(dest.id, '&availability=unavailable')).toHaveLength(0)
  })

  it('fails on a wrong currency without touching the products', async () => {
    const d = await destination()
    await program(d.id, { network: 'awin', config: { feed_ids: ['101'] }, currency: 'EUR' })
    peers.awinFeeds.set('101', [row(7)])
    const job = await sync(d.id)
    expect(job.status).toBe('failed')
    expect(job.error).toMatch(/prices products in GBP, the program expects EUR/)
    expect(await products(d.id)).toHaveLength(0)
  })

  it('fails on a rejected credential and notifies the owners once', async () => {
    const c = await tp.createTenant()
    await credential(c, PROVIDER.awin, 'a-revoked-key')
    const d = await destination(c)
    await program(d.id, { network: 'awin', config: { feed_ids: ['100'] } }, c)
    for (let i = 0; i < 2; i++) {
      const job = await sync(d.id, c)
      expect(job.status).toBe('failed')
      expect(job.error).toMatch(/rejected the credential \(403\)/)
      expect(job.error).not.toContain('a-revoked-key')
    }
    const notices = await tp.db.sql`
      select recipient from public.notifications where tenant_id = ${c.tenantId} and kind = 'affiliate.credential_rejected'`
    expect(notices.map((n) => n.recipient)).toEqual([c.email])
  })

  it('fails readably without a credential', async () => {
    const c = await tp.createTenant()
    const d = await destination(c)
    await program(d.id, { network: 'awin', config: { feed_ids: ['100'] } }, c)
    const job = await sync(d.id, c)
    expect(job.status).toBe('failed')
    expect(job.error).toMatch(/no usable awin credential \(category Affiliate\)/)
  })
})

describe('CJ product search (GraphQL)', () => {
  it('pages through the products of the named advertisers with the tracked click URL', async () => {
    peers.cjProducts = [
      {
        id: 'cj-1',
        advertiserId: '5001',
        advertiserName: 'Outdoor Co',
        title: 'Tent',
        description: 'A tent',
        price: { amount: '199.00', currency: 'USD' },
        salePrice: { amount: '149.50', currency: 'USD' },
        availability: 'in stock',
        imageLink: 'https://img.example.com/t.jpg',
        link: 'https://outdoor.example.com/t',
        gtin: '00012345678905',
        productType: ['Camping'],
      },
      {
        id: 'cj-2',
        advertiserId: '5001',
        advertiserName: 'Outdoor Co',
        title: 'Stove',
        price: { amount: '24.5', currency: 'USD' },
        availability: 'out of stock',
        link: 'https://outdoor.example.com/s',
      },
      {
        id: 'cj-3',
        advertiserId: '6002',
        advertiserName: 'Other',
        title: 'Other',
        price: { amount: '1.00', currency: 'USD' },
        link: 'https://other.example.com/',
      },
    ]
    const d = await destination()
    await program(d.id, {
      network: 'cj',
      merchant_ids: ['5001'],
      tracking_id: '9876543',
      config: { company_id: '123456', keywords: ['camping'], page_size: 1 },
      currency: 'USD',
    })
    const before = peers.hits.cj ?? 0
    const job = await sync(d.id)
    expect(job.status, job.error ?? '').toBe('succeeded')
    expect(job.result.programs[0]).toMatchObject({ fetched: 2, skipped: 0 })
    expect((peers.hits.cj ?? 0) - before).toBe(2)
    expect(peers.lastCjVariables).toMatchObject({
      companyId: '123456',
      partnerIds: ['5001'],
      keywords: ['camping'],
      pid: '9876543',
    })
    const list = await products(d.id)
    expect(list.find((x) => x.external_id === 'cj-1')).toMatchObject({
      merchant: 'Outdoor Co',
      price: '199.00',
      sale_price: '149.50',
      currency: 'USD',
      category: 'Camping',
      gtin: '00012345678905',
      affiliate_url: 'https://www.anrdoezrs.net/click-9876543-cj-1',
    })
    expect(list.find((x) => x.external_id === 'cj-2')).toMatchObject({
      price: '24.5',
      availability: 'out_of_stock',
    })
  })
})

describe('Amazon Creators API (OAuth bearer)', () => {
  it('takes a token, searches page by page and maps the items; items without an offer are skipped', async () => {
    peers.amazonItems = Array.from({ length: 12 }, (_, i) => ({
      asin: `B0000000${String(i).padStart(2, '0')}`,
      itemInfo: {
        title: { displayValue: `Headphones ${i}` },
        features: { displayValues: ['Wireless', 'Noise cancelling'] },
        classifications: { productGroup: { displayValue: 'Electronics' } },
        externalIds: { eans: { displayValues: [`40000000000${String(i).padStart(2, '0')}`] } },
      },
      images: { primary: { large: { url: `https://m.media-amazon.com/images/I/${i}.jpg` } } },
      ...(i !== 11 && {
        offersV2: {
          listings: [
            {
              price: {
                money: { amount: 59.99, currency: 'USD' },
                ...(i === 0 && { savingBasis: { money: { amount: 79.99, currency: 'USD' } } }),
              },
              availability: { type: 'IN_STOCK' },
              merchantInfo: { name: 'Amazon.com' },
            },
          ],
        },
      }),
    }))
    const d = await destination()
    await program(d.id, {
      network: 'amazon',
      tracking_id: 'mysite-20',
      config: { keywords: 'headphones', search_index: 'Electronics' },
    })
    const job = await sync(d.id)
    expect(job.status, job.error ?? '').toBe('succeeded')
    expect(job.result.programs[0]).toMatchObject({ fetched: 11, skipped: 1 })
    expect(job.result.programs[0].skipped_reasons[0].reason).toMatch(/the price is missing/)
    expect(peers.lastAmazonAuthorization).toBe('Bearer amzn-access-token, Version 3.1')
    expect(peers.lastAmazonBody).toMatchObject({
      keywords: 'headphones',
      partnerTag: 'mysite-20',
      itemPage: 2,
    })
    const list = await products(d.id)
    expect(list).toHaveLength(11)
    expect(list.find((x) => x.external_id === 'B000000000')).toMatchObject({
      title: 'Headphones 0',
      price: '79.99',
      sale_price: '59.99',
      currency: 'USD',
      merchant: 'Amazon.com',
      category: 'Electronics',
      gtin: '4000000000000',
      affiliate_url: 'https://www.amazon.com/dp/B000000000?tag=mysite-20&linkCode=ogi',
    })
  })
})

describe('generic feeds', () => {
  it('reads Google Merchant XML and JSON Lines', async () => {
    peers.feeds.set('merchant.xml', {
      type: 'application/xml',
      body: `<?xml version="1.0"?>
<rss version="2.0" xmlns:g="http://base.google.com/ns/1.0"><channel><title>Shop</title>
<item><g:id>SKU1</g:id><g:title><![CDATA[Chef's knife & block]]></g:title><g:description>Steel</g:description>
<g:link>https://shop.example.com/p/1</g:link><g:image_link>https://shop.example.com/1.jpg</g:image_link>
<g:price>89.00 EUR</g:price><g:sale_price>69.90 EUR</g:sale_price><g:availability>in_stock</g:availability>
<g:gtin>4006381333931</g:gtin><g:brand>Knifemaker</g:brand><g:product_type>Kitchen &gt; Knives</g:product_type></item>
<item><g:id>SKU2</g:id><g:title>Pan</g:title><g:link>https://shop.example.com/p/2</g:link><g:price>12,50 EUR</g:price>
<g:availability>preorder</g:availability></item>
<item><g:id>SKU3</g:id><g:title>No price</g:title><g:link>https://shop.example.com/p/3</g:link></item>
</channel></rss>`,
    })
    peers.feeds.set('products.jsonl', {
      type: 'application/x-ndjson',
      body: [
        JSON.stringify({
          id: 'j1',
          title: 'Mug',
          link: 'https://mugs.example.com/1',
          price: '7.5',
          currency: 'EUR',
        }),
        '{not json',
        JSON.stringify({ id: 'j2', title: 'Cup', link: 'javascript:alert(1)', price: '3', currency: 'EUR' }),
      ].join('\n'),
    })
    const d = await destination()
    const xml = await program(d.id, {
      network: 'feed',
      tracking_id: 'blog',
      config: { url: `${peers.url}/feeds/merchant.xml`, format: 'google_merchant_xml' },
    })
    const jsonl = await program(d.id, {
      network: 'feed',
      config: { url: `${peers.url}/feeds/products.jsonl`, format: 'json' },
    })
    const job = await sync(d.id)
    expect(job.status, job.error ?? '').toBe('succeeded')
    const counts = (id: string) => {
      const p = job.result.programs.find((x: { program_id: string }) => x.program_id === id)
      return [p.fetched, p.skipped]
    }
    expect(counts(xml.id)).toEqual([2, 1])
    expect(counts(jsonl.id)).toEqual([1, 2])
    const list = await products(d.id)
    expect(list.find((x) => x.external_id === 'SKU1')).toMatchObject({
      title: "Chef's knife & block",
      price: '89.00',
      sale_price: '69.90',
      currency: 'EUR',
      merchant: 'Knifemaker',
      category: 'Kitchen > Knives',
      gtin: '4006381333931',
      affiliate_url: 'https://shop.example.com/p/1?tag=blog',
    })
    expect(list.find((x) => x.external_id === 'SKU2')).toMatchObject({
      price: '12.50',
      availability: 'preorder',
    })
    expect(list.find((x) => x.external_id === 'j1')).toMatchObject({ price: '7.5' })
  })
})

describe('GET /v1/products', () => {
  it('searches by words and availability with keyset pagination, for users and content:read keys', async () => {
    const d = await destination()
    await program(d.id, { network: 'awin', config: { feed_ids: ['200'] } })
    peers.awinFeeds.set('200', [
      row(1, { product_name: 'Blue kettle' }),
      row(2, { product_name: 'Red kettle', stock_status: 'out of stock' }),
      row(3, { product_name: '100% cotton towel' }),
    ])
    expect((await sync(d.id)).status).toBe('succeeded')
    expect((await products(d.id, '&q=kettle')).map((x) => x.title).sort()).toEqual([
      'Blue kettle',
      'Red kettle',
    ])
    expect((await products(d.id, '&q=KETTLE%20red')).map((x) => x.title)).toEqual(['Red kettle'])
    expect((await products(d.id, '&q=100%25')).map((x) => x.title)).toEqual(['100% cotton towel'])
    expect((await products(d.id, '&q=_')).length).toBe(0)
    expect((await products(d.id, '&availability=out_of_stock')).map((x) => x.title)).toEqual(['Red kettle'])

    const seen: string[] = []
    let cursor: string | null = null
    do {
      const res: { body: { data: { id: string }[]; next_cursor: string | null } } = await tp.json(
        `/v1/products?destination_id=${d.id}&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
        { token: a.token },
      )
      seen.push(...res.body.data.map((x) => x.id))
      cursor = res.body.next_cursor
    } while (cursor)
    expect(new Set(seen).size).toBe(3)

    const key = async (scopes: string[]) =>
      (
        await tp.json('/api/api-keys', {
          token: a.token,
          body: { name: 'k', environment: 'production', scopes, rate_limit_per_minute: 1000 },
        })
      ).body.key as string
    const reader = await tp.json(`/v1/products?destination_id=${d.id}`, {
      token: await key(['content:read']),
    })
    expect(reader.status).toBe(200)
    expect(reader.body.data).toHaveLength(3)
    expect(reader.body.data[0].raw).toBeUndefined()
    const wrongScope = await tp.json(`/v1/products?destination_id=${d.id}`, {
      token: await key(['billing:read']),
    })
    expect(wrongScope.status).toBe(403)
    expect((await tp.json(`/v1/products?destination_id=${d.id}`, { token: b.token })).status).toBe(404)
    const tool = await tp.json('/api/api-keys', {
      token: a.token,
      body: {
        name: 'agent',
        kind: 'tool_server',
        environment: 'production',
        scopes: ['content:read'],
        rate_limit_per_minute: 100,
      },
    })
    expect(tool.status, JSON.stringify(tool.body)).toBe(201)
    const found = await tp.json('/mcp/tools/execute', {
      headers: { 'x-api-key': tool.body.key },
      body: { tool: 'platform:search_products', params: { destination_id: d.id, q: 'blue' } },
    })
    expect(found.status, JSON.stringify(found.body)).toBe(200)
    expect(found.body.result.items.map((x: { title: string }) => x.title)).toEqual(['Blue kettle'])
    for (const q of ['', '&availability=gone', '&limit=1000', '&cursor=abc']) {
      const res = await tp.json(`/v1/products?destination_id=${q ? d.id : 'x'}${q}`, { token: a.token })
      expect(res.status, q).toBe(400)
    }
  })
})

describe('two instances, one destination', () => {
  it('runs one sync when both are asked at once', async (ctx) => {
    needsRealConcurrency(ctx)
    const d = await destination()
    await program(d.id, { network: 'awin', config: { feed_ids: ['300'] } })
    peers.awinFeeds.set('300', { generate: 3000 })
    const before = peers.hits.awin ?? 0
    const asked = await Promise.all(
      [0, 1, 0, 1].map((instance) =>
        tp.json('/functions/v1/sync-affiliate', {
          headers: asUser(a),
          body: { destination_id: d.id },
          instance,
        }),
      ),
    )
    expect(asked.map((r) => r.status)).toEqual([202, 202, 202, 202])
    expect(new Set(asked.map((r) => r.body.job_id)).size).toBe(1)
    const job = await finished(asked[0]!.body.job_id)
    expect(job.result).toMatchObject({ products: 3000 })
    for (const i of tp.instances) await i.platform.runJob('sync-affiliate/jobs/sweep')
    expect((peers.hits.awin ?? 0) - before).toBe(1)
    const [counted] = await tp.db.sql<{ count: number }[]>`
      select count(*)::int as count from public.jobs where kind = 'sync-affiliate.destination' and input->>'destination_id' = ${d.id}`
    expect(counted!.count).toBe(1)
  })
})

describe('schedule', () => {
  it('syncs a scheduled destination when it is due, through the sweep job', async () => {
    const d = await destination(a, { schedule: 'hourly' })
    await program(d.id, { network: 'awin', config: { feed_ids: ['400'] } })
    peers.awinFeeds.set('400', [row(1)])
    const sweep = () => tp.instances[0]!.platform.runJob('sync-affiliate/jobs/sweep').then((r) => r.json())
    expect((await sweep()).scheduled).toBe(0)
    clock.advance(61 * 60_000)
    expect(await sweep()).toMatchObject({ scheduled: 1, succeeded: 1 })
    const got = (await tp.json(`/api/affiliate/destinations/${d.id}`, { token: a.token })).body
    expect(got.last_status).toBe('succeeded')
    expect(new Date(got.next_run_at).getTime() - clock.now().getTime()).toBe(3600_000)
    expect(await products(d.id)).toHaveLength(1)
  })
})

describe('a 100,000-row feed', () => {
  it('streams it into the products table with bounded memory', async () => {
    const d = await destination()
    await program(d.id, { network: 'awin', config: { feed_ids: ['500'] }, currency: 'GBP' })
    peers.awinFeeds.set('500', { generate: 100_000 })
    const base = process.memoryUsage()
    const peak = { rss: base.rss, heapUsed: base.heapUsed }
    const sampler = setInterval(() => {
      const m = process.memoryUsage()
      peak.rss = Math.max(peak.rss, m.rss)
      peak.heapUsed = Math.max(peak.heapUsed, m.heapUsed)
    }, 20)
    const started = performance.now()
    let job: Job
    try {
      job = await sync(d.id)
    } finally {
      clearInterval(sampler)
    }
    const seconds = (performance.now() - started) / 1000
    expect(job.status, job.error ?? '').toBe('succeeded')
    expect(job.result).toMatchObject({ products: 100_000 })
    const mb = (n: number) => Math.round(n / 1024 / 1024)
    console.log(
      `100,000 rows in ${seconds.toFixed(1)} s (${Math.round(100_000 / seconds)} rows/s); ` +
        `process peak rss ${mb(peak.rss)} MB (+${mb(peak.rss - base.rss)}), ` +
        `peak heap ${mb(peak.heapUsed)} MB (+${mb(peak.heapUsed - base.heapUsed)})`,
    )
    // The feed alone is ~40 MB of CSV (~80 MB as strings) and several times that as parsed objects;
    // the sync holds one batch. The bound is loose because V8 collects garbage lazily: a fast database
    // lets more garbage pile up between collections (+136 MB seen on PostgreSQL, +19 MB on PGlite).
    // What it guards against, holding the parsed feed, takes several times that bound; the benchmark
    // (npm run bench affiliate) reports the peaks beside a parse-only baseline.
    expect(peak.heapUsed - base.heapUsed).toBeLessThan(256 * 1024 * 1024)
  }, 300_000)
})
