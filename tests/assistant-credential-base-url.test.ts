import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ScriptedLlm, startScriptedLlm } from './support/assistant-llm.ts'
import { AI_PROVIDER_IDS } from './support/assistant-platform.ts'
import { startTestPlatform, type TestPlatform } from './support/platform.ts'

/**
 * An OpenAI-compatible credential with its own base URL (OpenRouter, Azure, a self-hosted server):
 * the assistant's model calls go there, not to the platform's OPENAI_BASE_URL; a URL the outbound
 * address policy refuses, or one on a provider that is not OpenAI-compatible, is 400.
 */

let tp: TestPlatform
let platformWide: ScriptedLlm
let own: ScriptedLlm
const PROVIDERS = AI_PROVIDER_IDS

beforeAll(async () => {
  ;[platformWide, own] = await Promise.all([startScriptedLlm(), startScriptedLlm()])
  tp = await startTestPlatform({ env: { OPENAI_BASE_URL: platformWide.openaiBaseUrl } })
}, 120_000)
afterAll(async () => {
  await Promise.all([platformWide?.close(), own?.close()])
  await tp?.close()
})

describe("a credential's own base URL", () => {
  it("sends the assistant's model calls to it, and can be removed again", async () => {
    const t = await tp.createTenant()
    own.reset([{ text: 'From your own server.' }])
    const made = await tp.json('/api/credentials', {
      token: t.token,
      body: {
        provider_id: PROVIDERS.openai,
        name: 'self-hosted',
        environment: 'production',
        credential: own.key,
        base_url: `${own.openaiBaseUrl}/`,
      },
    })
    expect([made.status, made.body.base_url]).toEqual([201, own.openaiBaseUrl])
    const conversation = await tp.json('/v1/assistant/conversations', { token: t.token, body: {} })
    const said = await tp.json(`/v1/assistant/conversations/${conversation.body.id}/messages`, {
      token: t.token,
      body: { content: 'Hello' },
    })
    expect([said.status, said.body.message?.content], JSON.stringify(said.body)).toEqual([
      200,
      'From your own server.',
    ])
    expect([own.requests.length, platformWide.requests.length]).toEqual([1, 0])

    const cleared = await tp.json(`/api/credentials/${made.body.id}`, {
      token: t.token,
      method: 'PATCH',
      body: { base_url: null },
    })
    expect([cleared.status, cleared.body.base_url]).toEqual([200, null])
    platformWide.reset([{ text: 'From the platform-wide URL.' }])
    const again = await tp.json(`/v1/assistant/conversations/${conversation.body.id}/messages`, {
      token: t.token,
      body: { content: 'Hello again' },
    })
    expect(again.body.message?.content).toBe('From the platform-wide URL.')
    expect([own.requests.length, platformWide.requests.length]).toEqual([1, 1])
  })

  it("titles the conversation and generates articles through it too (every model call, not only the turn's)", async () => {
    const t = await tp.createTenant()
    own.reset([{ text: 'An answer from your own server.' }])
    own.titleReply = { text: 'Titled by your own server', usage: { input: 30, output: 4 } }
    const platformCalls = platformWide.requests.length + platformWide.titleRequests.length
    const made = await tp.json('/api/credentials', {
      token: t.token,
      body: {
        provider_id: PROVIDERS.openai,
        name: 'self-hosted',
        environment: 'production',
        credential: own.key,
        base_url: own.openaiBaseUrl,
      },
    })
    expect(made.status).toBe(201)
    // No title given: the first exchange's model call names the conversation.
    const conversation = await tp.json('/v1/assistant/conversations', { token: t.token, body: {} })
    const said = await tp.json(`/v1/assistant/conversations/${conversation.body.id}/messages`, {
      token: t.token,
      body: { content: 'What should we write about this week?' },
    })
    expect(said.status).toBe(200)
    await expect
      .poll(
        async () =>
          (await tp.json(`/v1/assistant/conversations/${conversation.body.id}`, { token: t.token })).body
            .title,
        { timeout: 20_000, interval: 50 },
      )
      .toBe('Titled by your own server')
    expect(own.titleRequests.length).toBeGreaterThanOrEqual(1)

    // The article generator (a job) calls the model through the same credential's endpoint.
    const [site] = await tp.db.sql<{ id: string }[]>`
      insert into public.sites (tenant_id, name) values (${t.tenantId}, 'News') returning id`
    const [source] = await tp.db.sql<{ id: string }[]>`
      insert into public.sources (tenant_id, site_id, name, kind, config)
      values (${t.tenantId}, ${site!.id}, 'Feed', 'feed', '{"url":"https://example.com/feed.xml"}') returning id`
    const items = await tp.db.sql<{ id: string }[]>`
      insert into public.source_items (tenant_id, source_id, external_id, url, title, text)
      values (${t.tenantId}, ${source!.id}, 'item-1', 'https://example.com/p/1', 'Post 1', 'The body of post 1')
      returning id`
    own.reset([{ text: '# From your own server\n\nThe article body.' }])
    const generated = await tp.json('/functions/v1/generate-article', {
      headers: { apikey: tp.anonKey, authorization: `Bearer ${t.token}` },
      body: { site_id: site!.id, item_ids: [items[0]!.id], model: 'gpt-test' },
    })
    expect(generated.status, JSON.stringify(generated.body)).toBe(202)
    let job: Record<string, any> = {}
    await expect
      .poll(
        async () => {
          job = (await tp.json(`/api/jobs/${generated.body.job_id}`, { token: t.token })).body
          return job.status
        },
        { timeout: 20_000, interval: 50 },
      )
      .toMatch(/succeeded|failed/)
    expect([job.status, job.error ?? null, job.result?.title]).toEqual([
      'succeeded',
      null,
      'From your own server',
    ])
    expect(own.requests.at(-1)!.body.stream ?? false).toBe(false)
    expect(platformWide.requests.length + platformWide.titleRequests.length).toBe(platformCalls)
  })

  it('refuses private and link-local targets, other schemes, and providers that are not OpenAI-compatible', async () => {
    const t = await tp.createTenant()
    const create = (provider: keyof typeof PROVIDERS, base_url: string) =>
      tp.json('/api/credentials', {
        token: t.token,
        body: {
          provider_id: PROVIDERS[provider],
          name: `key ${crypto.randomUUID()}`,
          environment: 'production',
          credential: 'sk-0123456789abcdef',
          base_url,
        },
      })
    for (const url of ['http://10.1.2.3/v1', 'http://169.254.169.254/latest', 'ftp://example.com/v1']) {
      const res = await create('openai', url)
      expect([res.status, res.body.code], url).toEqual([400, 'VALIDATION_ERROR'])
      expect(JSON.stringify(res.body), url).toContain('base_url')
    }
    const anthropic = await create('anthropic', 'https://example.com/v1')
    expect([anthropic.status, anthropic.body.details?.[0]?.field]).toEqual([400, 'base_url'])
    // A public address literal: no name to resolve here.
    const plain = await create('openai', 'https://1.1.1.1/v1')
    expect(plain.status).toBe(201)
    const patched = await tp.json(`/api/credentials/${plain.body.id}`, {
      token: t.token,
      method: 'PATCH',
      body: { base_url: 'http://192.168.1.10/v1' },
    })
    expect([patched.status, patched.body.code]).toEqual([400, 'VALIDATION_ERROR'])
    const listed = await tp.json('/api/credentials', { token: t.token })
    expect(listed.body.data.map((c: { base_url: string | null }) => c.base_url)).toEqual([
      'https://1.1.1.1/v1',
    ])
  })
})
