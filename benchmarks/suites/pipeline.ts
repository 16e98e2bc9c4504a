/**
 * The content pipeline, each figure beside its baseline from the same run:
 *
 * 1. Scraping a 500-item RSS feed end to end (POST scrape-social, the job fetching it from a
 *    loopback feed server through the guarded fetch, parsing, storing 500 new items, finishing the
 *    job), in items per second, against parsing the same feed alone (feedsmith plus normalising).
 * 2. What generate-article adds per article (POST, the job: items, quota check, credential, the
 *    model call, metering, the draft article and its references) against the provider call alone
 *    (the same SDK call to the same loopback OpenAI-compatible server), in milliseconds.
 */

import { generationEngine } from '@shared/services/generation/generate.ts'
import { callModel } from '@shared/services/generation/providers.ts'
import { parseFeedItems } from '@shared/services/sources/feed.ts'
import { scrapeEngine } from '@shared/services/sources/scrape.ts'
import { startFeedServer } from '@tests/support/feed-server.ts'
import { startLlmServer } from '@tests/support/llm-server.ts'
import { startTestPlatform } from '@tests/support/platform.ts'
import { latencyStats } from '../lib.ts'

const fmt = (n: number, digits: number) => n.toFixed(digits)

const ROUNDS = 5
const ITEMS = 500
const ARTICLES = 30

export default async function pipelineBenchmark(): Promise<void> {
  const feeds = await startFeedServer()
  const llm = await startLlmServer()
  const tp = await startTestPlatform({ env: { OPENAI_BASE_URL: llm.openaiBaseUrl } })
  const deps = tp.instances[0]!.platform.deps
  const tenant = await tp.createTenant()
  await tp.db.sql`update public.tenants set plan = 'enterprise' where id = ${tenant.tenantId}`
  const [site] = await tp.db.sql<{ id: string }[]>`
    insert into public.sites (tenant_id, name) values (${tenant.tenantId}, 'Bench') returning id`
  const headers = { apikey: tp.anonKey, authorization: `Bearer ${tenant.token}` }
  const feedUrl = `${feeds.url}/big.xml?n=${ITEMS}`

  // 1. Scraping end to end vs parsing alone.
  const body = await (await fetch(feedUrl)).text()
  const parseMs: number[] = []
  for (let i = 0; i < ROUNDS + 1; i++) {
    const t0 = performance.now()
    const { items } = parseFeedItems(body)
    if (items.length !== ITEMS) throw new Error(`parsed ${items.length} items`)
    if (i > 0) parseMs.push(performance.now() - t0) // the first is warm-up
  }
  const scrapeMs: number[] = []
  for (let i = 0; i < ROUNDS + 1; i++) {
    // A new source each round, so all 500 items are new (no de-duplication shortcut).
    const source = await tp.json('/api/sources', {
      token: tenant.token,
      body: { site_id: site!.id, name: `Bench ${i}`, kind: 'feed', config: { url: feedUrl } },
    })
    const t0 = performance.now()
    const res = await tp.json('/functions/v1/scrape-social', { headers, body: { source_id: source.body.id } })
    await scrapeEngine(deps).idle()
    const elapsed = performance.now() - t0
    const [job] = await tp.db.sql`select status, result from public.jobs where id = ${res.body.job_id}`
    if (job!.status !== 'succeeded' || job!.result.new_items !== ITEMS)
      throw new Error(`scrape ${JSON.stringify(job)}`)
    if (i > 0) scrapeMs.push(elapsed)
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length
  const scrapeRate = ITEMS / (mean(scrapeMs) / 1000)
  const parseRate = ITEMS / (mean(parseMs) / 1000)
  console.log(`\nScraping a ${ITEMS}-item RSS feed end to end vs parsing it alone (${ROUNDS} rounds each)`)
  console.log(
    `  end to end (POST -> job succeeded, ${ITEMS} items stored): ${fmt(scrapeRate, 0)} items/s  (${fmt(mean(scrapeMs), 1)} ms per feed)`,
  )
  console.log(
    `  parsing alone (feedsmith + normalising):                ${fmt(parseRate, 0)} items/s  (${fmt(mean(parseMs), 1)} ms per feed)`,
  )
  console.log(`  ratio ${fmt(scrapeRate / parseRate, 2)}`)

  // 2. generate-article's overhead per article vs the provider call alone.
  const cred = await tp.json('/api/credentials', {
    token: tenant.token,
    body: {
      provider_id: 'bc152fb4-8e13-4148-bfdc-1734d3f3c667',
      name: 'openai',
      environment: 'production',
      credential: llm.key,
    },
  })
  if (cred.status !== 201) throw new Error(JSON.stringify(cred.body))
  const items = await tp.db.sql<{ id: string }[]>`
    select id from public.source_items where tenant_id = ${tenant.tenantId} order by created_at limit 5`
  const itemIds = items.map((i) => i.id)
  const prompt = 'x'.repeat(2000)
  const providerMs: number[] = []
  const articleMs: number[] = []
  for (let i = 0; i < ARTICLES + 3; i++) {
    const p0 = performance.now()
    await callModel({
      provider: 'openai',
      baseUrl: llm.openaiBaseUrl,
      apiKey: llm.key,
      model: 'bench',
      system: 'You are an editor.',
      prompt,
      maxOutputTokens: 2000,
      timeoutMs: 30_000,
      fetch: deps.fetch,
    })
    const p1 = performance.now()
    const res = await tp.json('/functions/v1/generate-article', {
      headers,
      body: { site_id: site!.id, item_ids: itemIds, model: 'bench' },
    })
    await generationEngine(deps).idle()
    const p2 = performance.now()
    const [job] = await tp.db.sql`select status, error from public.jobs where id = ${res.body.job_id}`
    if (job!.status !== 'succeeded') throw new Error(`generate ${JSON.stringify(job)}`)
    if (i >= 3) {
      providerMs.push(p1 - p0)
      articleMs.push(p2 - p1)
    }
  }
  const provider = latencyStats(providerMs)
  const article = latencyStats(articleMs)
  console.log(`\ngenerate-article per article (${ARTICLES} articles, loopback OpenAI-compatible provider)`)
  console.log(
    `  end to end (POST -> draft article, tokens metered): p50 ${fmt(article.p50ms, 1)} ms, mean ${fmt(mean(articleMs), 1)} ms`,
  )
  console.log(
    `  the provider call alone (same SDK, same server):    p50 ${fmt(provider.p50ms, 1)} ms, mean ${fmt(mean(providerMs), 1)} ms`,
  )
  console.log(
    `  overhead per article: ${fmt(mean(articleMs) - mean(providerMs), 1)} ms (mean), ${fmt(article.p50ms - provider.p50ms, 1)} ms (p50)`,
  )

  await tp.close()
  await feeds.close()
  await llm.close()
}
