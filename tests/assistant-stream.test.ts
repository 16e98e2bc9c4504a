import { actingCallerFor } from '@shared/infra/caller.ts'
import { serviceContextFor } from '@shared/infra/deps.ts'
import { FOLLOW_MS } from '@shared/services/assistant/turn/event-log.ts'
import { answerTurn } from '@shared/services/assistant/turn/index.ts'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { ScriptedLlm } from './support/assistant-llm.ts'
import {
  type AssistantPlatform,
  addModelCredential,
  newConversation,
  seedSlackConnection,
  startAssistantPlatform,
} from './support/assistant-platform.ts'
import { addMember, type TestPlatform, type TestTenant } from './support/platform.ts'
import type { ProviderServer } from './support/provider-apis.ts'

/**
 * A turn's stream over real HTTP with two instances on one database: numbered events that a client
 * re-attaches to on the other instance (nothing lost, nothing twice). The same turn in the Vercel
 * AI SDK's UI message stream protocol, read by the SDK's own chat: tests/assistant-ai-sdk.test.ts.
 */

let tp: TestPlatform
let llm: ScriptedLlm
let slack: ProviderServer
let peers: AssistantPlatform | undefined

beforeAll(async () => {
  peers = await startAssistantPlatform({ instances: 2 })
  ;({ tp, llm, slack } = peers)
}, 120_000)
afterAll(() => peers?.close())
beforeEach(() => llm.reset([{ text: 'Done.' }]))

async function tenantWithModel(): Promise<TestTenant> {
  const t = await tp.createTenant()
  await addModelCredential(tp, llm, t)
  return t
}

const conversation = (t: TestTenant) => newConversation(tp, t)

const slackNeedingApproval = (t: TestTenant) =>
  seedSlackConnection(tp, slack, t, { expiresAt: new Date(Date.now() + 86_400_000), requiresApproval: true })

interface Sse {
  id: number | null
  event: string
  // biome-ignore lint/suspicious/noExplicitAny: event bodies are read field by field in assertions
  data: any
}

const parseBlock = (block: string): Sse => ({
  id: block.match(/^id: (\d+)$/m) ? Number(block.match(/^id: (\d+)$/m)![1]) : null,
  event: block.match(/^event: (.+)$/m)?.[1] ?? '',
  data: JSON.parse(block.match(/^data: (.+)$/m)?.[1] ?? 'null'),
})

/** Reads server-sent events off a response until `until` says stop (then drops the connection) or the stream ends. */
async function readEvents(res: Response, until?: (seen: Sse[]) => boolean): Promise<Sse[]> {
  const reader = res.body!.getReader()
  const decoder = new TextDecoder()
  const seen: Sse[] = []
  let buffer = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) return seen
    buffer += decoder.decode(value, { stream: true })
    let cut = buffer.indexOf('\n\n')
    while (cut >= 0) {
      seen.push(parseBlock(buffer.slice(0, cut)))
      buffer = buffer.slice(cut + 2)
      cut = buffer.indexOf('\n\n')
      if (until?.(seen)) {
        await reader.cancel()
        return seen
      }
    }
  }
}

const streamPath = (id: string, turnId: string) => `/v1/assistant/conversations/${id}/turns/${turnId}/stream`

