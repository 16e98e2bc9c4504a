import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { ScriptedLlm } from './support/assistant-llm.ts'
import {
  type AssistantPlatform,
  addModelCredential,
  seedSlackConnection,
  slackPosts as slackPostsOf,
  startAssistantPlatform,
} from './support/assistant-platform.ts'
import { addMember, TestClock, type TestPlatform, type TestTenant } from './support/platform.ts'
import type { ProviderServer } from './support/provider-apis.ts'
import { startReceiver } from './support/webhook-receiver.ts'

/**
 * The approvals inbox and automations started by events, over real HTTP: two platform instances
 * on one database, the scripted model provider, a loopback Slack whose post_message needs approval.
 * Time is the test's clock (deps.clock), moved by hand for expiry.
 */

let tp: TestPlatform
let llm: ScriptedLlm
let slack: ProviderServer
let peers: AssistantPlatform | undefined
const clock = new TestClock(new Date('2026-12-02T09:00:00.000Z'))

beforeAll(async () => {
  peers = await startAssistantPlatform({ instances: 2, clock, env: { OUTBOUND_ALLOW_HTTP: 'true' } })
  ;({ tp, llm, slack } = peers)
}, 120_000)
afterAll(() => peers?.close())
beforeEach(() => llm.reset([{ text: 'Done.' }]))

/** A tenant with an AI credential and a Slack connection whose post_message needs approval. */
async function gatedTenant(): Promise<TestTenant> {
  const t = await tp.createTenant()
  await addModelCredential(tp, llm, t)
  await seedSlackConnection(tp, slack, t, {
    expiresAt: new Date(clock.now().getTime() + 30 * 86_400_000),
    requiresApproval: true,
  })
  return t
}

const postCall = (text: string) => ({
  toolCalls: [{ name: 'slack__post_message', arguments: { channel: 'C012AB3CD', text } }],
})

/** A conversation whose turn pauses on a post_message call; returns the conversation and call ids. */
async function pausedTurn(t: TestTenant, text: string, instance = 0) {
  llm.reset([postCall(text), { text: 'Handled.' }])
  const made = await tp.json('/v1/assistant/conversations', { token: t.token, body: {}, instance })
  expect(made.status).toBe(201)
  const turn = await tp.json(`/v1/assistant/conversations/${made.body.id}/messages`, {
    token: t.token,
    body: { content: `Post ${text}` },
    instance,
  })
  expect(turn.body.turn?.status, JSON.stringify(turn.body)).toBe('awaiting_approval')
  return { conversationId: made.body.id as string, callId: turn.body.tool_calls[0].id as string }
}

const sweep = (i: number) => tp.instances[i]!.platform.runJob('assistant/jobs/sweep').then((r) => r.json())

const inbox = (t: TestTenant, query = '') => tp.json(`/v1/assistant/approvals${query}`, { token: t.token })

const slackPosts = () => slackPostsOf(slack)

