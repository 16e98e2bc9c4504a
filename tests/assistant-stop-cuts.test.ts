import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CANCEL_POLL_MS } from '../shared/services/assistant/turn/limits.ts'
import { periodOf, productIds } from '../shared/services/usage/metering.ts'
import type { ScriptedLlm } from './support/assistant-llm.ts'
import {
  type AssistantPlatform,
  addModelCredential,
  newConversation,
  startAssistantPlatform,
} from './support/assistant-platform.ts'
import type { TestPlatform } from './support/platform.ts'

/**
 * Stop cuts the model call under way, on whichever instance runs it: the turn reads its Stop mark
 * while the answer streams (every CANCEL_POLL_MS, through the database both instances share) and
 * aborts the provider's stream; the text already shown is the answer, the rest never comes, and
 * the tokens are metered once. Two instances; run with DATABASE_URL for PostgreSQL.
 */

let tp: TestPlatform
let llm: ScriptedLlm
let peers: AssistantPlatform | undefined
let release!: () => void
const resume = new Promise<void>((r) => (release = r))

beforeAll(async () => {
  peers = await startAssistantPlatform({ instances: 2 })
  ;({ tp, llm } = peers)
}, 120_000)
afterAll(async () => {
  release()
  await peers?.close()
})

describe('Stop', () => {
  it('cuts the streaming answer on the other instance and keeps what was shown, metered once', async () => {
    const t = await tp.createTenant()
    await addModelCredential(tp, llm, t)
    const base = `/v1/assistant/conversations/${await newConversation(tp, t, { title: 'Stop me' })}`
    // The role chunk, then "Alpha " and "beta "; the rest waits until the test ends.
    llm.reset([{ text: 'Alpha beta gamma delta epsilon', pauseAfterChunks: 3, resume }])
    const paused = llm.paused()
    const running = tp.json(`${base}/messages`, {
      token: t.token,
      body: { content: 'Write on' },
      instance: 0,
    })
    await paused
    const turnId = (await tp.json(base, { token: t.token })).body.turns.at(-1).id

    const stopAt = Date.now()
    const cancel = await tp.json(`${base}/turns/${turnId}/cancel`, { token: t.token, body: {}, instance: 1 })
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(202)
    const ended = await running
    const tookMs = Date.now() - stopAt
    expect(ended.status, JSON.stringify(ended.body)).toBe(200)
    expect(ended.body.turn.status).toBe('cancelled')
    // What was shown stays; the answer did not stream on.
    expect(ended.body.message.content).toBe('Alpha beta ')
    expect(llm.cutByClient).toBe(1)
    // The written bound: one poll interval and the reads and writes that follow, with room for a loaded machine.
    expect(tookMs).toBeLessThan(CANCEL_POLL_MS + 10_000)

    const detail = await tp.json(base, { token: t.token })
    expect(detail.body.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'Alpha beta ' })
    // Metered once: the month's counter is the turn's usage (an estimate: a cut stream reports none).
    const usage = ended.body.usage as { input_tokens: number; output_tokens: number }
    expect(usage.output_tokens, JSON.stringify(ended.body)).toBeGreaterThan(0)
    const [row] = await tp.db.sql<{ units: string }[]>`
      select units from public.usage_counters
      where tenant_id = ${t.tenantId} and product_id = ${productIds.assistant} and period = ${periodOf(new Date())}`
    expect(Number(row?.units)).toBe(usage.input_tokens + usage.output_tokens)
  })
})
