/**
 * One loopback server answering as the affiliate networks do, with their documented shapes:
 * - Awin's feed download: GET /datafeed/download/apikey/{key}/language/{lang}/fid/{ids}/columns/{cols}/
 *   format/csv/delimiter/%2C/compression/gzip/... -> a gzip CSV file (not a Content-Encoding), 403 for
 *   an unknown key, 404 for an unknown feed id;
 * - CJ's product search: POST /query (GraphQL, Bearer personal access token) -> {data: {products:
 *   {totalCount, count, resultList}}}, or {errors};
 * - Amazon's Creators API: POST /auth/o2/token (client credentials) -> {access_token, expires_in};
 *   POST /catalog/v1/searchItems (Bearer + Version) -> {searchResult: {totalResultCount, items}};
 * - generic feeds: GET /feeds/{name}.
 * Large feeds are generated row by row while they are sent (never held whole in memory).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createGzip } from 'node:zlib'

export const AWIN_COLUMNS_HEADER = [
  'aw_product_id',
  'merchant_product_id',
  'merchant_id',
  'merchant_name',
  'product_name',
  'description',
  'merchant_category',
  'search_price',
  'rrp_price',
  'currency',
  'aw_deep_link',
  'merchant_image_url',
  'aw_image_url',
  'in_stock',
  'stock_status',
  'ean',
  'product_GTIN',
]

export type AwinRow = Partial<Record<(typeof AWIN_COLUMNS_HEADER)[number], string>>

const csvCell = (v: string) => (/[",\n\r]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v)
export const csvLine = (cells: string[]) => `${cells.map(csvCell).join(',')}\n`

/** A deterministic Awin row number i (the big feed and the benchmark). */
export function awinRow(i: number, currency = 'GBP'): AwinRow {
  return {
    aw_product_id: String(1_000_000 + i),
    merchant_product_id: `SKU-${i}`,
    merchant_id: '1001',
    merchant_name: 'Big Shop',
    product_name: `Product ${i} kettle`,
    description: `Description of product ${i}, with a comma`,
    merchant_category: 'Kitchen',
    search_price: `${(i % 500) + 1}.${String(i % 100).padStart(2, '0')}`,
    rrp_price: '',
    currency,
    aw_deep_link: `https://www.awin1.com/pclick.php?p=${1_000_000 + i}&a=12345&m=1001`,
    merchant_image_url: `https://images.example.com/${i}.jpg`,
    aw_image_url: '',
    in_stock: '1',
    stock_status: 'in stock',
    ean: String(5_000_000_000_000 + i),
    product_GTIN: '',
  }
}

/** The CSV of `count` generated rows, as a byte stream produced on demand. */
function* generatedAwinCsv(count: number, currency = 'GBP'): Generator<string> {
  yield csvLine(AWIN_COLUMNS_HEADER)
  let chunk = ''
  for (let i = 0; i < count; i++) {
    const row = awinRow(i, currency)
    chunk += csvLine(AWIN_COLUMNS_HEADER.map((c) => row[c] ?? ''))
    if (chunk.length > 64 * 1024) {
      yield chunk
      chunk = ''
    }
  }
  if (chunk) yield chunk
}