describe('the approvals inbox', () => {
  it('lists waiting calls across conversations and automations newest first; members see their own; owners and admins are told', async () => {
    const t = await gatedTenant()
    const admin = await addMember(tp, t.tenantId, 'admin')
    const member = await addMember(tp, t.tenantId, 'member')
    const other = await gatedTenant()
    const receiver = await startReceiver()
    const hook = await tp.json('/api/webhooks', {
      token: t.token,
      body: { url: receiver.url, events: ['assistant.approval_required'] },
    })
    await receiver.close()
    expect(hook.status, JSON.stringify(hook.body)).toBe(201)

    const mine = await pausedTurn(t, 'from the owner')
    clock.advance(1000)
    const members = await pausedTurn(member, 'from a member', 1)
    clock.advance(1000)
    // An automation started by an event waits too, unattended.
    const auto = await tp.json('/v1/assistant/automations', {
      token: t.token,
      body: {
        name: 'Announce',
        instruction: 'Announce the new article on Slack',
        trigger: { type: 'event', event: 'content.published' },
      },
    })
    expect(auto.status, JSON.stringify(auto.body)).toBe(201)
    const site = await tp.json('/v1/content/sites', { token: t.token, body: { name: 'Blog' } })
    const article = await tp.json('/v1/content/articles', {
      token: t.token,
      body: { site_id: site.body.id, title: 'Hello' },
    })
    expect(
      (await tp.json(`/v1/content/articles/${article.body.id}/publish`, { method: 'POST', token: t.token }))
        .status,
    ).toBe(200)
    llm.reset([postCall('from the automation'), { text: 'Handled.' }])
    await Promise.all([sweep(0), sweep(1)])
    await pausedTurn(other, 'elsewhere')

    const all = await inbox(t)
    expect(all.status, JSON.stringify(all.body)).toBe(200)
    expect(all.body.data.map((a: { arguments: { text: string } }) => a.arguments.text)).toEqual([
      'from the automation',
      'from a member',
      'from the owner',
    ])
    expect(all.body.data[0]).toMatchObject({
      status: 'pending',
      tool: 'slack:post_message',
      triggered_by: 'automation',
      automation: { id: auto.body.id, name: 'Announce' },
      requested_by: t.userId,
      decided_by: null,
      decided_at: null,
    })
    expect(new Date(all.body.data[0].expires_at).getTime()).toBe(
      new Date(all.body.data[0].created_at).getTime() + 24 * 3_600_000,
    )
    expect(all.body.data[2]).toMatchObject({
      id: mine.callId,
      conversation_id: mine.conversationId,
      triggered_by: 'assistant',
      automation: null,
    })
    expect((await inbox(admin)).body.data).toHaveLength(3)
    expect((await inbox(member)).body.data.map((a: { id: string }) => a.id)).toEqual([members.callId])
    expect(
      (await inbox(other)).body.data.map((a: { arguments: { text: string } }) => a.arguments.text),
    ).toEqual(['elsewhere'])
    // Keyset pages through the shared helper.
    const first = await inbox(t, '?limit=2')
    const second = await inbox(t, `?limit=2&cursor=${first.body.next_cursor}`)
    expect([...first.body.data, ...second.body.data].map((a: { id: string }) => a.id)).toEqual(
      all.body.data.map((a: { id: string }) => a.id),
    )
    expect(second.body.next_cursor).toBeNull()
    const bad = await inbox(t, '?status=waiting')
    expect([bad.status, bad.body.code]).toEqual([400, 'VALIDATION_ERROR'])

    // Each owner and admin got one e-mail per waiting call; the member none.
    const mails = await tp.db.sql<{ recipient: string; body: string }[]>`
      select recipient, body from public.notifications
      where tenant_id = ${t.tenantId} and kind = 'assistant.approval_required'`
    expect(mails.map((m) => m.recipient).sort()).toEqual(
      [t.email, t.email, t.email, admin.email, admin.email, admin.email].sort(),
    )
    expect(mails.some((m) => m.body.startsWith('An automation asked'))).toBe(true)
    // The webhook event, for conversations and for the automation alike.
    const deliveries = await tp.db.sql<{ data: { triggered_by: string } }[]>`
      select data from public.webhook_deliveries
      where subscription_id = ${hook.body.id} and event_type = 'assistant.approval_required'`
    expect(deliveries.map((d) => d.data.triggered_by).sort()).toEqual([
      'assistant',
      'assistant',
      'automation',
    ])

    // Decided from the inbox by id: who and when are recorded and shown.
    clock.advance(5000)
    const byMember = await tp.json(`/v1/assistant/approvals/${members.callId}`, {
      token: member.token,
      body: { approve: true },
    })
    expect(byMember.status).toBe(403)
    const foreign = await tp.json(`/v1/assistant/approvals/${members.callId}`, {
      token: other.token,
      body: { approve: true },
    })
    expect([foreign.status, foreign.body.code]).toEqual([404, 'NOT_FOUND'])
    const posts = slackPosts().length
    const approved = await tp.json(`/v1/assistant/approvals/${members.callId}`, {
      token: admin.token,
      body: { approve: true },
      instance: 1,
    })
    expect(approved.status, JSON.stringify(approved.body)).toBe(200)
    expect(approved.body.turn.status).toBe('completed')
    expect(slackPosts().length).toBe(posts + 1)
    const denied = await tp.json(`/v1/assistant/approvals/${mine.callId}`, {
      token: t.token,
      body: { approve: false, reason: 'not now' },
    })
    expect(denied.body.tool_calls[0].status).toBe('denied')
    const decided = await inbox(t, '?status=approved')
    expect(decided.body.data).toEqual([
      expect.objectContaining({
        id: members.callId,
        status: 'approved',
        decided_by: admin.userId,
        decided_at: clock.now().toISOString(),
      }),
    ])
    expect((await inbox(t, '?status=denied')).body.data).toEqual([
      expect.objectContaining({
        id: mine.callId,
        decided_by: t.userId,
        reason: expect.stringContaining('not now'),
      }),
    ])
    expect((await inbox(t)).body.data).toHaveLength(1)
    const twice = await tp.json(`/v1/assistant/approvals/${members.callId}`, {
      token: t.token,
      body: { approve: false },
    })
    expect([twice.status, twice.body.code]).toEqual([409, 'CONFLICT'])
  })

  it('expires a call after the tenant’s approval_ttl_hours; the turn continues as denied, once across instances', async () => {
    const t = await gatedTenant()
    for (const approval_ttl_hours of [0, 721, 1.5]) {
      const bad = await tp.json('/v1/assistant/settings', {
        method: 'PUT',
        token: t.token,
        body: { approval_ttl_hours },
      })
      expect([bad.status, bad.body.code]).toEqual([400, 'VALIDATION_ERROR'])
    }
    expect((await tp.json('/v1/assistant/settings', { token: t.token })).body.approval_ttl_hours).toBe(24)
    const set = await tp.json('/v1/assistant/settings', {
      method: 'PUT',
      token: t.token,
      body: { approval_ttl_hours: 2 },
    })
    expect([set.status, set.body.approval_ttl_hours]).toEqual([200, 2])

    const { conversationId, callId } = await pausedTurn(t, 'late')
    const [waiting] = (await inbox(t)).body.data
    expect(new Date(waiting.expires_at).getTime() - new Date(waiting.created_at).getTime()).toBe(
      2 * 3_600_000,
    )
    const posts = slackPosts().length
    const calls = llm.requests.length
    const titleCalls = llm.titleRequests.length

    clock.advance(2 * 3_600_000 - 60_000)
    await sweep(0)
    expect((await inbox(t)).body.data).toHaveLength(1) // not yet
    clock.advance(60_000)
    await Promise.all([sweep(0), sweep(1), sweep(0)])

    const expired = await inbox(t, '?status=expired')
    expect(expired.body.data).toEqual([
      expect.objectContaining({
        id: callId,
        status: 'expired',
        decided_by: null,
        decided_at: clock.now().toISOString(),
        reason: expect.stringContaining('expired'),
      }),
    ])
    expect((await inbox(t)).body.data).toEqual([])
    // The turn went on once, the model told the call was not run; Slack never called.
    expect(llm.requests.length).toBe(calls + 1)
    const told = (llm.requests.at(-1)!.body.messages as { role: string; content: string }[]).filter(
      (m) => m.role === 'tool',
    )
    expect(told.map((m) => m.content)).toEqual([expect.stringContaining('The approval expired')])
    expect(slackPosts().length).toBe(posts)
    const conversation = await tp.json(`/v1/assistant/conversations/${conversationId}`, { token: t.token })
    expect(conversation.body.turns[0].status).toBe('completed')
    // Finished by the sweep, the first exchange still gets its title from the model, once.
    await expect
      .poll(
        async () => {
          const d = await tp.json(`/v1/assistant/conversations/${conversationId}`, { token: t.token })
          return [d.body.title, d.body.title_source]
        },
        { timeout: 10_000 },
      )
      .toEqual(['Scripted title', 'model'])
    expect(llm.titleRequests.length).toBe(titleCalls + 1)
    const late = await tp.json(`/v1/assistant/approvals/${callId}`, {
      token: t.token,
      body: { approve: true },
    })
    expect([late.status, late.body.code]).toEqual([409, 'CONFLICT'])
  })
  it('refuses a decision on a call past expires_at that the sweep has not settled yet: 409, nothing run', async () => {
    const t = await gatedTenant()
    const { callId } = await pausedTurn(t, 'too late')
    const posts = slackPosts().length
    const calls = llm.requests.length
    // The clock passes the expiry (24 hours by default); no sweep runs.
    clock.advance(24 * 3_600_000)
    const late = await tp.json(`/v1/assistant/approvals/${callId}`, {
      token: t.token,
      body: { approve: true },
    })
    expect([late.status, late.body.code], JSON.stringify(late.body)).toEqual([409, 'CONFLICT'])
    expect(late.body.message).toContain('expired')
    const denied = await tp.json(`/v1/assistant/approvals/${callId}`, {
      token: t.token,
      body: { approve: false },
      instance: 1,
    })
    expect([denied.status, denied.body.message]).toEqual([409, late.body.message])
    // Nothing was decided or run: the call still waits for the sweep, which settles it as expired.
    const [call] = await tp.db.sql<{ status: string; decision: string | null }[]>`
      select status, decision from public.assistant_tool_calls where id = ${callId}`
    expect(call).toEqual({ status: 'awaiting_approval', decision: null })
    expect(slackPosts().length).toBe(posts)
    expect(llm.requests.length).toBe(calls)
    await sweep(0)
    expect((await inbox(t, '?status=expired')).body.data.map((a: { id: string }) => a.id)).toEqual([callId])
    expect(slackPosts().length).toBe(posts)
  })
})

