/**
 * The assistant (functions/assistant), against the scripted OpenAI-compatible provider on loopback.
 * 1. Time to the first streamed token: POST .../messages with Accept: text/event-stream until the
 *    first `text.delta`, and with ?stream=ai-sdk until the first `text-delta` chunk, vs the same
 *    model call made directly (streaming from the scripted server, until its first content chunk).
 *    Goal: each format adds <= 20 ms at p50.
 * 2. A turn with one tool call (model call, platform:list_content, model call) over HTTP (JSON),
 *    vs the same calls made directly (two SDK streaming calls and callTool). Goal: <= 1.25x at p50.
 * Each platform turn gets a conversation of its own (no history growth, no 409). Alternating
 * rounds, so drift falls on both alike.
 */
import { actingCallerFor } from '@shared/infra/caller.ts'
import { serviceContextFor } from '@shared/infra/deps.ts'
import { streamModel } from '@shared/services/assistant/model.ts'
import { callTool } from '@shared/services/tools/tool-set.ts'
import { startScriptedLlm } from '@tests/support/assistant-llm.ts'
import { startTestPlatform } from '@tests/support/platform.ts'
import { latencyStats } from '../lib.ts'

const SAMPLES = 60
const ROUNDS = 4

export default async function assistantBenchmark(): Promise<void> {
  const llm = await startScriptedLlm()
  const tp = await startTestPlatform({
    env: { OPENAI_BASE_URL: llm.openaiBaseUrl, ANTHROPIC_BASE_URL: llm.anthropicBaseUrl },
  })
  try {
    const t = await tp.createTenant()
    await tp.db.sql`update public.tenants set plan = 'enterprise' where id = ${t.tenantId}`
    await tp.db
      .sql`insert into public.sites (tenant_id, name) select ${t.tenantId}, 'Site ' || g from generate_series(1, 20) g`
    const [provider] = await tp.db.sql<
      { id: string }[]
    >`select id from public.providers where slug = 'openai'`
    await tp.json('/api/credentials', {
      token: t.token,
      body: { provider_id: provider!.id, name: 'openai', environment: 'production', credential: llm.key },
    })
    const deps = tp.instances[0]!.platform.deps
    const ctx = serviceContextFor(deps, await actingCallerFor(deps.sql, t.tenantId, t.userId))
    const conversation = async () =>
      (await tp.json('/v1/assistant/conversations', { token: t.token, body: {} })).body.id as string
    const direct = (onText: (s: string) => void = () => {}) =>
      streamModel({
        provider: 'openai',
        baseUrl: llm.openaiBaseUrl,
        apiKey: llm.key,
        model: 'gpt-4o-mini',
        system: 'You are a benchmark.',
        history: [{ role: 'user', content: 'Hello' }],
        tools: [],
        maxOutputTokens: 200,
        timeoutMs: 30_000,
        fetch: deps.fetch,
        onText,
      })

    // 1. First token.
    const answer = 'The first words arrive one by one, as a streaming model sends them.'
    const firstViaPlatform = async (format: 'sse' | 'ai-sdk') => {
      const id = await conversation()
      const started = performance.now()
      const res = await tp.request(
        `/v1/assistant/conversations/${id}/messages${format === 'ai-sdk' ? '?stream=ai-sdk' : ''}`,
        { token: t.token, body: { content: 'Hello' }, headers: { accept: 'text/event-stream' } },
      )
      const marker = format === 'ai-sdk' ? '"type":"text-delta"' : 'event: text.delta'
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader()
      let seen = ''
      let first = 0
      for (;;) {
        const { value, done } = await reader.read()
        if (done) break
        seen += value
        if (!first && seen.includes(marker)) first = performance.now() - started
      }
      return first
    }
    const firstDirect = async () => {
      const started = performance.now()
      let first = 0
      await direct(() => {
        if (!first) first = performance.now() - started
      })
      return first
    }
    llm.reset([{ text: answer }])
    const samplers = {
      sse: () => firstViaPlatform('sse'),
      aiSdk: () => firstViaPlatform('ai-sdk'),
      direct: firstDirect,
    }
    const firsts = { sse: [] as number[], aiSdk: [] as number[], direct: [] as number[] }
    for (const sample of Object.values(samplers)) for (let i = 0; i < 10; i++) await sample()
    const names = Object.keys(samplers) as (keyof typeof samplers)[]
    for (let round = 0; round < ROUNDS; round++) {
      // A different order each round, so drift falls on all alike.
      const order = names.map((_, i) => names[(i + round) % names.length]!)
      for (const name of order)
        for (let i = 0; i < SAMPLES / ROUNDS; i++) firsts[name].push(await samplers[name]())
    }
    const b = latencyStats(firsts.direct)
    console.log('\nTime to the first streamed token (ms)')
    console.log(`  the provider directly (SDK)  p50 ${b.p50ms.toFixed(2)}   p99 ${b.p99ms.toFixed(2)}`)
    for (const [name, label] of [
      ['sse', 'our SSE'],
      ['aiSdk', 'AI SDK format'],
    ] as const) {
      const p = latencyStats(firsts[name])
      console.log(
        `  through the platform, ${label.padEnd(13)} p50 ${p.p50ms.toFixed(2)}   p99 ${p.p99ms.toFixed(2)}   added p50 ${(p.p50ms - b.p50ms).toFixed(2)} ms   p99 ${(p.p99ms - b.p99ms).toFixed(2)} ms   (goal: <= 20 ms at p50)`,
      )
    }

    // 2. A turn with one tool call.
    const script = () =>
      llm.reset([
        { toolCalls: [{ name: 'platform__list_content', arguments: { limit: 20 } }] },
        { text: 'Twenty sites.' },
      ])
    const turnViaPlatform = async () => {
      const id = await conversation()
      script()
      const started = performance.now()
      const res = await tp.json(`/v1/assistant/conversations/${id}/messages`, {
        token: t.token,
        body: { content: 'List' },
      })
      if (res.body.turn.status !== 'completed') throw new Error(`turn ${res.body.turn.status}`)
      return performance.now() - started
    }
    const turnDirect = async () => {
      script()
      const started = performance.now()
      await direct()
      await callTool(
        ctx,
        'platform:list_content',
        { limit: 20 },
        { scopes: ['content:read'], triggeredBy: 'assistant' },
      )
      await direct()
      return performance.now() - started
    }
    for (let i = 0; i < 5; i++) await turnViaPlatform()
    for (let i = 0; i < 5; i++) await turnDirect()
    const turns: number[] = []
    const calls: number[] = []
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? [turns, calls] : [calls, turns]
      for (const samples of order)
        for (let i = 0; i < SAMPLES / ROUNDS; i++)
          samples.push(samples === turns ? await turnViaPlatform() : await turnDirect())
    }
    const tt = latencyStats(turns)
    const dc = latencyStats(calls)
    console.log('\nA turn with one tool call (ms)')
    console.log(
      `  through the platform (JSON)          p50 ${tt.p50ms.toFixed(2)}   p99 ${tt.p99ms.toFixed(2)}`,
    )
    console.log(
      `  the same calls directly              p50 ${dc.p50ms.toFixed(2)}   p99 ${dc.p99ms.toFixed(2)}`,
    )
    console.log(
      `  ratio                                p50 ${(tt.p50ms / dc.p50ms).toFixed(2)}x   p99 ${(tt.p99ms / dc.p99ms).toFixed(2)}x   (goal: <= 1.25x at p50)`,
    )
  } finally {
    await tp.close()
    await llm.close()
  }
}
