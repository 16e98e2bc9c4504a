/**
 * CJ product search: the GraphQL `products` query at https://ads.api.cj.com/query with the
 * Personal Access Token as Bearer (provider cj-affiliate), paged by limit/offset (at most 10,000
 * records per search, CJ's cap). The tracking id is the website id (PID) for linkCode's clickUrl.
 */
import { JobError } from '@shared/infra/jobs/engine.ts'
import { entry, type FeedEntry } from '../product.ts'
import { cjConfig } from '../schema.ts'
import { failForStatus } from '../streams.ts'
import type { Adapter } from './types.ts'

const CJ_PRODUCTS_QUERY = `query Products($companyId: ID!, $partnerIds: [ID!], $keywords: [String!], $limit: Int, $offset: Int, $pid: ID!) {
  products(companyId: $companyId, partnerIds: $partnerIds, keywords: $keywords, limit: $limit, offset: $offset) {
    totalCount
    count
    resultList {
      id advertiserId advertiserName title description productType gtin
      price { amount currency }
      salePrice { amount currency }
      availability imageLink link
      linkCode(pid: $pid) { clickUrl }
    }
  }
}`

interface CjProduct {
  id?: string
  advertiserId?: string
  advertiserName?: string
  title?: string
  description?: string
  productType?: string[] | string | null
  gtin?: string | null
  price?: { amount?: string | number; currency?: string } | null
  salePrice?: { amount?: string | number; currency?: string } | null
  availability?: string | null
  imageLink?: string | null
  link?: string | null
  linkCode?: { clickUrl?: string } | null
}

export const cjAdapter: Adapter = async function* ({ deps, program, secret }): AsyncGenerator<FeedEntry> {
  const config = cjConfig.parse(program.config)
  if (!program.tracking_id) throw new JobError('the CJ program needs a tracking_id (your website id, PID)')
  let offset = 0
  while (offset < config.max_products) {
    const limit = Math.min(config.page_size, config.max_products - offset)
    const res = await deps.fetch(deps.config.CJ_API_URL, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret ?? ''}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        query: CJ_PRODUCTS_QUERY,
        variables: {
          companyId: config.company_id,
          partnerIds: program.merchant_ids.length > 0 ? program.merchant_ids : null,
          keywords: config.keywords.length > 0 ? config.keywords : null,
          limit,
          offset,
          pid: program.tracking_id,
        },
      }),
      timeoutMs: 60_000,
      maxResponseBytes: 64 * 1024 * 1024,
    })
    if (!res.ok) await failForStatus(res, 'CJ product search')
    let body: {
      data?: { products?: { totalCount?: number; resultList?: CjProduct[] } }
      errors?: { message?: string }[]
    }
    try {
      body = (await res.json()) as typeof body
    } catch {
      throw new JobError('CJ product search answered with something that is not JSON')
    }
    if (body.errors?.length) {
      const messages = body.errors.map((e) => e.message ?? 'error').join('; ')
      throw new JobError(`CJ product search refused the query: ${messages.slice(0, 500)}`)
    }
    const page = body.data?.products
    const list = page?.resultList ?? []
    for (const p of list) {
      yield entry(() => ({
        external_id: p.id,
        merchant: p.advertiserName,
        title: p.title,
        description: p.description,
        category: Array.isArray(p.productType) ? p.productType[0] : p.productType,
        price: p.price?.amount,
        sale_price: p.salePrice?.amount,
        currency: p.price?.currency,
        availability: p.availability,
        image_url: p.imageLink,
        affiliate_url: p.linkCode?.clickUrl || p.link,
        gtin: p.gtin,
        raw: p as Record<string, unknown>,
      }))
    }
    offset += list.length
    if (list.length === 0 || offset >= (page?.totalCount ?? 0)) break
  }
}