describe('resuming a stream', () => {
  it('re-attaches on the other instance after a dropped connection: nothing lost, nothing twice', async () => {
    const t = await tenantWithModel()
    const id = await conversation(t)
    let release!: () => void
    const hold = new Promise<void>((resolve) => (release = resolve))
    llm.reset([
      { toolCalls: [{ name: 'platform__list_content', arguments: {} }] },
      { text: 'You have no articles yet, so there is nothing to post.', hold },
    ])
    const first = await tp.request(`/v1/assistant/conversations/${id}/messages`, {
      token: t.token,
      body: { content: 'What can I post?' },
      headers: { accept: 'text/event-stream' },
    })
    expect(first.status).toBe(200)
    // The connection drops once the tool call has completed; the model's answer is still held.
    const before = await readEvents(first, (seen) => seen.some((e) => e.event === 'tool_call.completed'))
    expect(before.map((e) => e.event)).toEqual([
      'turn.started',
      'usage',
      'tool_call.started',
      'tool_call.completed',
    ])
    expect(before.map((e) => e.id)).toEqual([1, 2, 3, 4])
    const turnId = before[0]!.data.turn_id

    const resumed = await tp.request(streamPath(id, turnId), {
      token: t.token,
      headers: { 'last-event-id': '4' },
      instance: 1,
    })
    expect([resumed.status, resumed.headers.get('content-type')]).toEqual([200, 'text/event-stream'])
    release()
    const after = await readEvents(resumed)
    const all = [...before, ...after]
    // Numbered 1..n without a gap or a repeat, text included, ending with the turn's result.
    expect(all.map((e) => e.id)).toEqual(all.map((_, i) => i + 1))
    expect(after[0]!.event).toBe('text.delta')
    expect(
      after
        .filter((e) => e.event === 'text.delta')
        .map((e) => e.data.text)
        .join(''),
    ).toBe('You have no articles yet, so there is nothing to post.')
    expect(all.at(-1)).toMatchObject({ event: 'turn.ended', data: { turn: { status: 'completed' } } })

    // The finished turn's stream replays whole from either instance, and ends.
    const replay = await readEvents(await tp.request(streamPath(id, turnId), { token: t.token }))
    expect(replay).toEqual(all)
    // From the query parameter (clients without EventSource), on the other instance.
    const tail = await readEvents(
      await tp.request(`${streamPath(id, turnId)}?last_event_id=${all.length - 2}`, {
        token: t.token,
        instance: 1,
      }),
    )
    expect(tail).toEqual(all.slice(-2))
    // After the last event there is nothing more: the stream ends without repeating it.
    const done = await tp.request(streamPath(id, turnId), {
      token: t.token,
      headers: { 'last-event-id': String(all.length) },
    })
    expect(await done.text()).toBe('')
  })

  it('stops following a turn as soon as its reader goes away, while the turn runs on', async () => {
    const t = await tenantWithModel()
    const id = await conversation(t)
    let release!: () => void
    const hold = new Promise<void>((resolve) => (release = resolve))
    llm.reset([{ text: 'Held answer.', hold }])
    const asked = llm.requests.length
    const running = tp.json(`/v1/assistant/conversations/${id}/messages`, {
      token: t.token,
      body: { content: 'Hello' },
    })
    await llm.waitForRequests(asked + 1)
    const turnId = (await tp.json(`/v1/assistant/conversations/${id}`, { token: t.token })).body.turns.at(
      -1,
    ).id
    // A follower on the other instance, as the service gives it to a route.
    const deps = tp.instances[1]!.platform.deps
    const ctx = serviceContextFor(deps, await actingCallerFor(deps.sql, t.tenantId, t.userId))
    const follower = (await answerTurn(deps, ctx, { turnId, conversationId: id, after: 1 }))[
      Symbol.asyncIterator
    ]()
    // The held turn sends nothing more: the follower polls until its reader leaves.
    const next = follower.next()
    await follower.return?.()
    // Left alone it would poll on for FOLLOW_MS (2 minutes); the bound is that with room.
    const stopped = await Promise.race([
      next,
      new Promise((resolve) => setTimeout(() => resolve('still following'), FOLLOW_MS / 12)),
    ])
    expect(stopped).toEqual({ done: true, value: undefined })
    release()
    const ended = await running
    expect([ended.status, ended.body.turn?.status]).toEqual([200, 'completed'])
  })

  it('is 404 for another tenant and for a colleague, and 400 for an id that is not one', async () => {
    const t = await tenantWithModel()
    const member = await addMember(tp, t.tenantId, 'member')
    const colleague = await addMember(tp, t.tenantId, 'member')
    const other = await tenantWithModel()
    const res = await tp.json('/v1/assistant/conversations', { token: member.token, body: {} })
    const id = res.body.id
    const said = await tp.json(`/v1/assistant/conversations/${id}/messages`, {
      token: member.token,
      body: { content: 'Hello' },
    })
    expect(said.status).toBe(200)
    const turnId = said.body.turn.id
    for (const who of [other, colleague]) {
      const denied = await tp.json(streamPath(id, turnId), { token: who.token })
      expect([denied.status, denied.body.code]).toEqual([404, 'NOT_FOUND'])
    }
    const wrongConversation = await tp.json(streamPath(await conversation(t), turnId), { token: t.token })
    expect(wrongConversation.status).toBe(404)
    const bad = await tp.json(streamPath(id, turnId), {
      token: member.token,
      headers: { 'last-event-id': 'yesterday' },
    })
    expect([bad.status, bad.body.code]).toEqual([400, 'VALIDATION_ERROR'])
    // The member's own and an owner's replay: the stored turn, from its first event.
    const replay = await readEvents(await tp.request(streamPath(id, turnId), { token: t.token, instance: 1 }))
    expect(replay.map((e) => e.event)).toEqual(['turn.started', 'text.delta', 'usage', 'turn.ended'])
  })
})
