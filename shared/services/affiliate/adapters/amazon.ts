/**
 * Amazon's Creators API (PA-API 5 is retired): an OAuth 2.0 client-credentials token for the
 * program's credential (provider amazon-associates; the secret is the JSON
 * {"credential_id","credential_secret","version"} Associates Central shows), then SearchItems
 * (POST {AMAZON_CREATORS_API_URL}/catalog/v1/searchItems, `Authorization: Bearer <token>,
 * Version <version>`), pages 1..max_pages of 10 items. The partner tag is the tracking id.
 */

import { JobError } from '@shared/infra/jobs/engine.ts'
import { z } from 'zod'
import { entry, type FeedEntry } from '../product.ts'
import { amazonConfig } from '../schema.ts'
import { CredentialRejectedError, failForStatus } from '../streams.ts'
import type { Adapter } from './types.ts'

const secretSchema = z.object({
  credential_id: z.string().min(1),
  credential_secret: z.string().min(1),
  version: z.string().regex(/^\d+(\.\d+)?$/),
})

const AMAZON_RESOURCES = [
  'itemInfo.title',
  'itemInfo.features',
  'itemInfo.classifications',
  'itemInfo.externalIds',
  'images.primary.large',
  'offersV2.listings.price',
  'offersV2.listings.availability',
  'offersV2.listings.merchantInfo',
]

interface Money {
  amount?: number | string
  currency?: string
}
interface AmazonItem {
  asin?: string
  detailPageURL?: string
  itemInfo?: {
    title?: { displayValue?: string }
    features?: { displayValues?: string[] }
    classifications?: { productGroup?: { displayValue?: string } }
    externalIds?: { eans?: { displayValues?: string[] }; upcs?: { displayValues?: string[] } }
  }
  images?: { primary?: { large?: { url?: string } } }
  offersV2?: {
    listings?: {
      price?: { money?: Money; savingBasis?: { money?: Money } }
      availability?: { type?: string }
      merchantInfo?: { name?: string }
    }[]
  }
}

const availability = (type: string | undefined) =>
  ({ IN_STOCK: 'in_stock', OUT_OF_STOCK: 'out_of_stock', PREORDER: 'preorder', BACKORDER: 'backorder' })[
    type ?? ''
  ] ?? (type ? 'out_of_stock' : 'in_stock')

async function accessToken(run: Parameters<Adapter>[0], secret: z.infer<typeof secretSchema>) {
  const res = await run.deps.fetch(run.deps.config.AMAZON_CREATORS_TOKEN_URL, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: secret.credential_id,
      client_secret: secret.credential_secret,
      scope: 'creatorsapi::default',
    }).toString(),
    timeoutMs: 30_000,
  })
  if (res.status === 400 || res.status === 401 || res.status === 403) {
    await res.body?.cancel().catch(() => {})
    throw new CredentialRejectedError(
      `the Amazon Creators API token endpoint rejected the credential (${res.status})`,
    )
  }
  if (!res.ok) await failForStatus(res, 'the Amazon Creators API token endpoint')
  const body = (await res.json().catch(() => ({}))) as { access_token?: string }
  if (!body.access_token)
    throw new JobError('the Amazon Creators API token endpoint returned no access_token')
  return body.access_token
}

export const amazonAdapter: Adapter = async function* (run): AsyncGenerator<FeedEntry> {
  const { deps, program } = run
  const config = amazonConfig.parse(program.config)
  if (!program.tracking_id) throw new JobError('the Amazon program needs a tracking_id (your partner tag)')
  let secret: z.infer<typeof secretSchema>
  try {
    secret = secretSchema.parse(JSON.parse(run.secret ?? ''))
  } catch {
    throw new JobError(
      'the Amazon credential must be the JSON {"credential_id", "credential_secret", "version"} from Associates Central',
    )
  }
  const token = await accessToken(run, secret)
  const base = deps.config.AMAZON_CREATORS_API_URL.replace(/\/$/, '')
  for (let page = 1; page <= config.max_pages; page++) {
    const res = await deps.fetch(`${base}/catalog/v1/searchItems`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}, Version ${secret.version}`,
        'content-type': 'application/json',
        'x-marketplace': config.marketplace,
      },
      body: JSON.stringify({
        keywords: config.keywords,
        searchIndex: config.search_index,
        itemCount: 10,
        itemPage: page,
        partnerTag: program.tracking_id,
        marketplace: config.marketplace,
        resources: AMAZON_RESOURCES,
      }),
      timeoutMs: 30_000,
    })
    if (!res.ok) await failForStatus(res, 'the Amazon Creators API')
    const body = (await res.json().catch(() => null)) as {
      searchResult?: { items?: AmazonItem[]; totalResultCount?: number }
    } | null
    if (!body) throw new JobError('the Amazon Creators API answered with something that is not JSON')
    const items = body.searchResult?.items ?? []
    for (const item of items) {
      const listing = item.offersV2?.listings?.[0]
      const money = listing?.price?.money
      const basis = listing?.price?.savingBasis?.money
      const merchant = listing?.merchantInfo?.name ?? 'Amazon'
      if (program.merchant_ids.length > 0 && !program.merchant_ids.includes(merchant)) continue
      yield entry(() => ({
        external_id: item.asin,
        merchant,
        title: item.itemInfo?.title?.displayValue,
        description: item.itemInfo?.features?.displayValues?.join('\n'),
        category: item.itemInfo?.classifications?.productGroup?.displayValue,
        price: basis?.amount ?? money?.amount,
        sale_price: basis?.amount !== undefined ? money?.amount : null,
        currency: money?.currency,
        availability: availability(listing?.availability?.type),
        image_url: item.images?.primary?.large?.url,
        affiliate_url: item.detailPageURL,
        gtin:
          item.itemInfo?.externalIds?.eans?.displayValues?.[0] ??
          item.itemInfo?.externalIds?.upcs?.displayValues?.[0],
        raw: item as Record<string, unknown>,
      }))
    }
    const total = body.searchResult?.totalResultCount ?? 0
    if (items.length < 10 || page * 10 >= total) break
  }
}