describe('automations started by events', () => {
  it('refuses bad triggers with the error body', async () => {
    const t = await gatedTenant()
    const base = { name: 'On publish', instruction: 'Summarise it' }
    const bad: [Record<string, unknown>, string][] = [
      [{ trigger: { type: 'event', event: 'content.deleted' } }, 'trigger.event'],
      [{ trigger: { type: 'event' } }, 'trigger.event'],
      [{ trigger: { type: 'webhook', event: 'content.published' } }, 'trigger.type'],
      [{ trigger: { type: 'schedule', schedule: 'every day' } }, 'schedule'],
      [{ schedule: '0 8 * * *', trigger: { type: 'event', event: 'order.created' } }, 'trigger'],
      [{}, 'trigger'],
    ]
    for (const [body, field] of bad) {
      const res = await tp.json('/v1/assistant/automations', { token: t.token, body: { ...base, ...body } })
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.code).toBe('VALIDATION_ERROR')
      expect(
        res.body.details.map((d: { field: string }) => d.field).join(' '),
        JSON.stringify(res.body),
      ).toContain(field)
    }
    const [count] = await tp.db.sql<{ n: number }[]>`
      select count(*)::int as n from public.assistant_automations where tenant_id = ${t.tenantId}`
    expect(count!.n).toBe(0)
    // A schedule becomes an event trigger and back.
    const made = await tp.json('/v1/assistant/automations', {
      token: t.token,
      body: { ...base, trigger: { type: 'schedule', schedule: '0 8 * * *' } },
    })
    expect(made.body).toMatchObject({ schedule: '0 8 * * *', trigger: { type: 'schedule' } })
    expect(made.body.next_run_at).not.toBeNull()
    const moved = await tp.json(`/v1/assistant/automations/${made.body.id}`, {
      method: 'PATCH',
      token: t.token,
      body: { trigger: { type: 'event', event: 'order.created' } },
    })
    expect(moved.body).toMatchObject({
      schedule: null,
      next_run_at: null,
      trigger: { type: 'event', event: 'order.created' },
    })
  })

  it('runs once per event with two instances, the event’s data in the turn’s input', async () => {
    const t = await gatedTenant()
    const made = await tp.json('/v1/assistant/automations', {
      token: t.token,
      body: {
        name: 'Tweet it',
        instruction: 'Write a one-line summary of the published article',
        trigger: { type: 'event', event: 'content.published' },
      },
    })
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    const site = await tp.json('/v1/content/sites', { token: t.token, body: { name: 'News' } })
    const article = await tp.json('/v1/content/articles', {
      token: t.token,
      body: { site_id: site.body.id, title: 'Spring menu is here' },
    })
    // A draft is no content.published: nothing queued.
    expect((await Promise.all([sweep(0), sweep(1)])).map((r) => r.scheduled)).toEqual([0, 0])
    const published = await tp.json(`/v1/content/articles/${article.body.id}/publish`, {
      method: 'POST',
      token: t.token,
      instance: 1,
    })
    expect(published.status).toBe(200)
    llm.reset([{ text: 'Spring menu: out now.' }])
    const calls = llm.requests.length
    const reports = await Promise.all([sweep(0), sweep(1), sweep(0), sweep(1)])
    expect(reports.map((r) => r.scheduled).reduce((a, b) => a + b, 0)).toBe(1)
    expect(llm.requests.length).toBe(calls + 1)
    const user = (llm.requests.at(-1)!.body.messages as { role: string; content: string }[]).find(
      (m) => m.role === 'user',
    )!
    expect(user.content).toContain('Write a one-line summary of the published article')
    expect(user.content).toContain('content.published')
    expect(user.content).toContain(article.body.id)
    expect(user.content).toContain('Spring menu is here')

    const runs = await tp.json(`/v1/assistant/automations/${made.body.id}/runs`, { token: t.token })
    expect(runs.body.data).toEqual([
      expect.objectContaining({
        status: 'started',
        event_type: 'content.published',
        turn_status: 'completed',
      }),
    ])
    const [event] = await tp.db.sql<{ id: string }[]>`
      select id from public.event_outbox where tenant_id = ${t.tenantId} and type = 'content.published'`
    expect(runs.body.data[0].event_id).toBe(event!.id)
    // Later sweeps find nothing more for the same event.
    expect((await sweep(1)).scheduled).toBe(0)
  })
})
