import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ScriptedLlm } from './support/assistant-llm.ts'
import {
  type AssistantPlatform,
  addModelCredential,
  newConversation,
  startAssistantPlatform,
} from './support/assistant-platform.ts'
import { addMember, type TestPlatform, type TestTenant } from './support/platform.ts'

/**
 * Over real HTTP: a conversation's origin (chat, or an automation's run), the list's `origin`
 * filter beside `q` under row-level security, and a tool call or approval that names an article
 * by its article_id carrying that article's title (never another tenant's).
 */

let tp: TestPlatform
let llm: ScriptedLlm
let peers: AssistantPlatform | undefined

beforeAll(async () => {
  peers = await startAssistantPlatform()
  ;({ tp, llm } = peers)
}, 120_000)
afterAll(() => peers?.close())

async function tenantWith(): Promise<TestTenant> {
  const t = await tp.createTenant()
  await addModelCredential(tp, llm, t)
  return t
}

/** Runs an automation of `t` once through the sweep; the run's conversation id. */
async function automationRun(t: TestTenant, name: string): Promise<string> {
  const made = await tp.json('/v1/assistant/automations', {
    token: t.token,
    body: { name, instruction: 'Summarise yesterday.', schedule: '0 8 * * *' },
  })
  expect(made.status, JSON.stringify(made.body)).toBe(201)
  await tp.db.sql`update public.assistant_automations set next_run_at = now() - interval '1 minute'
    where id = ${made.body.id}`
  llm.reset([{ text: 'The digest.' }])
  const report = await (await tp.instances[0]!.platform.runJob('assistant/jobs/sweep')).json()
  expect(report.scheduled).toBe(1)
  await expect
    .poll(async () => {
      const [run] = await tp.db.sql<{ conversation_id: string | null }[]>`
        select conversation_id from public.assistant_automation_runs where automation_id = ${made.body.id}`
      return run?.conversation_id ?? null
    })
    .not.toBeNull()
  const [run] = await tp.db.sql<{ conversation_id: string }[]>`
    select conversation_id from public.assistant_automation_runs where automation_id = ${made.body.id}`
  return run!.conversation_id
}

const list = async (who: TestTenant, query: string) => {
  const res = await tp.json(`/v1/assistant/conversations?${query}`, { token: who.token })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.data as { id: string; origin: string }[]
}
const ids = async (who: TestTenant, query: string) => (await list(who, query)).map((c) => c.id).sort()

describe('conversation origin', () => {
  it('keeps automation runs out of the chat list and lists them on their own, under RLS', async () => {
    const owner = await tenantWith()
    const member = await addMember(tp, owner.tenantId, 'member')
    const stranger = await tenantWith()
    const chat = await newConversation(tp, owner, { title: 'Digest wording' })
    const mine = (
      await tp.json('/v1/assistant/conversations', { token: member.token, body: { title: 'Member digest' } })
    ).body.id
    const run = await automationRun(owner, 'Daily digest')
    const theirs = await automationRun(stranger, 'Their digest')

    expect(await ids(owner, 'origin=chat')).toEqual([chat, mine].sort())
    expect(await ids(owner, 'origin=automation')).toEqual([run])
    expect(await ids(owner, '')).toEqual([chat, mine, run].sort())
    const origins = Object.fromEntries((await list(owner, '')).map((c) => [c.id, c.origin]))
    expect(origins).toEqual({ [chat]: 'chat', [mine]: 'chat', [run]: 'automation' })
    // With a search: the run's title says "digest" too, and stays out.
    expect(await ids(owner, 'origin=chat&q=digest')).toEqual([chat, mine].sort())
    expect(await ids(owner, 'origin=automation&q=digest')).toEqual([run])
    // A member sees their own conversations only; another tenant its own run only.
    expect(await ids(member, 'origin=chat')).toEqual([mine])
    expect(await ids(member, 'origin=automation')).toEqual([])
    expect(await ids(stranger, 'origin=automation')).toEqual([theirs])
    expect(await ids(stranger, 'origin=chat')).toEqual([])
  })

  it('answers a malformed filter with the error body, and never takes origin from a request', async () => {
    const owner = await tenantWith()
    for (const query of ['origin=robot', 'origin=', 'origin=chat&origin=automation', 'origin=CHAT']) {
      const res = await tp.json(`/v1/assistant/conversations?${query}`, { token: owner.token })
      expect([query, res.status, res.body.code]).toEqual([query, 400, 'VALIDATION_ERROR'])
    }
    const forged = await tp.json('/v1/assistant/conversations', {
      token: owner.token,
      body: { title: 'Pretend run', origin: 'automation' },
    })
    expect([forged.status, forged.body.code]).toEqual([400, 'VALIDATION_ERROR'])
    expect(await ids(owner, '')).toEqual([])
  })
})

