import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { integrationBySlug } from '../shared/services/integrations/catalog.ts'
import { periodOf, productIds } from '../shared/services/usage/metering.ts'
import type { ScriptedLlm, ScriptedReply } from './support/assistant-llm.ts'
import {
  type AssistantPlatform,
  addModelCredential,
  seedSlackConnection,
  slackPosts as slackPostsOf,
  startAssistantPlatform,
} from './support/assistant-platform.ts'
import { type McpTestServer, startMcpServer } from './support/mcp-server.ts'
import { addMember, TestClock, type TestPlatform, type TestTenant } from './support/platform.ts'
import type { ProviderServer } from './support/provider-apis.ts'

/**
 * The assistant over real HTTP: two platform instances on one database, a scripted model provider
 * that streams as OpenAI and Anthropic do (tool calls included, several at once), a loopback
 * Slack, and the reference MCP server behind its auth proxy.
 */

let tp: TestPlatform
let llm: ScriptedLlm
let slack: ProviderServer
let everything: McpTestServer
let peers: AssistantPlatform | undefined
const clock = new TestClock(new Date('2026-11-21T12:00:05.000Z'))
const MCP_TOKEN = 'everything-bearer-token-0123456789'

beforeAll(async () => {
  everything = await startMcpServer({
    transport: 'streamableHttp',
    auth: { type: 'bearer', token: MCP_TOKEN },
  })
  peers = await startAssistantPlatform({ instances: 2, clock, env: { MCP_TOOL_TIMEOUT_MS: '3000' } })
  ;({ tp, llm, slack } = peers)
}, 120_000)
afterAll(async () => {
  await everything?.close()
  await peers?.close()
})
beforeEach(() => {
  llm.reset([{ text: 'Done.' }])
})

async function tenantWith(opts: { provider?: 'openai' | 'anthropic' | null; plan?: string } = {}) {
  const t = await tp.createTenant()
  if (opts.plan) await tp.db.sql`update public.tenants set plan = ${opts.plan} where id = ${t.tenantId}`
  const provider = opts.provider === undefined ? 'openai' : opts.provider
  if (provider) await addModelCredential(tp, llm, t, provider)
  return t
}

/**
 * A conversation titled by hand: its first turn then starts no background title call, whose own
 * metered tokens and credential use would race with the exact usage these tests read (titles from
 * the model and from the first message are tested in assistant-chat.test.ts).
 */