export interface AffiliateServer {
  url: string
  awinKey: string
  cjToken: string
  amazon: { credential_id: string; credential_secret: string; version: string }
  /** Awin feeds by feed id: fixed rows, raw CSV text (malformed rows), or a generated size. */
  awinFeeds: Map<string, AwinRow[] | { csv: string } | { generate: number; currency?: string }>
  cjProducts: Record<string, unknown>[]
  amazonItems: Record<string, unknown>[]
  feeds: Map<string, { type: string; body: string }>
  /** Requests seen, by kind: 'awin', 'cj', 'amazon-token', 'amazon-search', 'feed'. */
  hits: Record<string, number>
  lastCjVariables?: Record<string, unknown>
  lastAmazonBody?: Record<string, unknown>
  lastAmazonAuthorization?: string
  close(): Promise<void>
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const c of req) chunks.push(c as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

export async function startAffiliateServer(): Promise<AffiliateServer> {
  const state: Omit<AffiliateServer, 'url' | 'close'> = {
    awinKey: 'awin-download-key-0123456789',
    cjToken: 'cj-personal-access-token',
    amazon: { credential_id: 'amzn-cred-id', credential_secret: 'amzn-cred-secret', version: '3.1' },
    awinFeeds: new Map(),
    cjProducts: [],
    amazonItems: [],
    feeds: new Map(),
    hits: {},
  }
  const hit = (k: string) => {
    state.hits[k] = (state.hits[k] ?? 0) + 1
  }
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' })
    res.end(JSON.stringify(body))
  }

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x')
    const awin = url.pathname.match(
      /^\/datafeed\/download\/apikey\/([^/]+)\/language\/([a-z]{2})\/fid\/([^/]+)\/columns\/([^/]+)\/format\/csv\/delimiter\/%2C\/compression\/gzip\//,
    )
    if (req.method === 'GET' && awin) {
      hit('awin')
      if (decodeURIComponent(awin[1]!) !== state.awinKey) return json(res, 403, { error: 'invalid api key' })
      const fids = awin[3]!.split(',')
      const feeds = fids.map((f) => state.awinFeeds.get(f))
      if (feeds.some((f) => !f)) {
        res.writeHead(404, { 'content-type': 'text/plain' })
        return res.end('Feed not found')
      }
      const columns = awin[4]!.split(',')
      res.writeHead(200, {
        'content-type': 'application/x-gzip',
        'content-disposition': 'attachment; filename="datafeed.csv.gz"',
      })
      function* csv(): Generator<string> {
        let header = false
        for (const feed of feeds) {
          if (feed && 'generate' in feed) {
            const gen = generatedAwinCsv(feed.generate, feed.currency)
            const first = gen.next()
            if (!header && !first.done) yield first.value
            header = true
            yield* gen
          } else if (feed && 'csv' in feed) {
            yield feed.csv
            header = true
          } else {
            if (!header) yield csvLine(columns)
            header = true
            for (const row of feed as AwinRow[]) yield csvLine(columns.map((c) => row[c] ?? ''))
          }
        }
      }
      await pipeline(Readable.from(csv()), createGzip(), res)
      return
    }
    if (req.method === 'POST' && url.pathname === '/query') {
      hit('cj')
      if (req.headers.authorization !== `Bearer ${state.cjToken}`)
        return json(res, 401, { errors: [{ message: 'Unauthorized' }] })
      const body = JSON.parse(await readBody(req)) as { query: string; variables: Record<string, any> }
      state.lastCjVariables = body.variables
      if (!/products\s*\(/.test(body.query) || !body.variables.companyId)
        return json(res, 200, { errors: [{ message: 'companyId is required' }] })
      const { limit = 1000, offset = 0, partnerIds } = body.variables
      const pool = state.cjProducts.filter((p) => !partnerIds || partnerIds.includes(p.advertiserId))
      const page = pool.slice(offset, offset + limit).map((p) => ({
        ...p,
        linkCode: { clickUrl: `https://www.anrdoezrs.net/click-${body.variables.pid}-${p.id}` },
      }))
      return json(res, 200, {
        data: { products: { totalCount: pool.length, count: page.length, resultList: page } },
      })
    }
    if (req.method === 'POST' && url.pathname === '/auth/o2/token') {
      hit('amazon-token')
      const form = new URLSearchParams(await readBody(req))
      if (
        form.get('grant_type') !== 'client_credentials' ||
        form.get('client_id') !== state.amazon.credential_id ||
        form.get('client_secret') !== state.amazon.credential_secret
      )
        return json(res, 401, { error: 'invalid_client' })
      return json(res, 200, { access_token: 'amzn-access-token', token_type: 'bearer', expires_in: 3600 })
    }
    if (req.method === 'POST' && url.pathname === '/catalog/v1/searchItems') {
      hit('amazon-search')
      state.lastAmazonAuthorization = req.headers.authorization
      if (req.headers.authorization !== `Bearer amzn-access-token, Version ${state.amazon.version}`)
        return json(res, 401, { errors: [{ code: 'Unauthorized', message: 'bad token' }] })
      const body = JSON.parse(await readBody(req)) as Record<string, any>
      state.lastAmazonBody = body
      const page = Number(body.itemPage ?? 1)
      const items = state.amazonItems.slice((page - 1) * 10, page * 10).map((i) => ({
        ...i,
        detailPageURL: `https://www.amazon.com/dp/${i.asin}?tag=${body.partnerTag}&linkCode=ogi`,
      }))
      return json(res, 200, { searchResult: { totalResultCount: state.amazonItems.length, items } })
    }
    const feed = url.pathname.match(/^\/feeds\/(.+)$/)
    if (req.method === 'GET' && feed) {
      hit('feed')
      const f = state.feeds.get(feed[1]!)
      if (!f) return json(res, 404, { error: 'not found' })
      res.writeHead(200, { 'content-type': f.type })
      return res.end(f.body)
    }
    json(res, 404, { error: 'no such route' })
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err) => {
      if (!res.headersSent) json(res, 500, { error: String(err) })
      else res.destroy()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return Object.assign(state, {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  })
}