describe('the article a call names', () => {
  it('carries the title of the article in the conversation and the approvals inbox; never another tenant’s', async () => {
    const owner = await tenantWith()
    const stranger = await tenantWith()
    const articleOf = async (t: TestTenant, title: string) => {
      const site = await tp.json('/v1/content/sites', { token: t.token, body: { name: `${title} site` } })
      const made = await tp.json('/v1/content/articles', {
        token: t.token,
        body: { site_id: site.body.id, title },
      })
      expect(made.status, JSON.stringify(made.body)).toBe(201)
      return made.body.id as string
    }
    const own = await articleOf(owner, 'Spring menu is here')
    const foreign = await articleOf(stranger, 'Their secret launch')
    const schedule = (article_id: string) => ({
      toolCalls: [
        { name: 'platform__schedule_article', arguments: { article_id, publish_at: '2027-03-01T08:00:00Z' } },
      ],
    })
    const id = await newConversation(tp, owner, { title: 'Scheduling' })
    llm.reset([schedule(own)])
    const said = await tp.json(`/v1/assistant/conversations/${id}/messages`, {
      token: owner.token,
      body: { content: 'Schedule the spring menu' },
    })
    expect(said.status, JSON.stringify(said.body)).toBe(200)
    const calls = async (conversation: string) => {
      const d = await tp.json(`/v1/assistant/conversations/${conversation}`, { token: owner.token })
      expect(d.status).toBe(200)
      return d.body.messages.flatMap((m: any) => m.tool_calls)
    }
    const [call] = await calls(id)
    expect(call).toMatchObject({
      status: 'awaiting_approval',
      article: { id: own, title: 'Spring menu is here' },
    })
    const inbox = await tp.json('/v1/assistant/approvals', { token: owner.token })
    expect(inbox.body.data.map((a: any) => a.article)).toEqual([{ id: own, title: 'Spring menu is here' }])

    // Another tenant's article id names nothing this tenant sees: null, its title never shown.
    const other = await newConversation(tp, owner, { title: 'Foreign' })
    llm.reset([schedule(foreign), { text: 'Could not.' }])
    await tp.json(`/v1/assistant/conversations/${other}/messages`, {
      token: owner.token,
      body: { content: 'Schedule that one' },
    })
    const [foreignCall] = await calls(other)
    expect(foreignCall.article).toBeNull()
    expect(JSON.stringify(await calls(other))).not.toContain('Their secret launch')
    // A call without an article_id has no article field at all.
    const plain = await newConversation(tp, owner, { title: 'Plain' })
    llm.reset([
      { toolCalls: [{ name: 'platform__list_source_items', arguments: {} }] },
      { text: 'One site.' },
    ])
    await tp.json(`/v1/assistant/conversations/${plain}/messages`, {
      token: owner.token,
      body: { content: 'Which sites?' },
    })
    const [plainCall] = await calls(plain)
    expect(plainCall).toBeDefined()
    expect('article' in plainCall).toBe(false)
  })
})
