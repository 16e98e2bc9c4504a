import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { periodOf, productIds } from '../shared/services/usage/metering.ts'
import type { ScriptedLlm } from './support/assistant-llm.ts'
import {
  type AssistantPlatform,
  addModelCredential,
  newConversation,
  seedSlackConnection,
  slackPosts as slackPostsOf,
  startAssistantPlatform,
} from './support/assistant-platform.ts'
import { addMember, TestClock, type TestPlatform, type TestTenant } from './support/platform.ts'
import type { ProviderServer } from './support/provider-apis.ts'

/**
 * The assistant as a chat, over real HTTP with two instances on one database and the scripted
 * model provider: stop (on the instance that does not run the turn), regenerate and edit with
 * their alternatives, titles from the first exchange, rename, and full-text search under RLS.
 */

let tp: TestPlatform
let llm: ScriptedLlm
let slack: ProviderServer
let peers: AssistantPlatform | undefined
const clock = new TestClock(new Date('2026-11-21T12:00:05.000Z'))

beforeAll(async () => {
  peers = await startAssistantPlatform({ instances: 2, clock })
  ;({ tp, llm, slack } = peers)
}, 120_000)
afterAll(() => peers?.close())
beforeEach(() => {
  llm.reset([{ text: 'Done.' }])
  llm.titleReply = { text: 'Scripted title', usage: { input: 40, output: 3 } }
})

async function tenantWith(): Promise<TestTenant> {
  const t = await tp.createTenant()
  await addModelCredential(tp, llm, t)
  return t
}

const conversation = (t: TestTenant, title?: string) => newConversation(tp, t, { title })

const base = (id: string) => `/v1/assistant/conversations/${id}`
const say = (t: TestTenant, id: string, content: string, instance = 0) =>
  tp.json(`${base(id)}/messages`, { token: t.token, body: { content }, instance })
const detail = (t: TestTenant, id: string) => tp.json(base(id), { token: t.token })

async function used(t: TestTenant): Promise<number> {
  const [row] = await tp.db.sql<{ units: string }[]>`
    select units from public.usage_counters
    where tenant_id = ${t.tenantId} and product_id = ${productIds.assistant} and period = ${periodOf(clock.now())}`
  return Number(row?.units ?? 0)
}

const seedSlack = (t: TestTenant) =>
  seedSlackConnection(tp, slack, t, { expiresAt: new Date(clock.now().getTime() + 86_400_000) })
const slackPosts = () => slackPostsOf(slack)

