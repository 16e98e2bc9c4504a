import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { callModel, providerFailure } from '../shared/services/generation/providers.ts'
import { productIds } from '../shared/services/usage/metering.ts'
import { type LlmServer, startLlmServer } from './support/llm-server.ts'
import {
  setupTimeout,
  startTestPlatform,
  TestClock,
  type TestPlatform,
  type TestTenant,
} from './support/platform.ts'

let tp: TestPlatform
let llm: LlmServer
const clock = new TestClock(new Date())

const PROVIDERS = {
  openai: 'bc152fb4-8e13-4148-bfdc-1734d3f3c667',
  anthropic: 'd93a4ccf-d51d-4724-b33c-944d28befd87',
}

interface Fixture {
  tenant: TestTenant
  site: string
  source: string
  items: string[]
}

beforeAll(async () => {
  llm = await startLlmServer()
  tp = await startTestPlatform({
    clock,
    env: { OPENAI_BASE_URL: llm.openaiBaseUrl, ANTHROPIC_BASE_URL: llm.anthropicBaseUrl },
  })
}, setupTimeout())
afterAll(async () => {
  await tp?.close()
  await llm?.close()
})
beforeEach(() => {
  llm.mode = 'ok'
  llm.usage = { input: 120, output: 80 }
})

/** A tenant with a site, a source with three items, and AI credentials for both providers. */
async function fixture(plan = 'free'): Promise<Fixture> {
  const tenant = await tp.createTenant()
  await tp.db.sql`update public.tenants set plan = ${plan} where id = ${tenant.tenantId}`
  const [site] = await tp.db.sql<{ id: string }[]>`
    insert into public.sites (tenant_id, name) values (${tenant.tenantId}, 'News') returning id`
  const [source] = await tp.db.sql<{ id: string }[]>`
    insert into public.sources (tenant_id, site_id, name, kind, config)
    values (${tenant.tenantId}, ${site!.id}, 'Feed', 'feed', '{"url":"https://example.com/feed.xml"}') returning id`
  const items = await tp.db.sql<{ id: string }[]>`
    insert into public.source_items (tenant_id, source_id, external_id, url, title, text, author, published_at)
    select ${tenant.tenantId}, ${source!.id}, 'item-' || n, 'https://example.com/p/' || n, 'Post ' || n,
           'The body of post ' || n, 'Author ' || n, '2026-11-20T00:00:00Z'::timestamptz + make_interval(hours => n)
    from generate_series(1, 3) as n returning id`
  for (const [slug, id] of Object.entries(PROVIDERS)) {
    const res = await tp.json('/api/credentials', {
      token: tenant.token,
      body: { provider_id: id, name: slug, environment: 'production', credential: llm.key },
    })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
  }
  return { tenant, site: site!.id, source: source!.id, items: items.map((i) => i.id) }
}

const generate = (f: Fixture, body: Record<string, unknown>) =>
  tp.json('/functions/v1/generate-article', {
    headers: { apikey: tp.anonKey, authorization: `Bearer ${f.tenant.token}` },
    body: { site_id: f.site, ...body },
  })

async function finished(f: Fixture, jobId: string) {
  let job: Record<string, any> = {}
  await expect
    .poll(
      async () => {
        job = (await tp.json(`/api/jobs/${jobId}`, { token: f.tenant.token })).body
        return job.status
      },
      { timeout: 20_000, interval: 50 },
    )
    .toMatch(/succeeded|failed/)
  return job
}

const tokensUsed = async (f: Fixture) =>
  Number(
    (
      await tp.db.sql`select coalesce(sum(units), 0)::int as n from public.usage_counters
                      where tenant_id = ${f.tenant.tenantId} and product_id = ${productIds.assistant}`
    )[0]!.n,
  )

const setTokens = (f: Fixture, units: number) => tp.db.sql`
  insert into public.usage_counters (tenant_id, product_id, period, units)
  values (${f.tenant.tenantId}, ${productIds.assistant}, date_trunc('month', ${clock.now()}::timestamptz)::date, ${units})
  on conflict (tenant_id, product_id, period) do update set units = excluded.units`

