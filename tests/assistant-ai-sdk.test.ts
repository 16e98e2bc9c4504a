import type { ChatInit, ChatState, ChatStatus, UIMessage } from 'ai'
import * as ai6 from 'ai'
import * as ai7 from 'ai7'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { ScriptedLlm } from './support/assistant-llm.ts'
import {
  type AssistantPlatform,
  addModelCredential,
  newConversation,
  seedSlackConnection,
  startAssistantPlatform,
} from './support/assistant-platform.ts'
import type { TestPlatform, TestTenant } from './support/platform.ts'
import type { ProviderServer } from './support/provider-apis.ts'
import { waitFor } from './support/webhook-receiver.ts'

/**
 * A turn in the Vercel AI SDK's UI message stream protocol, read by the SDK's own chat: the
 * `AbstractChat` that `useChat` (@ai-sdk/react) and the other frameworks' chats are thin wrappers
 * of, over `DefaultChatTransport` set up as docs/assistant.md's example sets it up. The same tests
 * run with `ai` 6 and `ai` 7 (the devDependency `ai7`): a tool call, an approval that resumes the
 * turn, a denial, and a reload that re-attaches to a running turn on the other instance.
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

/** What a framework's chat keeps: here plain arrays (useChat keeps them in React state). */
class ArrayState implements ChatState<UIMessage> {
  status: ChatStatus = 'ready'
  error: Error | undefined = undefined
  constructor(public messages: UIMessage[]) {}
  pushMessage = (m: UIMessage) => {
    this.messages = [...this.messages, m]
  }
  popMessage = () => {
    this.messages = this.messages.slice(0, -1)
  }
  replaceMessage = (i: number, m: UIMessage) => {
    this.messages = [...this.messages.slice(0, i), this.snapshot(m), ...this.messages.slice(i + 1)]
  }
  snapshot = <T>(thing: T): T => structuredClone(thing)
}

/** A tool part as the chat shows it. */
type ToolPart = { type: string; state: string; toolName?: string; input?: unknown; approval?: { id: string } }

// The two majors' types differ in details these tests do not use; each runs its own code.
const sdks = [
  { name: 'ai 6', sdk: ai6 },
  { name: 'ai 7', sdk: ai7 as unknown as typeof ai6 },
]