/** Waits (by polling the API, a bounded number of times) until the conversation satisfies `ok`. */
async function until(t: TestTenant, id: string, ok: (body: any) => boolean) {
  for (let i = 0; i < 100; i++) {
    const res = await detail(t, id)
    if (ok(res.body)) return res.body
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error('the conversation never got there')
}

describe('stop', () => {
  it('cancels a turn on the instance that does not run it: the requested call never starts, the tokens are metered', async () => {
    const t = await tenantWith()
    await seedSlack(t)
    const id = await conversation(t, 'Stop me')
    let release!: () => void
    const hold = new Promise<void>((r) => (release = r))
    llm.reset([
      {
        text: 'Posting now.',
        toolCalls: [{ name: 'slack__post_message', arguments: { channel: 'C012AB3CD', text: 'Ship it' } }],
        usage: { input: 300, output: 40 },
        hold,
      },
      { text: 'Never asked.' },
    ])
    const requests = llm.requests.length
    const posts = slackPosts().length
    const running = say(t, id, 'Post "Ship it" to #general', 0)
    await llm.waitForRequests(requests + 1)
    const turnId = (await detail(t, id)).body.turns.at(-1).id

    const cancel = await tp.json(`${base(id)}/turns/${turnId}/cancel`, {
      token: t.token,
      body: {},
      instance: 1,
    })
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(202)
    expect(cancel.body.turn).toMatchObject({ id: turnId, status: 'running' })
    expect(cancel.body.turn.cancel_requested_at).not.toBeNull()
    release()

    const ended = await running
    expect(ended.status, JSON.stringify(ended.body)).toBe(200)
    expect(ended.body.turn.status).toBe('cancelled')
    // Either the turn's Stop poll cut the held call (nothing shown, no call asked for), or the answer
    // came first and the call it asked for was cancelled before it started: never posted either way.
    const cut = ended.body.message.content === ''
    expect(ended.body.tool_calls.map((c: any) => c.status)).toEqual(cut ? [] : ['cancelled'])
    if (!cut) {
      expect(ended.body.message.content).toBe('Posting now.')
      expect(ended.body.usage).toEqual({ input_tokens: 300, output_tokens: 40 })
    }
    expect(slackPosts().length).toBe(posts)
    expect(llm.requests.length).toBe(requests + 1)
    expect(await used(t)).toBe(ended.body.usage.input_tokens + ended.body.usage.output_tokens)

    const again = await tp.json(`${base(id)}/turns/${turnId}/cancel`, { token: t.token, body: {} })
    expect([again.status, again.body.code]).toEqual([409, 'CONFLICT'])
    // The conversation goes on after a cancelled turn.
    expect((await say(t, id, 'Never mind')).body.turn.status).toBe('completed')
  })

  it('cancels a turn that waits for approval at once', async () => {
    const t = await tenantWith()
    const connection = await seedSlack(t)
    const set = await tp.json(`/api/connections/${connection}/permissions`, {
      token: t.token,
      body: { tool_name: 'slack:post_message', allowed: true, requires_approval: true },
    })
    expect(set.status).toBe(201)
    const id = await conversation(t, 'Approval')
    llm.reset([
      { toolCalls: [{ name: 'slack__post_message', arguments: { channel: 'C012AB3CD', text: 'x' } }] },
    ])
    const waiting = await say(t, id, 'Post x')
    expect(waiting.body.turn.status).toBe('awaiting_approval')
    const cancel = await tp.json(`${base(id)}/turns/${waiting.body.turn.id}/cancel`, {
      token: t.token,
      body: {},
      instance: 1,
    })
    expect(cancel.status).toBe(202)
    expect(cancel.body.turn.status).toBe('cancelled')
    const after = await detail(t, id)
    expect(after.body.messages.at(-1).tool_calls[0].status).toBe('cancelled')
  })
})

describe('regenerate and edit', () => {
  it('keeps every earlier version as an alternative; the model sees only the newest', async () => {
    const t = await tenantWith()
    const id = await conversation(t, 'Versions')
    const none = await tp.json(`${base(id)}/regenerate`, { token: t.token, body: {} })
    expect([none.status, none.body.code]).toEqual([409, 'CONFLICT'])

    llm.reset([{ text: 'First answer' }])
    await say(t, id, 'Hello')
    llm.reset([{ text: 'Second answer' }])
    const again = await tp.json(`${base(id)}/regenerate`, { token: t.token, body: {}, instance: 1 })
    expect(again.status, JSON.stringify(again.body)).toBe(200)
    expect(again.body.message.content).toBe('Second answer')
    const sent = JSON.stringify(llm.requests.at(-1)!.body.messages)
    expect(sent).toContain('Hello')
    expect(sent).not.toContain('First answer')

    let d = (await detail(t, id)).body
    expect(d.messages.map((m: any) => m.content)).toEqual(['Hello', 'Second answer'])
    expect(d.alternatives).toHaveLength(1)
    expect(d.alternatives[0]).toMatchObject({ version: 1, exchange_id: d.turns[0].exchange_id })
    expect(d.alternatives[0].messages.map((m: any) => m.content)).toEqual(['Hello', 'First answer'])
    expect(d.turns.map((x: any) => [x.version, x.superseded])).toEqual([
      [1, true],
      [2, false],
    ])

    const hello = d.messages[0].id
    llm.reset([{ text: 'Third answer' }])
    const edited = await tp.json(`${base(id)}/messages/${hello}`, {
      method: 'PUT',
      token: t.token,
      body: { content: 'Hello again' },
    })
    expect(edited.status, JSON.stringify(edited.body)).toBe(200)
    expect(JSON.stringify(llm.requests.at(-1)!.body.messages)).not.toMatch(/"Hello"|Second answer/)
    d = (await detail(t, id)).body
    expect(d.messages.map((m: any) => m.content)).toEqual(['Hello again', 'Third answer'])
    expect(d.alternatives.map((a: any) => [a.version, a.messages.map((m: any) => m.content)])).toEqual([
      [1, ['Hello', 'First answer']],
      [2, ['Hello', 'Second answer']],
    ])
    expect(new Set(d.turns.map((x: any) => x.exchange_id)).size).toBe(1)

    // Only the last user message can be edited.
    const editedId = d.messages[0].id
    await say(t, id, 'Next question')
    const old = await tp.json(`${base(id)}/messages/${editedId}`, {
      method: 'PUT',
      token: t.token,
      body: { content: 'Rewrite history' },
    })
    expect([old.status, old.body.code]).toEqual([409, 'CONFLICT'])
    const unknown = await tp.json(`${base(id)}/messages/${crypto.randomUUID()}`, {
      method: 'PUT',
      token: t.token,
      body: { content: 'x' },
    })
    expect(unknown.status).toBe(404)
  })

  it('answers empty and oversized input with the error body', async () => {
    const t = await tenantWith()
    const id = await conversation(t)
    await say(t, id, 'Hi')
    const message = (await detail(t, id)).body.messages[0].id
    for (const body of [{ content: '' }, { content: '   ' }, {}, { content: 'x'.repeat(32_001) }]) {
      const res = await tp.json(`${base(id)}/messages/${message}`, { method: 'PUT', token: t.token, body })
      expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_ERROR'])
    }
    for (const body of [{ title: '' }, { title: 'x'.repeat(201) }, { title: 'a\u0000b' }]) {
      const res = await tp.json(base(id), { method: 'PATCH', token: t.token, body })
      expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_ERROR'])
    }
    const huge = await new Promise<{ status: number; body: any }>((resolve, reject) => {
      const req = httpRequest(`${tp.baseUrl}${base(id)}/messages/${message}`, {
        method: 'PUT',
        agent: false,
        headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' },
      })
      req.on('response', (r) => {
        let text = ''
        r.on('data', (d) => (text += d))
        r.on('end', () => resolve({ status: r.statusCode ?? 0, body: JSON.parse(text) }))
      })
      req.on('error', reject)
      req.end(JSON.stringify({ content: 'x'.repeat(1024 * 1024) }))
    })
    expect([huge.status, huge.body.code]).toEqual([413, 'PAYLOAD_TOO_LARGE'])
  })
})

describe('isolation', () => {
  it('another tenant and another member get 404 for stop, regenerate, edit, rename and delete', async () => {
    const owner = await tenantWith()
    const member = await addMember(tp, owner.tenantId, 'member')
    const colleague = await addMember(tp, owner.tenantId, 'member')
    const stranger = await tenantWith()
    const res = await tp.json('/v1/assistant/conversations', { token: member.token, body: {} })
    const id = res.body.id
    const answered = await say(member, id, 'Mine')
    const turnId = answered.body.turn.id
    const messageId = (await detail(member, id)).body.messages[0].id
    for (const other of [stranger, colleague]) {
      const calls = [
        tp.json(`${base(id)}/turns/${turnId}/cancel`, { token: other.token, body: {} }),
        tp.json(`${base(id)}/regenerate`, { token: other.token, body: {} }),
        tp.json(`${base(id)}/messages/${messageId}`, {
          method: 'PUT',
          token: other.token,
          body: { content: 'x' },
        }),
        tp.json(base(id), { method: 'PATCH', token: other.token, body: { title: 'Taken' } }),
        tp.json(base(id), { method: 'DELETE', token: other.token }),
      ]
      for (const r of await Promise.all(calls)) expect([r.status, r.body.code]).toEqual([404, 'NOT_FOUND'])
    }
    // The owner sees it (and may rename it); the member still has it as it was.
    expect(
      (await tp.json(base(id), { method: 'PATCH', token: owner.token, body: { title: 'Audited' } })).status,
    ).toBe(200)
    expect((await detail(member, id)).body.messages.map((m: any) => m.content)).toEqual(['Mine', 'Done.'])
  })
})

describe('titles and search', () => {
  it('titles a conversation from its first exchange with a metered model call; a rename is kept', async () => {
    const t = await tenantWith()
    const id = await conversation(t)
    llm.titleReply = { text: '"Spring menu launch."', usage: { input: 40, output: 3 } }
    const titles = llm.titleRequests.length
    const first = await say(t, id, 'Can you help me plan the launch of our spring menu next month?')
    expect(first.body.turn.status).toBe('completed')
    const titled = await until(t, id, (b) => b.title_source === 'model')
    expect(titled.title).toBe('Spring menu launch')
    expect(llm.titleRequests.length).toBe(titles + 1)
    const asked = JSON.stringify(llm.titleRequests.at(-1)!.body.messages)
    expect(asked).toContain('spring menu next month')
    expect(asked).toContain('Done.')
    expect(llm.titleRequests.at(-1)!.body.tools ?? []).toEqual([])
    // The title call settles its reservation just after it stores the title.
    await expect.poll(() => used(t), { timeout: 10_000 }).toBe(120 + 43)

    // Later turns do not retitle; a person's title stays.
    const renamed = await tp.json(base(id), {
      method: 'PATCH',
      token: t.token,
      body: { title: '  Menu plan  ' },
    })
    expect(renamed.status).toBe(200)
    expect(renamed.body).toMatchObject({ title: 'Menu plan', title_source: 'user' })
    await say(t, id, 'And the desserts?')
    expect(llm.titleRequests.length).toBe(titles + 1)
    expect((await detail(t, id)).body.title).toBe('Menu plan')
  })

  it('keeps the first message as the title when the title call fails', async () => {
    const t = await tenantWith()
    const id = await conversation(t)
    llm.titleReply = { status: 500 }
    const titles = llm.titleRequests.length
    await say(t, id, 'Summarize   yesterday’s   sources')
    for (let i = 0; i < 100 && llm.titleRequests.length === titles; i++)
      await new Promise((r) => setTimeout(r, 20))
    const d = (await detail(t, id)).body
    expect([d.title, d.title_source]).toEqual(['Summarize yesterday’s sources', 'rule'])
  })

  it('searches titles and message content with full-text search, under RLS', async () => {
    const owner = await tenantWith()
    const member = await addMember(tp, owner.tenantId, 'member')
    const stranger = await tenantWith()
    const spring = await conversation(owner, 'Spring menu')
    const budget = await conversation(owner, 'Numbers')
    await say(owner, budget, 'Prepare the quarterly budget review')
    const theirs = await conversation(stranger, 'Budget too')
    await say(stranger, theirs, 'quarterly budget of another tenant')
    const mine = (
      await tp.json('/v1/assistant/conversations', { token: member.token, body: { title: 'Member budget' } })
    ).body.id

    const search = async (who: TestTenant, q: string) => {
      const res = await tp.json(`/v1/assistant/conversations?q=${encodeURIComponent(q)}`, {
        token: who.token,
      })
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      return res.body.data.map((c: any) => c.id)
    }
    expect(await search(owner, 'spring')).toEqual([spring])
    expect(await search(owner, 'quarterly budget')).toEqual([budget])
    expect(await search(owner, 'quart')).toEqual([budget])
    expect((await search(owner, 'budget')).sort()).toEqual([budget, mine].sort())
    expect(await search(member, 'budget')).toEqual([mine])
    expect(await search(stranger, 'budget')).toEqual([theirs])
    expect(await search(owner, 'nothing-like-this')).toEqual([])
    expect(await search(owner, "'&|!:*()")).toEqual([])
    const tooLong = await tp.json(`/v1/assistant/conversations?q=${'x'.repeat(201)}`, { token: owner.token })
    expect([tooLong.status, tooLong.body.code]).toEqual([400, 'VALIDATION_ERROR'])
  })
})