describe('generate-article', () => {
  it('writes a draft from chosen items through the OpenAI-compatible API and meters its tokens', async () => {
    const f = await fixture()
    const res = await generate(f, {
      item_ids: f.items.slice(0, 2),
      instructions: 'Write for beginners',
      model: 'gpt-test',
    })
    expect(res.status, JSON.stringify(res.body)).toBe(202)
    expect(res.body.kind).toBe('generate-article.article')
    const job = await finished(f, res.body.job_id)
    expect(job.status, job.error).toBe('succeeded')
    expect(job.result).toMatchObject({
      title: 'What the week brought',
      status: 'draft',
      provider: 'openai',
      model: 'gpt-test',
      usage: { input_tokens: 120, output_tokens: 80, total_tokens: 200 },
    })

    const call = llm.requests.at(-1)!
    expect(call.path).toBe('/v1/chat/completions')
    expect(call.headers.authorization).toBe(`Bearer ${llm.key}`)
    expect(call.body.model).toBe('gpt-test')
    const prompt = call.body.messages.at(-1).content as string
    expect(prompt).toContain('Instructions: Write for beginners')
    expect(prompt).toContain('The body of post 1')
    expect(prompt).not.toContain('The body of post 3')

    const [article] = await tp.db.sql`
      select title, body, status, site_id from public.articles where id = ${job.result.article_id}`
    expect(article).toMatchObject({ title: 'What the week brought', status: 'draft', site_id: f.site })
    expect(article!.body).toContain('https://example.com/p/1')
    const refs = await tp.db
      .sql`select item_id from public.article_source_items where article_id = ${job.result.article_id}`
    expect(refs.map((r) => r.item_id).sort()).toEqual(f.items.slice(0, 2).sort())
    const [event] = await tp.db.sql`
      select type, data from public.event_outbox where tenant_id = ${f.tenant.tenantId} and type = 'content.updated'`
    expect(event!.data).toMatchObject({ article_id: job.result.article_id })
    expect(await tokensUsed(f)).toBe(200)
    const [use] = await tp.db.sql`
      select function_name from public.credential_usage where tenant_id = ${f.tenant.tenantId}`
    expect(use!.function_name).toBe('generate-article')
  })

  it("writes from a source's newest items through the Anthropic Messages API", async () => {
    const f = await fixture()
    llm.usage = { input: 90, output: 60 }
    const res = await generate(f, { source_id: f.source, provider: 'anthropic', max_items: 2 })
    expect(res.status, JSON.stringify(res.body)).toBe(202)
    const job = await finished(f, res.body.job_id)
    expect(job.status, job.error).toBe('succeeded')
    const call = llm.requests.at(-1)!
    const key = call.headers['x-api-key'] ?? call.headers.authorization?.replace('Bearer ', '')
    expect([call.path, key, call.body.model]).toEqual(['/v1/messages', llm.key, 'claude-sonnet-4-6'])
    expect(call.headers['anthropic-version']).toBeTruthy()
    expect(call.body.system).toMatch(/editor/)
    // The two newest items.
    expect(job.result.item_ids.sort()).toEqual(f.items.slice(1).sort())
    expect(await tokensUsed(f)).toBe(150)
  })

  it('refuses a Free tenant at exactly its 10K-token quota with 429 before calling the provider', async () => {
    const f = await fixture()
    await setTokens(f, 7_000)
    const calls = llm.requests.length
    const under = await generate(f, { item_ids: [f.items[0]] })
    expect(under.status).toBe(202)
    expect((await finished(f, under.body.job_id)).status).toBe('succeeded')
    expect(llm.requests.length).toBe(calls + 1)
    // The reservation is settled to what the provider spent.
    expect(await tokensUsed(f)).toBe(7_200)
    // Near the quota the request is taken, but the call's reservation (its input's bound and its
    // 2,000-token maximum output) does not fit: the job fails without calling the provider.
    await setTokens(f, 9_999)
    const near = await generate(f, { item_ids: [f.items[0]] })
    expect(near.status).toBe(202)
    const refused = await finished(f, near.body.job_id)
    expect(refused.status).toBe('failed')
    expect(refused.error).toContain('QUOTA_EXCEEDED')
    expect(await tokensUsed(f)).toBe(9_999)
    await setTokens(f, 10_000)
    const exactly = await generate(f, { item_ids: [f.items[0]] })
    expect([exactly.status, exactly.body.code]).toEqual([429, 'QUOTA_EXCEEDED'])
    expect(exactly.body.retryAfter).toBeGreaterThan(0)
    expect(llm.requests.length).toBe(calls + 1)
  })

  it('lets a paid plan go past its quota (overage)', async () => {
    const f = await fixture('pro')
    await setTokens(f, 500_000)
    const res = await generate(f, { item_ids: [f.items[0]] })
    expect(res.status).toBe(202)
    expect((await finished(f, res.body.job_id)).status).toBe('succeeded')
    expect(await tokensUsed(f)).toBe(500_200)
  })

  it('fails at once on a rejected key, and retries 429 and 5xx with backoff', async () => {
    const f = await fixture()
    llm.mode = 'unauthorized'
    const rejected = await finished(f, (await generate(f, { item_ids: [f.items[0]] })).body.job_id)
    expect([rejected.status, rejected.attempts]).toEqual(['failed', 1])
    expect(rejected.error).toMatch(/rejected the API key \(401\)/)
    // A provider that repeats the request's key in its refusal: the job, and the job.failed event
    // a subscriber receives, carry the message without the key.
    llm.echoAuthorization = true
    try {
      const echoed = await finished(f, (await generate(f, { item_ids: [f.items[0]] })).body.job_id)
      expect(echoed.error).toContain('Request refused for Bearer [redacted]')
      expect(echoed.error).not.toContain(llm.key)
      const [event] = await tp.db.sql`
        select data from public.event_outbox where type = 'job.failed' and data->>'job_id' = ${echoed.id}`
      expect(event!.data.error).toBe(echoed.error)
    } finally {
      llm.echoAuthorization = false
    }

    llm.mode = 'rate_limited'
    const limited = await generate(f, { item_ids: [f.items[0]], provider: 'anthropic' })
    const id = limited.body.job_id
    await expect
      .poll(async () => (await tp.json(`/api/jobs/${id}`, { token: f.tenant.token })).body.attempts, {
        timeout: 20_000,
      })
      .toBe(1)
    const current = async () => (await tp.json(`/api/jobs/${id}`, { token: f.tenant.token })).body
    await expect.poll(async () => (await current()).status).toBe('queued')
    let job = await current()
    expect(job.error).toMatch(/rate limiting \(429\)/)
    llm.mode = 'server_error'
    const sweep = () => tp.instances[0]!.platform.runJob('generate-article/jobs/sweep').then((r) => r.json())
    clock.advance(5_000)
    expect(await sweep()).toMatchObject({ retried: 1 })
    job = (await tp.json(`/api/jobs/${id}`, { token: f.tenant.token })).body
    expect([job.status, job.attempts]).toEqual(['queued', 2])
    expect(job.error).toMatch(/failed \(529\)/)
    llm.mode = 'ok'
    clock.advance(10_000)
    expect(await sweep()).toMatchObject({ succeeded: 1 })
    job = (await tp.json(`/api/jobs/${id}`, { token: f.tenant.token })).body
    expect([job.status, job.attempts, job.error]).toEqual(['succeeded', 3, null])
  })

  it('fails a provider call that times out with a clear, retryable reason', async () => {
    llm.delayMs = 1000
    try {
      for (const provider of ['openai', 'anthropic'] as const) {
        const err = await callModel({
          provider,
          baseUrl: provider === 'openai' ? llm.openaiBaseUrl : llm.anthropicBaseUrl,
          apiKey: llm.key,
          model: 'm',
          system: 's',
          prompt: 'p',
          maxOutputTokens: 10,
          timeoutMs: 200,
          fetch: tp.instances[0]!.platform.deps.fetch,
        }).catch((e: unknown) => e)
        expect(providerFailure(provider, err, llm.key)).toMatchObject({
          transient: true,
          reason: expect.stringMatching(/timed out/),
        })
      }
    } finally {
      llm.delayMs = 0
    }
  })

  it('sends usage alerts as the tokens cross 80% of the quota', async () => {
    const f = await fixture()
    await setTokens(f, 7_000)
    llm.usage = { input: 120, output: 1_000 }
    const res = await generate(f, { item_ids: [f.items[0]] })
    expect((await finished(f, res.body.job_id)).status).toBe('succeeded')
    llm.usage = { input: 120, output: 80 }
    const alerts = await tp.db.sql`
      select subject, recipient from public.notifications where tenant_id = ${f.tenant.tenantId} and kind = 'usage.alert'`
    expect(alerts.map((a) => a.subject)).toEqual(['Assistant API: 80% of the monthly quota used'])
    expect(alerts[0]!.recipient).toBe(f.tenant.email.toLowerCase())
  })

  it('validates the request against the tenant', async () => {
    const f = await fixture()
    const other = await fixture()
    const both = await generate(f, { item_ids: [f.items[0]], source_id: f.source })
    expect([both.status, both.body.code]).toEqual([400, 'VALIDATION_ERROR'])
    const foreign = await generate(f, { item_ids: [other.items[0]] })
    expect([foreign.status, foreign.body.details?.[0]?.field]).toEqual([400, 'item_ids'])
    expect((await generate(f, { site_id: other.site, item_ids: [f.items[0]] })).status).toBe(404)
    expect((await generate(f, { source_id: other.source })).status).toBe(404)
  })
})
