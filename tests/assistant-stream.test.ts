import { actingCallerFor } from '@shared/infra/caller.ts'
import { serviceContextFor } from '@shared/infra/deps.ts'
import { FOLLOW_MS } from '@shared/services/assistant/turn/event-log.ts'
import { answerTurn } from '@shared/services/assistant/turn/index.ts'
import { DefaultChatTransport, readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai'
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
 * re-attaches to on the other instance (nothing lost, nothing twice), and the same turn in the
 * Vercel AI SDK's UI message stream protocol, read by the `ai` package's own client code.
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

/** A tool part that asked for approval, answered as useChat's addToolApprovalResponse does. */
type WaitingPart = { state: string; approval: { id: string; approved?: boolean; reason?: string } }

/** What a tenant's app writes (docs/assistant.md): the AI SDK's transport pointed at the assistant API. */
function transportFor(t: TestTenant, conversationId: string, instance = 0) {
  const api = `${tp.instances[instance]!.baseUrl}/v1/assistant/conversations/${conversationId}`
  return new DefaultChatTransport<UIMessage>({
    api: `${api}/messages?stream=ai-sdk`,
    headers: { authorization: `Bearer ${t.token}` },
    prepareSendMessagesRequest: ({ messages }) => {
      const last = messages.at(-1)!
      // An answered approval goes to the approvals route; a new message to the messages route.
      const answered = last.parts.find(
        (p) => 'approval' in p && p.state === 'approval-responded' && p.approval?.approved !== undefined,
      ) as { approval: { id: string; approved: boolean; reason?: string } } | undefined
      if (last.role === 'assistant' && answered)
        return {
          api: `${api}/approvals/${answered.approval.id}?stream=ai-sdk`,
          body: { approve: answered.approval.approved, reason: answered.approval.reason },
        }
      const text = last.parts.map((p) => (p.type === 'text' ? p.text : '')).join('')
      return { body: { content: text } }
    },
  })
}

async function finalMessage(stream: ReadableStream<UIMessageChunk>, message?: UIMessage): Promise<UIMessage> {
  let last: UIMessage | undefined
  for await (const m of readUIMessageStream<UIMessage>({ stream, message, terminateOnError: true })) last = m
  return last!
}

const userMessage = (text: string): UIMessage => ({
  id: crypto.randomUUID(),
  role: 'user',
  parts: [{ type: 'text', text }],
})

describe('the AI SDK UI message stream', () => {
  it('carries a turn with a tool call, read by the ai package', async () => {
    const t = await tenantWithModel()
    const id = await conversation(t)
    llm.reset([
      { toolCalls: [{ name: 'platform__list_content', arguments: {} }] },
      { text: 'There are no articles yet.' },
    ])
    const raw = await tp.request(`/v1/assistant/conversations/${id}/messages?stream=ai-sdk`, {
      token: t.token,
      body: { content: 'List my articles' },
    })
    expect(raw.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1')
    const text = await raw.text()
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true)

    llm.reset([
      { toolCalls: [{ name: 'platform__list_content', arguments: {} }] },
      { text: 'There are no articles yet.' },
    ])
    const chunks = await transportFor(t, id, 1).sendMessages({
      chatId: id,
      messages: [userMessage('List my articles again')],
      trigger: 'submit-message',
      messageId: undefined,
      abortSignal: undefined,
    })
    const message = await finalMessage(chunks)
    expect(message.role).toBe('assistant')
    const [tool, answer] = message.parts.filter((p) => p.type !== 'step-start')
    expect(tool).toMatchObject({
      type: 'dynamic-tool',
      toolName: 'platform:list_content',
      state: 'output-available',
      input: {},
    })
    expect((tool as { output: unknown }).output).toBeTypeOf('object')
    expect(answer).toMatchObject({ type: 'text', text: 'There are no articles yet.', state: 'done' })
    // The message is the turn: its id is the turn's.
    const detail = await tp.json(`/v1/assistant/conversations/${id}`, { token: t.token })
    expect(message.id).toBe(detail.body.turns.at(-1).id)
  })

  it('asks for approval as the protocol does, and the answer resumes the turn', async () => {
    const t = await tenantWithModel()
    await slackNeedingApproval(t)
    const id = await conversation(t)
    llm.reset([
      { toolCalls: [{ name: 'slack__post_message', arguments: { channel: 'C012AB3CD', text: 'Ship it' } }] },
      { text: 'Posted.' },
    ])
    const transport = transportFor(t, id)
    const asked = await finalMessage(
      await transport.sendMessages({
        chatId: id,
        messages: [userMessage('Post "Ship it" to #general')],
        trigger: 'submit-message',
        messageId: undefined,
        abortSignal: undefined,
      }),
    )
    const waiting = asked.parts.find((p) => p.type === 'dynamic-tool') as WaitingPart
    expect(waiting).toMatchObject({
      toolName: 'slack:post_message',
      state: 'approval-requested',
      input: { channel: 'C012AB3CD', text: 'Ship it' },
    })
    const posts = slack.received.filter((r) => r.path === '/api/chat.postMessage').length

    // What useChat's addToolApprovalResponse records, then sends (sendAutomaticallyWhen).
    waiting.state = 'approval-responded'
    waiting.approval = { id: waiting.approval.id, approved: true }
    const resumed = await finalMessage(
      await transport.sendMessages({
        chatId: id,
        messages: [userMessage('Post "Ship it" to #general'), asked],
        trigger: 'submit-message',
        messageId: asked.id,
        abortSignal: undefined,
      }),
      structuredClone(asked),
    )
    expect(resumed.id).toBe(asked.id)
    const parts = resumed.parts.filter((p) => p.type !== 'step-start')
    expect(parts[0]).toMatchObject({ type: 'dynamic-tool', state: 'output-available' })
    expect(parts.at(-1)).toMatchObject({ type: 'text', text: 'Posted.' })
    expect(slack.received.filter((r) => r.path === '/api/chat.postMessage').length).toBe(posts + 1)
  })

  it('says a denied call is denied', async () => {
    const t = await tenantWithModel()
    await slackNeedingApproval(t)
    const id = await conversation(t)
    llm.reset([
      { toolCalls: [{ name: 'slack__post_message', arguments: { channel: 'C012AB3CD', text: 'No' } }] },
      { text: 'Not posted.' },
    ])
    const transport = transportFor(t, id)
    const send = (messages: UIMessage[]) =>
      transport.sendMessages({
        chatId: id,
        messages,
        trigger: 'submit-message',
        messageId: undefined,
        abortSignal: undefined,
      })
    const asked = await finalMessage(await send([userMessage('Post "No"')]))
    const waiting = asked.parts.find((p) => p.type === 'dynamic-tool') as WaitingPart
    waiting.state = 'approval-responded'
    waiting.approval = { id: waiting.approval.id, approved: false, reason: 'not today' }
    const resumed = await finalMessage(await send([asked]), structuredClone(asked))
    expect(resumed.parts.find((p) => p.type === 'dynamic-tool')).toMatchObject({ state: 'output-denied' })
  })
})