async function conversation(t: TestTenant, instance = 0): Promise<string> {
  const res = await tp.json('/v1/assistant/conversations', {
    token: t.token,
    body: { title: 'Test chat' },
    instance,
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body.id
}

const say = (t: TestTenant, id: string, content: string, instance = 0) =>
  tp.json(`/v1/assistant/conversations/${id}/messages`, { token: t.token, body: { content }, instance })

/** Sends a message with Accept: text/event-stream and parses the events. */
async function sayStreaming(t: TestTenant, id: string, content: string) {
  const res = await tp.request(`/v1/assistant/conversations/${id}/messages`, {
    token: t.token,
    body: { content },
    headers: { accept: 'text/event-stream' },
  })
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toContain('text/event-stream')
  const text = await res.text()
  return text
    .split('\n\n')
    .filter((block) => block.trim())
    .map((block) => {
      const event = block.match(/^event: (.+)$/m)?.[1] ?? ''
      const data = JSON.parse(block.match(/^data: (.+)$/m)?.[1] ?? 'null')
      return { event, data }
    })
}

const seedSlack = (t: TestTenant) =>
  seedSlackConnection(tp, slack, t, { expiresAt: new Date(clock.now().getTime() + 86_400_000) })
const slackPosts = () => slackPostsOf(slack)

/** The tool results the model was sent in its last request (OpenAI's role=tool messages). */
const toolMessages = () =>
  (llm.requests.at(-1)!.body.messages as { role: string; content: string; tool_call_id?: string }[]).filter(
    (m) => m.role === 'tool',
  )

describe('conversations', () => {
  it('creates, lists in keyset pages, shows and deletes; another tenant gets 404', async () => {
    const t = await tenantWith()
    const other = await tenantWith()
    const ids = [] as string[]
    for (let i = 0; i < 3; i++) {
      clock.advance(1000)
      const res = await tp.json('/v1/assistant/conversations', {
        token: t.token,
        body: { title: `Chat ${i}` },
      })
      expect(res.status).toBe(201)
      expect(res.body).toMatchObject({ title: `Chat ${i}`, created_by: t.userId, usage: { input_tokens: 0 } })
      ids.push(res.body.id)
    }
    const page1 = await tp.json('/v1/assistant/conversations?limit=2', { token: t.token })
    expect(page1.body.data.map((c: { id: string }) => c.id)).toEqual([ids[2], ids[1]])
    const page2 = await tp.json(`/v1/assistant/conversations?limit=2&cursor=${page1.body.next_cursor}`, {
      token: t.token,
    })
    expect([page2.body.data.map((c: { id: string }) => c.id), page2.body.next_cursor]).toEqual([
      [ids[0]],
      null,
    ])

    for (const path of [
      `/v1/assistant/conversations/${ids[0]}`,
      `/v1/assistant/conversations/${ids[0]}/messages`,
    ]) {
      const res = await tp.json(path, {
        token: other.token,
        ...(path.endsWith('messages') && { body: { content: 'hi' } }),
      })
      expect([res.status, res.body.code]).toEqual([404, 'NOT_FOUND'])
    }
    const foreignDelete = await tp.json(`/v1/assistant/conversations/${ids[0]}`, {
      token: other.token,
      method: 'DELETE',
    })
    expect(foreignDelete.status).toBe(404)
    expect((await tp.json('/v1/assistant/conversations', { token: other.token })).body.data).toEqual([])

    const del = await tp.request(`/v1/assistant/conversations/${ids[0]}`, {
      token: t.token,
      method: 'DELETE',
    })
    expect(del.status).toBe(204)
    expect((await tp.json(`/v1/assistant/conversations/${ids[0]}`, { token: t.token })).status).toBe(404)
  })

  it("members see their own conversations; owners and admins see every member's", async () => {
    const owner = await tenantWith()
    const member = await addMember(tp, owner.tenantId, 'member')
    const colleague = await addMember(tp, owner.tenantId, 'member')
    const mine = await conversation(member)
    expect((await tp.json(`/v1/assistant/conversations/${mine}`, { token: colleague.token })).status).toBe(
      404,
    )
    expect((await tp.json('/v1/assistant/conversations', { token: colleague.token })).body.data).toEqual([])
    const seen = await tp.json(`/v1/assistant/conversations/${mine}`, { token: owner.token })
    expect([seen.status, seen.body.created_by]).toEqual([200, member.userId])
  })

  it('refuses bad input with the error body and stores nothing', async () => {
    const t = await tenantWith()
    const id = await conversation(t)
    const cases: [unknown, number][] = [
      [{ content: '' }, 400],
      [{ content: '   ' }, 400],
      [{}, 400],
      [{ content: 42 }, 400],
      [{ content: 'hi', extra: true }, 400],
      [{ content: 'x'.repeat(32_001) }, 400],
    ]
    for (const [body, status] of cases) {
      const res = await tp.json(`/v1/assistant/conversations/${id}/messages`, { token: t.token, body })
      expect(
        [res.status, typeof res.body.error, typeof res.body.message],
        JSON.stringify(body).slice(0, 80),
      ).toEqual([status, 'string', 'string'])
    }
    // 1 MB: its own connection, as the server answers before reading the whole body and closes it.
    const huge = await new Promise<{ status: number; body: any }>((resolve, reject) => {
      const req = httpRequest(`${tp.baseUrl}/v1/assistant/conversations/${id}/messages`, {
        method: 'POST',
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
    const unknown = await say(t, crypto.randomUUID(), 'hello')
    expect([unknown.status, unknown.body.code]).toEqual([404, 'NOT_FOUND'])
    const badId = await say(t, 'not-a-uuid', 'hello')
    expect(badId.status).toBe(400)
    const [stored] = await tp.db.sql<{ count: number }[]>`
      select count(*)::int as count from public.assistant_messages where conversation_id = ${id}`
    expect(stored!.count).toBe(0)
  })

  it('a platform key needs assistant:invoke (403 INSUFFICIENT_PERMISSIONS without it)', async () => {
    const t = await tenantWith()
    const key = async (scopes: string[]) =>
      (
        await tp.json('/api/api-keys', {
          token: t.token,
          body: { name: 'app', environment: 'production', scopes, rate_limit_per_minute: 100 },
        })
      ).body.key as string
    const without = await tp.json('/v1/assistant/conversations', {
      headers: { authorization: `Bearer ${await key(['content:read'])}` },
      body: {},
    })
    expect([without.status, without.body.code]).toEqual([403, 'INSUFFICIENT_PERMISSIONS'])
    const withScope = await tp.json('/v1/assistant/conversations', {
      headers: { authorization: `Bearer ${await key(['assistant:invoke'])}` },
      body: {},
    })
    expect([withScope.status, withScope.body.created_by]).toEqual([201, t.userId])
    const turn = await tp.json(`/v1/assistant/conversations/${withScope.body.id}/messages`, {
      headers: { authorization: `Bearer ${await key(['assistant:invoke'])}` },
      body: { content: 'hello' },
    })
    expect([turn.status, turn.body.turn.status]).toEqual([200, 'completed'])
  })
})

describe('a turn', () => {
  it('without an AI credential is 422 naming the credential to add, before anything is stored', async () => {
    const t = await tenantWith({ provider: null })
    const id = await conversation(t)
    const calls = llm.requests.length
    const res = await say(t, id, 'hello')
    expect([res.status, res.body.code]).toEqual([422, 'UNPROCESSABLE'])
    expect(res.body.message).toMatch(/add an OpenAI or Anthropic credential \(category AI\).*Credentials/)
    expect(llm.requests.length).toBe(calls)
    const stored = await tp.db.sql`
      select (select count(*) from public.assistant_messages where conversation_id = ${id})::int as messages,
             (select count(*) from public.assistant_turns where conversation_id = ${id})::int as turns`
    expect(stored[0]).toEqual({ messages: 0, turns: 0 })
    const settings = await tp.json('/v1/assistant/settings', { token: t.token })
    expect(settings.body.effective).toEqual({ provider: null, model: null, credential: false })
  })

  it('answers in JSON with the message and exact usage; the credential use is recorded as the assistant', async () => {
    const t = await tenantWith()
    const id = await conversation(t)
    llm.reset([{ text: 'Hello there, how can I help?', usage: { input: 321, output: 45 } }])
    const res = await say(t, id, 'Hi!')
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.message).toMatchObject({
      role: 'assistant',
      content: 'Hello there, how can I help?',
      tool_calls: [],
    })
    expect(res.body.usage).toEqual({ input_tokens: 321, output_tokens: 45 })
    expect(res.body.turn).toMatchObject({
      status: 'completed',
      provider: 'openai',
      model: 'gpt-4o-mini',
      steps: 1,
    })
    expect(res.body.quota).toEqual({ used: 366, limit: 10000 })
    const sent = llm.requests.at(-1)!
    expect(sent.path).toBe('/v1/chat/completions')
    expect(sent.body.stream).toBe(true)
    expect(sent.body.messages.at(-1)).toEqual({ role: 'user', content: 'Hi!' })
    const [counter] = await tp.db.sql`
      select units::int from public.usage_counters
      where tenant_id = ${t.tenantId} and product_id = ${productIds.assistant} and period = ${periodOf(clock.now())}`
    expect(counter!.units).toBe(366)
    const uses = await tp.db
      .sql`select caller_kind, function_name from public.credential_usage where tenant_id = ${t.tenantId}`
    expect(uses.map((u) => [u.caller_kind, u.function_name])).toEqual([['assistant', 'assistant']])
    const detail = await tp.json(`/v1/assistant/conversations/${id}`, { token: t.token })
    expect(detail.body.title).toBe('Test chat')
    expect(detail.body.messages.map((m: { role: string; content: string }) => [m.role, m.content])).toEqual([
      ['user', 'Hi!'],
      ['assistant', 'Hello there, how can I help?'],
    ])
    expect(detail.body.usage).toEqual({ input_tokens: 321, output_tokens: 45 })
    // The turn's job is the member's who typed it (the Jobs page does not call it scheduled).
    const jobs = await tp.json('/api/jobs?kind=assistant.turn', { token: t.token })
    expect(
      jobs.body.data.map((j: { created_by: string | null; input: { conversation_id: string } }) => [
        j.created_by,
        j.input.conversation_id,
      ]),
    ).toEqual([[t.userId, id]])
  })

  it('streams from Anthropic: turn.started, text deltas, usage, turn.ended; the history goes back next turn', async () => {
    const t = await tenantWith({ provider: 'anthropic' })
    const id = await conversation(t)
    llm.reset([{ text: 'Streaming works word by word.', usage: { input: 50, output: 7 } }])
    const events = await sayStreaming(t, id, 'Stream please')
    const names = events.map((e) => e.event)
    expect(names[0]).toBe('turn.started')
    expect(names.at(-1)).toBe('turn.ended')
    expect(names.filter((n) => n === 'text.delta').length).toBeGreaterThan(1)
    expect(
      events
        .filter((e) => e.event === 'text.delta')
        .map((e) => e.data.text)
        .join(''),
    ).toBe('Streaming works word by word.')
    expect(events.find((e) => e.event === 'usage')!.data).toMatchObject({
      input_tokens: 50,
      output_tokens: 7,
    })
    const ended = events.at(-1)!.data
    expect(ended.turn).toMatchObject({
      status: 'completed',
      provider: 'anthropic',
      model: 'claude-sonnet-4-6',
    })
    expect(ended.message.content).toBe('Streaming works word by word.')
    expect(llm.requests.at(-1)!.path).toBe('/v1/messages')

    llm.reset([{ text: 'Second answer.' }])
    await say(t, id, 'And again')
    expect(llm.requests.at(-1)!.body.messages).toEqual([
      { role: 'user', content: 'Stream please' },
      { role: 'assistant', content: [{ type: 'text', text: 'Streaming works word by word.' }] },
      { role: 'user', content: 'And again' },
    ])
  })
})

describe('tools', () => {
  it('offers the tool server’s tools under provider-safe names and returns parallel results to the model', async () => {
    const t = await tenantWith()
    const connection = await seedSlack(t)
    await tp.db.sql`insert into public.sites (tenant_id, name) values (${t.tenantId}, 'Kitchen Notes')`
    const id = await conversation(t)
    llm.reset([
      {
        text: 'Let me check.',
        toolCalls: [
          {
            name: 'slack__post_message',
            arguments: { channel: 'C012AB3CD', text: 'New draft: Spring menu' },
          },
          { name: 'platform__list_content', arguments: { type: 'site' } },
        ],
      },
      { text: 'Posted to #general, and you have one site.' },
    ])
    const before = slackPosts().length
    const res = await say(t, id, 'Post the draft title to #general and list my sites')
    expect(res.status, JSON.stringify(res.body)).toBe(200)

    const offered = (llm.requests.at(-2)!.body.tools as { function: { name: string } }[]).map(
      (x) => x.function.name,
    )
    expect(offered).toEqual(expect.arrayContaining(['slack__post_message', 'platform__list_content']))
    for (const name of offered) expect(name).toMatch(/^[A-Za-z0-9_-]{1,64}$/)

    expect(slackPosts().length).toBe(before + 1)
    expect(JSON.parse(slackPosts().at(-1)!.body)).toMatchObject({
      channel: 'C012AB3CD',
      text: 'New draft: Spring menu',
    })
    const results = toolMessages()
    expect(results.map((m) => m.tool_call_id)).toEqual(['call_0_slack__p', 'call_1_platform'])
    expect(results[0]!.content).toContain('"ts":"1503435956.000247"')
    expect(results[1]!.content).toContain('Kitchen Notes')
    expect(res.body.tool_calls.map((c: { tool: string; status: string }) => [c.tool, c.status])).toEqual([
      ['slack:post_message', 'ok'],
      ['platform:list_content', 'ok'],
    ])
    expect(res.body.message.content).toBe('Posted to #general, and you have one site.')
    expect(res.body.turn.steps).toBe(2)
    const log = await tp.db.sql`
      select tool_name, triggered_by, user_id, success from public.integration_usage where connection_id = ${connection}`
    expect(log.map((l) => [l.tool_name, l.triggered_by, l.user_id, l.success])).toEqual([
      ['slack:post_message', 'assistant', t.userId, true],
    ])
  })

  it('tells the model why a disabled tool or a call outside its restriction was refused, and never calls Slack', async () => {
    const t = await tenantWith()
    const connection = await seedSlack(t)
    const id = await conversation(t)
    const permit = (body: Record<string, unknown>) =>
      tp.json(`/api/connections/${connection}/permissions`, {
        token: t.token,
        body: { tool_name: 'slack:post_message', ...body },
      })
    expect((await permit({ allowed: false })).status).toBe(201)
    const post = { name: 'slack__post_message', arguments: { channel: 'C0999999999', text: 'hi' } }
    llm.reset([{ toolCalls: [post] }, { text: 'I may not post there.' }])
    const before = slackPosts().length
    const disabled = await say(t, id, 'Post hi to the secret channel')
    expect(disabled.body.tool_calls[0]).toMatchObject({ status: 'refused' })
    expect(toolMessages()[0]!.content).toMatch(/^Refused by the tenant's tool permissions: .*disabled/)
    // Not offered to the model: the call above is one it was never given.
    const offered = (llm.requests.at(-2)!.body.tools as { function: { name: string } }[]).map(
      (x) => x.function.name,
    )
    expect(offered).toContain('slack__list_channels')
    expect(offered).not.toContain('slack__post_message')

    expect((await permit({ allowed: true, restrictions: { channels: ['C012AB3CD'] } })).status).toBe(200)
    llm.reset([{ toolCalls: [post] }, { text: 'That channel is not allowed.' }])
    const restricted = await say(t, id, 'Try again')
    expect(restricted.body.tool_calls[0]).toMatchObject({ status: 'refused' })
    expect(toolMessages().at(-1)!.content).toContain('channel C0999999999 is not in the allowed channels')
    expect(restricted.body.message.content).toBe('That channel is not allowed.')
    expect(slackPosts().length).toBe(before)
    const log = await tp.db
      .sql`select success, triggered_by from public.integration_usage where connection_id = ${connection}`
    expect(log.map((l) => [l.success, l.triggered_by])).toEqual([
      [false, 'assistant'],
      [false, 'assistant'],
    ])
  })

  it('calls an MCP server’s tool through Anthropic and bounds a large tool result', async () => {
    // Pro: two 16,000-character results take the next call's reservation past the Free quota.
    const t = await tenantWith({ provider: 'anthropic', plan: 'pro' })
    const connected = await tp.json('/api/integrations/connect', {
      token: t.token,
      body: {
        integration_id: integrationBySlug('custom-mcp')!.integration_id,
        connection_type: 'mcp',
        mcp_server_url: everything.url,
        mcp_auth_type: 'bearer',
        mcp_auth_token: MCP_TOKEN,
        display_name: 'Everything',
      },
    })
    expect(connected.status, JSON.stringify(connected.body)).toBe(201)
    const [site] = await tp.db.sql<{ id: string }[]>`
      insert into public.sites (tenant_id, name) values (${t.tenantId}, 'Long reads') returning id`
    const [article] = await tp.db.sql<{ id: string }[]>`
      insert into public.articles (tenant_id, site_id, title, body)
      values (${t.tenantId}, ${site!.id}, 'Long', ${'word '.repeat(10_000)}) returning id`
    const id = await conversation(t)
    llm.reset([
      {
        toolCalls: [
          { name: 'custom-mcp__echo', arguments: { message: 'hello through MCP' } },
          { name: 'platform__get_content', arguments: { type: 'article', id: article!.id } },
        ],
      },
      { text: 'The server echoed it.' },
    ])
    const res = await say(t, id, 'Echo hello')
    expect(res.body.tool_calls.map((c: { status: string }) => c.status)).toEqual(['ok', 'ok'])
    const results = (llm.requests.at(-1)!.body.messages as { role: string; content: unknown }[]).at(-1)!
      .content as { type: string; tool_use_id: string; content: string }[]
    expect(results.map((r) => [r.type, r.tool_use_id])).toEqual([
      ['tool_result', 'toolu_0_custom-m'],
      ['tool_result', 'toolu_1_platform'],
    ])
    expect(results[0]!.content).toContain('hello through MCP')
    expect(results[1]!.content.length).toBeLessThan(16_100)
    expect(results[1]!.content).toMatch(/\[truncated: the result had \d+ characters\]$/)
    const log = await tp.db.sql`select triggered_by, success from public.integration_usage
      where connection_id = ${connected.body.id} and tool_name <> 'tools/list'`
    expect(log.map((l) => [l.triggered_by, l.success])).toEqual([['assistant', true]])
  })

  it('stops a turn at the step limit and tells the model about unknown tools', async () => {
    const t = await tenantWith()
    const id = await conversation(t)
    llm.reset([{ toolCalls: [{ name: 'no_such_tool', arguments: {} }] }])
    const calls = llm.requests.length
    const res = await say(t, id, 'Loop forever')
    expect(res.body.turn).toMatchObject({ status: 'stopped', steps: 8 })
    expect(res.body.turn.error).toContain('limit of 8 model calls')
    expect(llm.requests.length).toBe(calls + 8)
    expect(toolMessages()[0]!.content).toContain('There is no tool named no_such_tool')
  })
})

describe('metering, failures and concurrency', () => {
  const setUsed = (t: TestTenant, units: number) =>
    tp.db.sql`
      insert into public.usage_counters (tenant_id, product_id, period, units)
      values (${t.tenantId}, ${productIds.assistant}, ${periodOf(clock.now())}, ${units})
      on conflict (tenant_id, product_id, period) do update set units = excluded.units`

  it('refuses at the quota exactly (429 before the provider is called) and stops a turn once it is spent', async () => {
    const t = await tenantWith()
    const id = await conversation(t)
    await setUsed(t, 10_000)
    const calls = llm.requests.length
    const refused = await say(t, id, 'hello')
    expect([refused.status, refused.body.code]).toEqual([429, 'QUOTA_EXCEEDED'])
    expect(refused.body.retryAfter).toBeGreaterThan(0)
    expect(refused.body.message).toBe(
      "The free plan's monthly quota for the assistant API is used up (10,000 of 10,000 tokens this month)",
    )
    expect(llm.requests.length).toBe(calls)
    const [stored] = await tp.db.sql<{ count: number }[]>`
      select count(*)::int as count from public.assistant_messages where conversation_id = ${id}`
    expect(stored!.count).toBe(0)

    // Each step reserves its most tokens (its input's bound and the 2,000-token maximum output)
    // before the provider is called, and settles to what the provider reports. Seen while the first
    // call is held: the counter holds the reservation; the tenant is then put where the next
    // step's reservation cannot fit, and the turn stops before calling the provider again.
    await setUsed(t, 0)
    let release = () => {}
    const hold = new Promise<void>((r) => {
      release = r
    })
    llm.reset([
      {
        toolCalls: [{ name: 'platform__list_content', arguments: {} }],
        usage: { input: 100, output: 1_900 },
        hold,
      },
      { text: 'Never sent.' },
    ])
    const pending = say(t, id, 'hello')
    await llm.waitForRequests(calls + 1)
    const [held] = await tp.db.sql<{ units: string }[]>`
      select units from public.usage_counters
      where tenant_id = ${t.tenantId} and product_id = ${productIds.assistant} and period = ${periodOf(clock.now())}`
    const reserved = Number(held!.units)
    expect(reserved).toBeGreaterThan(2_000)
    await setUsed(t, 10_000)
    release()
    const stopped = await pending
    expect(stopped.status).toBe(200)
    expect(stopped.body.turn).toMatchObject({ status: 'stopped', steps: 1 })
    expect(stopped.body.turn.error).toContain('quota for the assistant API is used up')
    expect(stopped.body.quota).toEqual({ used: 10_000 - reserved + 2_000, limit: 10_000 })
    expect(llm.requests.length).toBe(calls + 1)
    expect(stopped.body.tool_calls[0].status).toBe('ok')
  })

  for (const [label, provider, reply, reason] of [
    ['401', 'openai', { status: 401 }, /rejected the API key \(401\)/],
    ['429', 'openai', { status: 429 }, /rate limiting \(429\)/],
    ['500', 'openai', { status: 500 }, /failed \(500\)/],
    ['529', 'anthropic', { status: 529 }, /Anthropic failed \(529\)/],
    [
      'a broken stream',
      'openai',
      { text: 'This answer will break off somewhere in the middle', breakMidStream: true },
      /./,
    ],
  ] as const) {
    it(`reports a provider's ${label} as a failed turn and keeps what was stored`, async () => {
      const t = await tenantWith({ provider })
      const id = await conversation(t)
      llm.reset([{ toolCalls: [{ name: 'platform__list_content', arguments: {} }] }, reply as ScriptedReply])
      const res = await say(t, id, 'Work for me')
      expect(res.status).toBe(200)
      expect(res.body.turn.status).toBe('failed')
      expect(res.body.turn.error).toMatch(reason)
      const detail = await tp.json(`/v1/assistant/conversations/${id}`, { token: t.token })
      expect(detail.body.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant'])
      expect(detail.body.messages[1].tool_calls.map((c: { status: string }) => c.status)).toEqual(['ok'])
      expect(detail.body.turns.map((x: { status: string }) => x.status)).toEqual(['failed'])
      // The conversation goes on.
      llm.reset([{ text: 'Back again.' }])
      expect((await say(t, id, 'Retry')).body.turn.status).toBe('completed')
    })
  }

  it('answers 409 to a second message while a turn runs, on any instance', async () => {
    const t = await tenantWith()
    const id = await conversation(t)
    let release = () => {}
    const hold = new Promise<void>((r) => {
      release = r
    })
    llm.reset([{ text: 'Slow answer.', hold }])
    const n = llm.requests.length
    const first = say(t, id, 'Take your time')
    await llm.waitForRequests(n + 1)
    const second = await say(t, id, 'Me too', 1)
    expect([second.status, second.body.code]).toEqual([409, 'CONFLICT'])
    const midway = await tp.json(`/v1/assistant/conversations/${id}`, { token: t.token, instance: 1 })
    expect(midway.body.turns.map((x: { status: string }) => x.status)).toEqual(['running'])
    release()
    expect((await first).body.turn.status).toBe('completed')
    const [stored] = await tp.db.sql<{ count: number }[]>`
      select count(*)::int as count from public.assistant_messages where conversation_id = ${id} and role = 'user'`
    expect(stored!.count).toBe(1)
  })

  it('resumes a turn whose instance died (lease ran out) on another; the interrupted call is not run again', async () => {
    const t = await tenantWith()
    const id = await conversation(t)
    // What a dead instance leaves: a turn whose job was claimed (lease) and a tool call mid-way.
    const deps = tp.instances[0]!.platform.deps
    const { actingCallerFor } = await import('../shared/infra/caller.ts')
    const { serviceContextFor } = await import('../shared/infra/deps.ts')
    const { startTurn } = await import('../shared/services/assistant/turn/index.ts')
    const ctx = serviceContextFor(deps, await actingCallerFor(deps.sql, t.tenantId, t.userId))
    const started = await startTurn(ctx, id, 'Post to Slack', { triggeredBy: 'assistant' })
    await tp.db.sql`
      update public.jobs set status = 'running', attempts = 1, lease_until = ${new Date(clock.now().getTime() + 360_000)}
      where id = ${started.job.id}`
    const [message] = await tp.db.sql<{ id: string }[]>`
      insert into public.assistant_messages (tenant_id, conversation_id, turn_id, role, content)
      values (${t.tenantId}, ${id}, ${started.turn.id}, 'assistant', '') returning id`
    await tp.db.sql`
      insert into public.assistant_tool_calls (tenant_id, conversation_id, turn_id, message_id, position, provider_call_id, name, tool, arguments, status)
      values (${t.tenantId}, ${id}, ${started.turn.id}, ${message!.id}, 0, 'call_dead', 'slack__post_message', 'slack:post_message', '{}', 'running')`
    await tp.db.sql`update public.assistant_turns set steps = 1 where id = ${started.turn.id}`
    llm.reset([{ text: 'The post may not have gone out; please check.' }])

    const early = await (await tp.instances[1]!.platform.runJob('assistant/jobs/sweep')).json()
    expect(early).toMatchObject({ succeeded: 0 })
    clock.advance(361_000)
    const swept = await (await tp.instances[1]!.platform.runJob('assistant/jobs/sweep')).json()
    expect(swept).toMatchObject({ succeeded: 1 })
    const detail = await tp.json(`/v1/assistant/conversations/${id}`, { token: t.token })
    expect(detail.body.turns[0]).toMatchObject({ status: 'completed', steps: 2 })
    expect(detail.body.messages[1].tool_calls[0]).toMatchObject({ status: 'interrupted' })
    expect(detail.body.messages.at(-1).content).toBe('The post may not have gone out; please check.')
    expect(toolMessages()[0]!.content).toContain('interrupted')
  })
})

describe('approvals', () => {
  it('pauses a call that needs approval; an admin approves it on another instance and the turn resumes there', async () => {
    const t = await tenantWith()
    const member = await addMember(tp, t.tenantId, 'member')
    const connection = await seedSlack(t)
    const set = await tp.json(`/api/connections/${connection}/permissions`, {
      token: t.token,
      body: { tool_name: 'slack:post_message', allowed: true, requires_approval: true },
    })
    expect([set.status, set.body.requires_approval]).toEqual([201, true])
    const id = await conversation(t)
    llm.reset([
      {
        toolCalls: [
          { name: 'slack__post_message', arguments: { channel: 'C012AB3CD', text: 'Ship it' } },
          { name: 'platform__list_content', arguments: {} },
        ],
      },
      { text: 'Posted after approval.' },
    ])
    const before = slackPosts().length
    const events = await sayStreaming(t, id, 'Post "Ship it" to #general')
    const pending = events.find((e) => e.event === 'tool_call.approval_required')!.data
    expect(pending).toMatchObject({
      name: 'slack__post_message',
      arguments: { channel: 'C012AB3CD', text: 'Ship it' },
    })
    expect(events.filter((e) => e.event === 'tool_call.completed').map((e) => e.data.tool)).toEqual([
      'platform:list_content',
    ])
    expect(events.at(-1)!.data.turn.status).toBe('awaiting_approval')
    // Subscribers hear that the turn waits, with the call that waits (not the one that ran).
    const waiting = await tp.db.sql`
      select data from public.event_outbox where tenant_id = ${t.tenantId} and type = 'assistant.approval_required'`
    expect(waiting.map((e) => e.data)).toEqual([
      {
        turn_id: events.at(-1)!.data.turn.id,
        conversation_id: id,
        triggered_by: 'assistant',
        tool_calls: [{ tool_call_id: pending.id, tool: 'slack:post_message' }],
      },
    ])
    expect(slackPosts().length).toBe(before)
    expect((await say(t, id, 'Anything else?')).status).toBe(409)

    const path = `/v1/assistant/conversations/${id}/approvals/${pending.id}`
    const byMember = await tp.json(path, { token: member.token, body: { approve: true } })
    expect([byMember.status, byMember.body.code]).toEqual([403, 'INSUFFICIENT_PERMISSIONS'])
    const calls = llm.requests.length
    const approved = await tp.json(path, { token: t.token, body: { approve: true }, instance: 1 })
    expect(approved.status, JSON.stringify(approved.body)).toBe(200)
    expect(approved.body.turn).toMatchObject({ status: 'completed', steps: 2 })
    expect(approved.body.message.content).toBe('Posted after approval.')
    expect(
      approved.body.tool_calls.map((c: { status: string; decided_by: string | null }) => [
        c.status,
        c.decided_by,
      ]),
    ).toEqual([
      ['ok', t.userId],
      ['ok', null],
    ])
    expect(llm.requests.length).toBe(calls + 1)
    expect(slackPosts().length).toBe(before + 1)
    expect(toolMessages().map((m) => m.content)).toEqual([
      expect.stringContaining('"channel":"C012AB3CD"'),
      expect.any(String),
    ])
    const again = await tp.json(path, { token: t.token, body: { approve: false } })
    expect([again.status, again.body.code]).toEqual([409, 'CONFLICT'])
    const log = await tp.db
      .sql`select triggered_by, user_id, success from public.integration_usage where connection_id = ${connection}`
    expect(log.map((l) => [l.triggered_by, l.user_id, l.success])).toEqual([['assistant', t.userId, true]])
  })

  it('a denied call is told to the model with the reason and never runs', async () => {
    const t = await tenantWith()
    const connection = await seedSlack(t)
    await tp.json(`/api/connections/${connection}/permissions`, {
      token: t.token,
      body: { tool_name: 'slack:post_message', allowed: true, requires_approval: true },
    })
    const id = await conversation(t)
    llm.reset([
      { toolCalls: [{ name: 'slack__post_message', arguments: { channel: 'C012AB3CD', text: 'Oops' } }] },
      { text: 'Understood, I did not post.' },
    ])
    const before = slackPosts().length
    const paused = await say(t, id, 'Post Oops')
    expect(paused.body.turn.status).toBe('awaiting_approval')
    const callId = paused.body.tool_calls[0].id
    const denied = await tp.json(`/v1/assistant/conversations/${id}/approvals/${callId}`, {
      token: t.token,
      body: { approve: false, reason: 'not today' },
    })
    expect(denied.body.turn.status).toBe('completed')
    expect(denied.body.tool_calls[0]).toMatchObject({ status: 'denied', decided_by: t.userId })
    expect(toolMessages()[0]!.content).toBe('Denied by the tenant: not today. Do not retry this call.')
    expect(slackPosts().length).toBe(before)
  })
})

describe('automations', () => {
  it('runs a saved instruction once per slot across instances, as the automation, and waits for approval unattended', async () => {
    const t = await tenantWith()
    const member = await addMember(tp, t.tenantId, 'member')
    const connection = await seedSlack(t)
    const gated = await tp.json(`/api/connections/${connection}/permissions`, {
      token: t.token,
      body: { tool_name: 'slack:list_channels', allowed: true, requires_approval: true },
    })
    expect(gated.status).toBe(201)
    const body = {
      name: 'Morning post',
      instruction: 'Post good morning to #general',
      schedule: '0 8 * * 1-5',
    }
    const bad = await tp.json('/v1/assistant/automations', {
      token: t.token,
      body: { ...body, schedule: 'every day' },
    })
    expect([bad.status, bad.body.details[0].field]).toEqual([400, 'schedule'])
    const byMember = await tp.json('/v1/assistant/automations', { token: member.token, body })
    expect(byMember.status).toBe(403)
    const made = await tp.json('/v1/assistant/automations', { token: t.token, body })
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    clock.set(new Date('2026-11-28T12:00:00.000Z')) // a Saturday
    const patched = await tp.json(`/v1/assistant/automations/${made.body.id}`, {
      method: 'PATCH',
      token: t.token,
      body: { schedule: '0 8 * * 1-5' },
    })
    expect(patched.body.next_run_at).toBe('2026-11-30T08:00:00.000Z') // Monday 08:00 UTC

    llm.reset([
      {
        toolCalls: [
          { name: 'slack__post_message', arguments: { channel: 'C012AB3CD', text: 'Good morning' } },
          { name: 'slack__list_channels', arguments: {} },
        ],
      },
      { text: 'Posted.' },
    ])
    const before = slackPosts().length
    const sweep = (i: number) =>
      tp.instances[i]!.platform.runJob('assistant/jobs/sweep').then((r) => r.json())
    expect((await sweep(0)).scheduled).toBe(0) // not yet due
    clock.set(new Date('2026-11-30T08:00:20.000Z'))
    const reports = await Promise.all([sweep(0), sweep(1), sweep(0)])
    expect(reports.map((r) => r.scheduled).reduce((a, b) => a + b, 0)).toBe(1)

    const runs = await tp.json(`/v1/assistant/automations/${made.body.id}/runs`, { token: t.token })
    expect(runs.body.data).toHaveLength(1)
    const run = runs.body.data[0]
    expect(run).toMatchObject({
      slot: '2026-11-30T08:00:00.000Z',
      status: 'started',
      turn_status: 'awaiting_approval',
    })
    expect(slackPosts().length).toBe(before + 1)
    const conversation = await tp.json(`/v1/assistant/conversations/${run.conversation_id}`, {
      token: t.token,
    })
    expect(conversation.body.title).toBe('Morning post · 2026-11-30 08:00 UTC')
    expect(conversation.body.turns[0]).toMatchObject({
      triggered_by: 'automation',
      status: 'awaiting_approval',
    })
    // An automation's turn is the schedule's: its job names no creator.
    const [turnJob] = await tp.db.sql<{ created_by: string | null }[]>`
      select created_by from public.jobs where kind = 'assistant.turn' and input->>'conversation_id' = ${run.conversation_id}`
    expect(turnJob!.created_by).toBeNull()
    expect(
      conversation.body.messages[1].tool_calls.map((c: { tool: string; status: string }) => [
        c.tool,
        c.status,
      ]),
    ).toEqual([
      ['slack:post_message', 'ok'],
      ['slack:list_channels', 'awaiting_approval'],
    ])
    const log = await tp.db
      .sql`select triggered_by, user_id from public.integration_usage where connection_id = ${connection}`
    expect(log.map((l) => [l.triggered_by, l.user_id])).toEqual([['automation', t.userId]])
    const uses = await tp.db.sql`
      select caller_kind from public.credential_usage where tenant_id = ${t.tenantId} order by used_at`
    expect(uses.map((u) => u.caller_kind)).toEqual(['automation'])

    const listed = await tp.json('/v1/assistant/automations', { token: t.token })
    expect(listed.body.data[0]).toMatchObject({
      next_run_at: '2026-12-01T08:00:00.000Z',
      last_run: { conversation_id: run.conversation_id, turn_status: 'awaiting_approval' },
    })
    // The same slot again (another sweep, later in the minute): nothing new.
    clock.advance(30_000)
    expect((await sweep(1)).scheduled).toBe(0)
    const [count] = await tp.db.sql<{ n: number }[]>`
      select count(*)::int as n from public.assistant_automation_runs where automation_id = ${made.body.id}`
    expect(count!.n).toBe(1)
    expect(
      (await tp.request(`/v1/assistant/automations/${made.body.id}`, { token: t.token, method: 'DELETE' }))
        .status,
    ).toBe(204)
  })
})