describe.each(sdks)('the AI SDK chat ($name)', ({ sdk }) => {
  class Chat extends sdk.AbstractChat<UIMessage> {
    constructor(init: ChatInit<UIMessage>) {
      super({ ...init, state: new ArrayState(init.messages ?? []) })
    }
    get last() {
      return this.state.messages.at(-1)!
    }
  }

  /** docs/assistant.md's transport: new messages to …/messages, answered approvals to …/approvals/{id}. */
  function transportFor(t: TestTenant, conversationId: string, instance = 0, turnId?: string) {
    const base = `${tp.instances[instance]!.baseUrl}/v1/assistant/conversations/${conversationId}`
    return new sdk.DefaultChatTransport<UIMessage>({
      api: `${base}/messages?stream=ai-sdk`,
      headers: { authorization: `Bearer ${t.token}` },
      prepareSendMessagesRequest: ({ messages }) => {
        const last = messages.at(-1)!
        const answered = last.parts.find((p) => 'approval' in p && p.state === 'approval-responded') as
          | { approval: { id: string; approved: boolean; reason?: string } }
          | undefined
        if (last.role === 'assistant' && answered)
          return {
            api: `${base}/approvals/${answered.approval.id}?stream=ai-sdk`,
            body: { approve: answered.approval.approved, reason: answered.approval.reason },
          }
        const text = last.parts.map((p) => (p.type === 'text' ? p.text : '')).join('')
        return { body: { content: text } }
      },
      // A reload re-attaches to the running turn: its stream from the first event (a replay).
      prepareReconnectToStreamRequest: () => ({ api: `${base}/turns/${turnId}/stream?stream=ai-sdk` }),
    })
  }

  const chatFor = (
    t: TestTenant,
    id: string,
    opts: { instance?: number; turnId?: string; messages?: UIMessage[] } = {},
  ) =>
    new Chat({
      id,
      messages: opts.messages,
      transport: transportFor(t, id, opts.instance, opts.turnId),
      sendAutomaticallyWhen: sdk.lastAssistantMessageIsCompleteWithApprovalResponses,
    })

  const settled = (chat: Chat, what: string) =>
    waitFor(() => chat.status === 'ready' || chat.status === 'error', 30_000, what)

  const withoutSteps = (m: UIMessage) => m.parts.filter((p) => p.type !== 'step-start') as ToolPart[]

  it('shows a turn with a tool call as the assistant message, whose id is the turn', async () => {
    const t = await tenantWithModel()
    const id = await newConversation(tp, t)
    llm.reset([
      { toolCalls: [{ name: 'platform__list_content', arguments: {} }] },
      { text: 'There are no articles yet.' },
    ])
    // The protocol's header and end, as the SDK's server helpers write them.
    const raw = await tp.request(`/v1/assistant/conversations/${id}/messages?stream=ai-sdk`, {
      token: t.token,
      body: { content: 'List my articles' },
    })
    expect(raw.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1')
    expect((await raw.text()).trimEnd().endsWith('data: [DONE]')).toBe(true)

    llm.reset([
      { toolCalls: [{ name: 'platform__list_content', arguments: {} }] },
      { text: 'There are no articles yet.' },
    ])
    const chat = chatFor(t, id, { instance: 1 })
    await chat.sendMessage({ text: 'List my articles again' })
    expect([chat.status, chat.error]).toEqual(['ready', undefined])
    expect(chat.messages.map((m) => m.role)).toEqual(['user', 'assistant'])
    const [tool, answer] = withoutSteps(chat.last)
    expect(tool).toMatchObject({
      type: 'dynamic-tool',
      toolName: 'platform:list_content',
      state: 'output-available',
      input: {},
    })
    expect((tool as { output?: unknown }).output).toBeTypeOf('object')
    expect(answer).toMatchObject({ type: 'text', text: 'There are no articles yet.', state: 'done' })
    const detail = await tp.json(`/v1/assistant/conversations/${id}`, { token: t.token })
    expect(chat.last.id).toBe(detail.body.turns.at(-1).id)
  })

  it('asks for approval, and an approval sends itself and resumes the turn', async () => {
    const t = await tenantWithModel()
    await seedSlackConnection(tp, slack, t, {
      expiresAt: new Date(Date.now() + 86_400_000),
      requiresApproval: true,
    })
    const id = await newConversation(tp, t)
    llm.reset([
      { toolCalls: [{ name: 'slack__post_message', arguments: { channel: 'C012AB3CD', text: 'Ship it' } }] },
      { text: 'Posted.' },
    ])
    const posts = () => slack.received.filter((r) => r.path === '/api/chat.postMessage').length
    const before = posts()
    const chat = chatFor(t, id)
    await chat.sendMessage({ text: 'Post "Ship it" to #general' })
    const waiting = chat.last.parts.find((p) => p.type === 'dynamic-tool') as ToolPart
    expect(waiting).toMatchObject({
      toolName: 'slack:post_message',
      state: 'approval-requested',
      input: { channel: 'C012AB3CD', text: 'Ship it' },
    })
    expect(posts()).toBe(before)

    await chat.addToolApprovalResponse({ id: waiting.approval!.id, approved: true })
    await waitFor(() => withoutSteps(chat.last).at(-1)?.type === 'text', 30_000, 'the resumed answer')
    await settled(chat, 'the resumed turn')
    expect(chat.messages.map((m) => m.role)).toEqual(['user', 'assistant'])
    const parts = withoutSteps(chat.last)
    expect(parts[0]).toMatchObject({ type: 'dynamic-tool', state: 'output-available' })
    expect(parts.at(-1)).toMatchObject({ type: 'text', text: 'Posted.' })
    expect(posts()).toBe(before + 1)
  })

  it('shows a denied call as denied, and the call never runs', async () => {
    const t = await tenantWithModel()
    await seedSlackConnection(tp, slack, t, {
      expiresAt: new Date(Date.now() + 86_400_000),
      requiresApproval: true,
    })
    const id = await newConversation(tp, t)
    llm.reset([
      { toolCalls: [{ name: 'slack__post_message', arguments: { channel: 'C012AB3CD', text: 'No' } }] },
      { text: 'Not posted.' },
    ])
    const posts = slack.received.filter((r) => r.path === '/api/chat.postMessage').length
    const chat = chatFor(t, id)
    await chat.sendMessage({ text: 'Post "No"' })
    const waiting = chat.last.parts.find((p) => p.type === 'dynamic-tool') as ToolPart
    await chat.addToolApprovalResponse({ id: waiting.approval!.id, approved: false, reason: 'not today' })
    await waitFor(
      () => (chat.last.parts.find((p) => p.type === 'dynamic-tool') as ToolPart).state === 'output-denied',
      30_000,
      'the denial',
    )
    await settled(chat, 'the denied turn')
    expect(slack.received.filter((r) => r.path === '/api/chat.postMessage').length).toBe(posts)
  })

  it('re-attaches after a reload on the other instance: the whole answer, nothing twice', async () => {
    const t = await tenantWithModel()
    const id = await newConversation(tp, t)
    let release!: () => void
    const hold = new Promise<void>((resolve) => {
      release = resolve
    })
    llm.reset([
      { toolCalls: [{ name: 'platform__list_content', arguments: {} }] },
      { text: 'You have no articles yet.', hold },
    ])
    const asked = llm.requests.length
    const first = chatFor(t, id)
    const sending = first.sendMessage({ text: 'What can I post?' })
    // The tool call has run and the model's answer is held: the page goes away.
    await llm.waitForRequests(asked + 2)
    await waitFor(() => first.last.role === 'assistant', 30_000, 'the first chunks')
    await first.stop()
    await sending
    const turnId = (await tp.json(`/v1/assistant/conversations/${id}`, { token: t.token })).body.turns.at(
      -1,
    ).id

    // The reloaded page knows the user's message and the running turn's id.
    const user = first.messages[0]!
    const reloaded = chatFor(t, id, { instance: 1, turnId, messages: [user] })
    const resuming = reloaded.resumeStream()
    await waitFor(() => reloaded.last.role === 'assistant', 30_000, 'the replayed chunks')
    release()
    await resuming
    await settled(reloaded, 'the resumed stream')
    expect([reloaded.status, reloaded.error]).toEqual(['ready', undefined])
    expect(reloaded.messages.map((m) => [m.role, m.id])).toEqual([
      ['user', user.id],
      ['assistant', turnId],
    ])
    const parts = withoutSteps(reloaded.last)
    expect(parts.map((p) => p.type)).toEqual(['dynamic-tool', 'text'])
    expect(parts[1]).toMatchObject({ text: 'You have no articles yet.', state: 'done' })
  })
})
