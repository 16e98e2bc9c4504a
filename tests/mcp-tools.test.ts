import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { catalog, integrationBySlug, resolveProviders } from '../shared/services/integrations/catalog.ts'
import { lookupAccount } from '../shared/services/integrations/oauth.ts'
import { type McpTestServer, startMcpServer } from './support/mcp-server.ts'
import {
  setupTimeout,
  startTestPlatform,
  TestClock,
  type TestPlatform,
  type TestTenant,
} from './support/platform.ts'
import { type ProviderServer, startGitHub, startOtherProviders, startSlack } from './support/provider-apis.ts'

/**
 * Integration tools through the tool server: OAuth connections' catalog tools against loopback
 * servers that answer as Slack and GitHub document, an MCP connection proxied to the reference
 * server, decideToolCall's refusals, the one refresh-and-retry, and the usage log.
 */

let tp: TestPlatform
let slack: ProviderServer
let github: ProviderServer
let others: ProviderServer
let everything: McpTestServer
let a: TestTenant
let b: TestTenant
const clock = new TestClock(new Date('2026-11-21T12:00:05.000Z'))
const slackClient = { clientId: 'slack-client', clientSecret: 'slack-secret-0123456789' }
const MCP_TOKEN = 'everything-bearer-token-0123456789'

beforeAll(async () => {
  ;[slack, github, others, everything] = await Promise.all([
    startSlack(slackClient),
    startGitHub(),
    startOtherProviders(),
    startMcpServer({ transport: 'streamableHttp', auth: { type: 'bearer', token: MCP_TOKEN } }),
  ])
  tp = await startTestPlatform({
    instances: 2,
    clock,
    env: {
      MCP_TOOL_TIMEOUT_MS: '1500',
      OAUTH_PROVIDERS_OVERRIDE: JSON.stringify({
        slack: {
          api_base_url: `${slack.url}/api`,
          token_url: `${slack.url}/api/oauth.v2.access`,
          client_id: slackClient.clientId,
          client_secret: slackClient.clientSecret,
        },
        github: { api_base_url: github.url },
        ...Object.fromEntries(
          ['notion', 'linear', 'gmail', 'google-drive', 'google-calendar', 'figma'].map((slug) => [
            slug,
            { api_base_url: '{others}' },
          ]),
        ),
      }).replaceAll('{others}', others.url),
    },
  })
  a = await tp.createTenant()
  b = await tp.createTenant()
}, setupTimeout())
afterAll(async () => {
  await Promise.all([slack?.close(), github?.close(), others?.close(), everything?.close()])
  await tp?.close()
})

async function seedOAuth(
  t: TestTenant,
  slug: string,
  server: ProviderServer,
  opts: { status?: string } = {},
) {
  const entry = integrationBySlug(slug)!
  const vault = tp.instances[0]!.platform.deps.vault
  const token = `${slug}-access-${crypto.randomUUID()}`
  server.validTokens.add(token)
  const access = await vault.encrypt(t.tenantId, token, 'oauth-access-token')
  const refresh = await vault.encrypt(
    t.tenantId,
    `${slug}-refresh-${crypto.randomUUID()}`,
    'oauth-refresh-token',
  )
  const [row] = await tp.db.sql<{ id: string }[]>`
    insert into public.integration_connections
      (tenant_id, integration_id, integration_slug, connection_type, status, external_account_id, external_account_name, scopes,
       access_token_encrypted, refresh_token_encrypted, token_expires_at, created_by)
    values (${t.tenantId}, ${entry.integration_id}, ${slug}, 'oauth', ${opts.status ?? 'active'}, ${`acct-${crypto.randomUUID()}`},
            'Seeded', ${entry.oauth_scopes}, ${access}, ${refresh}, ${new Date(clock.now().getTime() + 86_400_000)}, ${t.userId})
    returning id`
  return { id: row!.id, token }
}

async function toolKey(t: TestTenant, environment = 'development') {
  const res = await tp.json('/api/api-keys', {
    token: t.token,
    body: {
      name: 'agent',
      kind: 'tool_server',
      environment,
      scopes: ['content:read'],
      rate_limit_per_minute: 100,
    },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body.key as string
}

async function mcpClient(key: string, instance = 0) {
  const client = new Client({ name: 'test', version: '1.0.0' })
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${tp.instances[instance]!.baseUrl}/mcp`), {
      requestInit: { headers: { 'x-api-key': key } },
    }),
  )
  return client
}

const usage = (connectionId: string) =>
  tp.db.sql<
    {
      tool_name: string
      action: string
      triggered_by: string
      user_id: string
      success: boolean
      response_time_ms: number
    }[]
  >`select tool_name, action, triggered_by, user_id, success, response_time_ms from public.integration_usage
    where connection_id = ${connectionId} and tool_name <> 'tools/list' order by created_at, id`

const text = (r: object) => JSON.stringify((r as { content?: unknown }).content)

describe('OAuth connection tools', () => {
  let slackConn: { id: string; token: string }
  let githubConn: { id: string; token: string }
  let key: string
  beforeAll(async () => {
    slackConn = await seedOAuth(a, 'slack', slack)
    githubConn = await seedOAuth(a, 'github', github)
    key = await toolKey(a)
  })

  it('lists every active connection tool under MCP-safe names and calls Slack as its API documents', async () => {
    const client = await mcpClient(key)
    const names = (await client.listTools()).tools.map((t) => t.name)
    expect(names).toEqual(
      expect.arrayContaining(['slack__post_message', 'slack__list_channels', 'github__create_issue']),
    )
    const posted = await client.callTool({
      name: 'slack__post_message',
      arguments: { channel: 'C012AB3CD', text: 'Deploy finished' },
    })
    expect(posted.isError, text(posted)).toBeFalsy()
    expect(posted.structuredContent).toEqual({ channel: 'C012AB3CD', ts: '1503435956.000247' })
    const call = slack.received.find((r) => r.path === '/api/chat.postMessage')!
    expect(call.method).toBe('POST')
    expect(call.headers.authorization).toBe(`Bearer ${slackConn.token}`)
    expect(call.headers['content-type']).toContain('application/json')
    expect(JSON.parse(call.body)).toEqual({ channel: 'C012AB3CD', text: 'Deploy finished' })

    const channels = await client.callTool({ name: 'slack:list_channels', arguments: { limit: 10 } })
    expect(
      (channels.structuredContent as { channels: { name: string }[] }).channels.map((c) => c.name),
    ).toEqual(['general', 'random'])
    expect(slack.received.at(-1)!.path).toContain('/api/conversations.list?types=public_channel')
    await client.close()

    const log = await usage(slackConn.id)
    expect(log.map((l) => [l.tool_name, l.action, l.triggered_by, l.user_id, l.success])).toEqual([
      ['slack:post_message', 'write', 'assistant', a.userId, true],
      ['slack:list_channels', 'read', 'assistant', a.userId, true],
    ])
    for (const l of log) expect(l.response_time_ms).toBeGreaterThanOrEqual(0)
  })

  it('creates a GitHub issue and pull request through the REST form, triggered_by from the header', async () => {
    const issue = await tp.json('/mcp/tools/execute', {
      headers: { 'x-api-key': key, 'x-triggered-by': 'automation' },
      body: {
        tool: 'github:create_issue',
        params: { owner: 'octocat', repo: 'hello', title: 'Bug', labels: ['bug'] },
      },
    })
    expect(issue.status, JSON.stringify(issue.body)).toBe(200)
    expect(issue.body.result).toMatchObject({ state: 'open', title: 'Bug' })
    const sent = github.received.at(-1)!
    expect([sent.method, sent.path]).toEqual(['POST', '/repos/octocat/hello/issues'])
    expect(sent.headers.accept).toBe('application/vnd.github+json')
    expect(sent.headers['x-github-api-version']).toBe('2022-11-28')
    expect(JSON.parse(sent.body)).toEqual({ title: 'Bug', labels: ['bug'] })
    const pr = await tp.json('/mcp/tools/execute', {
      headers: { 'x-api-key': key },
      body: {
        tool: 'github__create_pull_request',
        params: { owner: 'octocat', repo: 'hello', title: 'Fix', head: 'fix', base: 'main' },
      },
      instance: 1,
    })
    expect(pr.status).toBe(200)
    expect(pr.body.result.html_url).toMatch(/\/pull\/\d+$/)
    const log = await usage(githubConn.id)
    expect(log.map((l) => [l.tool_name, l.triggered_by, l.success])).toEqual([
      ['github:create_issue', 'automation', true],
      ['github:create_pull_request', 'assistant', true],
    ])
  })

  it('refuses a call outside the restriction (isError on MCP, 403 on REST) and logs it', async () => {
    const set = await tp.json(`/api/connections/${slackConn.id}/permissions`, {
      token: a.token,
      body: { tool_name: 'slack:post_message', allowed: true, restrictions: { channels: ['C012AB3CD'] } },
    })
    expect(set.status, JSON.stringify(set.body)).toBe(201)
    const before = slack.received.length
    const client = await mcpClient(key, 1)
    const refused = await client.callTool({
      name: 'slack__post_message',
      arguments: { channel: 'C0999999999', text: 'x' },
    })
    expect(refused.isError).toBe(true)
    expect(text(refused)).toContain('channel C0999999999 is not in the allowed channels')
    await client.close()
    const rest = await tp.json('/mcp/tools/execute', {
      headers: { 'x-api-key': key },
      body: { tool: 'slack:post_message', params: { channel: 'C0999999999', text: 'x' } },
    })
    expect([rest.status, rest.body.code]).toEqual([403, 'INSUFFICIENT_PERMISSIONS'])
    expect(slack.received.length).toBe(before) // Slack never heard of them
    const log = await usage(slackConn.id)
    expect(log.slice(-2).map((l) => [l.tool_name, l.success])).toEqual([
      ['slack:post_message', false],
      ['slack:post_message', false],
    ])
    await tp.db.sql`delete from public.integration_tool_permissions where connection_id = ${slackConn.id}`
  })

  it('leaves a disabled tool out of tools/list and the REST list, and refuses a call of it by name', async () => {
    const set = await tp.json(`/api/connections/${slackConn.id}/permissions`, {
      token: a.token,
      body: { tool_name: 'slack:search_messages', allowed: false },
    })
    expect(set.status, JSON.stringify(set.body)).toBe(201)
    const client = await mcpClient(key)
    const names = (await client.listTools()).tools.map((t) => t.name)
    expect(names).not.toContain('slack__search_messages')
    expect(names).toEqual(expect.arrayContaining(['slack__post_message', 'slack__list_channels']))
    const rest = await tp.json('/mcp/tools/list', { headers: { 'x-api-key': key } })
    expect(rest.status).toBe(200)
    const restNames = (rest.body.tools as { name: string }[]).map((t) => t.name)
    expect(restNames).not.toContain('slack:search_messages')
    expect(restNames).toContain('slack:list_channels')
    const before = slack.received.length
    const refused = await client.callTool({ name: 'slack__search_messages', arguments: { query: 'x' } })
    expect(refused.isError).toBe(true)
    expect(text(refused)).toContain('disabled on this connection')
    expect(slack.received.length).toBe(before)
    await client.close()
    expect((await usage(slackConn.id)).at(-1)).toMatchObject({
      tool_name: 'slack:search_messages',
      success: false,
    })
    await tp.db.sql`delete from public.integration_tool_permissions where connection_id = ${slackConn.id}`
    const again = await mcpClient(key)
    expect((await again.listTools()).tools.map((t) => t.name)).toContain('slack__search_messages')
    await again.close()
  })

  it('limits a key to its tool subset: tools/list shows only those, a call outside is refused', async () => {
    const make = (body: Record<string, unknown>) =>
      tp.json('/api/api-keys', {
        token: a.token,
        body: {
          name: 'narrow',
          environment: 'development',
          scopes: ['content:read'],
          rate_limit_per_minute: 100,
          ...body,
        },
      })
    const res = await make({
      kind: 'tool_server',
      tool_subset: { connections: [githubConn.id], tools: ['platform:list_content', 'slack__list_channels'] },
    })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    expect(res.body.tool_subset).toEqual({
      connections: [githubConn.id],
      tools: ['platform:list_content', 'slack__list_channels'],
    })
    const client = await mcpClient(res.body.key, 1)
    const names = (await client.listTools()).tools.map((t) => t.name).sort()
    const githubTools = catalog.find((i) => i.slug === 'github')!.tools.map((t) => t.name.replace(':', '__'))
    expect(names).toEqual(['platform__list_content', 'slack__list_channels', ...githubTools].sort())
    const before = slack.received.length
    const outside = await client.callTool({
      name: 'slack__post_message',
      arguments: { channel: 'C012AB3CD', text: 'x' },
    })
    expect(outside.isError).toBe(true)
    expect(text(outside)).toContain('tool subset')
    const platformOutside = await client.callTool({
      name: 'platform__get_content',
      arguments: { type: 'site', id: crypto.randomUUID() },
    })
    expect(platformOutside.isError).toBe(true)
    expect(text(platformOutside)).toContain('tool subset')
    const inside = await client.callTool({ name: 'slack__list_channels', arguments: { limit: 10 } })
    expect(inside.isError, text(inside)).toBeFalsy()
    expect(slack.received.length).toBe(before + 1)
    await client.close()
    expect((await usage(slackConn.id)).slice(-2).map((l) => [l.tool_name, l.success])).toEqual([
      ['slack:post_message', false],
      ['slack:list_channels', true],
    ])
    const rest = await tp.json('/mcp/tools/execute', {
      headers: { 'x-api-key': res.body.key },
      body: { tool: 'slack:post_message', params: { channel: 'C012AB3CD', text: 'x' } },
    })
    expect([rest.status, rest.body.code]).toEqual([403, 'INSUFFICIENT_PERMISSIONS'])
    const listed = await tp.json('/mcp/tools/list', { headers: { 'x-api-key': res.body.key } })
    expect((listed.body.tools as { alias: string }[]).map((t) => t.alias).sort()).toEqual(names)

    // Bad subsets change nothing: another tenant's connection, a platform key, an empty subset.
    const keys = async () => (await tp.db.sql`select count(*)::int as n from public.api_keys`)[0]!.n
    const count = await keys()
    const otherTenants = await seedOAuth(b, 'slack', slack)
    for (const [body, field] of [
      [{ kind: 'tool_server', tool_subset: { connections: [otherTenants.id] } }, 'tool_subset.connections'],
      [
        { kind: 'platform', environment: 'production', tool_subset: { tools: ['platform:list_content'] } },
        'tool_subset',
      ],
      [{ kind: 'tool_server', tool_subset: { connections: [], tools: [] } }, 'tool_subset'],
    ] as const) {
      const bad = await make(body)
      expect([bad.status, bad.body.code], JSON.stringify(bad.body)).toEqual([400, 'VALIDATION_ERROR'])
      expect(bad.body.details.map((d: { field: string }) => d.field)).toContain(field)
    }
    expect(await keys()).toBe(count)
    await tp.db.sql`delete from public.integration_connections where id = ${otherTenants.id}`
  })

  it('refreshes once and retries when the token expires between list and call', async () => {
    const client = await mcpClient(key)
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('slack__post_message')
    slack.validTokens.delete(slackConn.token) // Slack now answers token_expired
    const [before] = await tp.db.sql<{ token_version: number }[]>`
      select token_version from public.integration_connections where id = ${slackConn.id}`
    const result = await client.callTool({
      name: 'slack__post_message',
      arguments: { channel: 'C012AB3CD', text: 'again' },
    })
    expect(result.isError, text(result)).toBeFalsy()
    expect(slack.refreshes).toHaveLength(1)
    const posts = slack.received.filter((r) => r.path === '/api/chat.postMessage').slice(-2)
    expect(posts.map((p) => p.headers.authorization)).toEqual([
      `Bearer ${slackConn.token}`,
      'Bearer xoxe.xoxb-refreshed-1',
    ])
    const [after] = await tp.db.sql<{ token_version: number; refresh_lease: string | null }[]>`
      select token_version, refresh_lease from public.integration_connections where id = ${slackConn.id}`
    expect(after!.token_version).toBe(before!.token_version + 1)
    expect(after!.refresh_lease).toBeNull()
    await client.close()
  })

  it('turns validation failures, provider errors, garbage and hangs into tool errors, never a 500 or a hang', async () => {
    const client = await mcpClient(key)
    const invalid = await client.callTool({ name: 'slack__post_message', arguments: { text: 'no channel' } })
    expect(invalid.isError).toBe(true)
    expect(text(invalid)).toContain('channel')
    const providerError = await client.callTool({
      name: 'slack__post_message',
      arguments: { channel: 'C_MISSING', text: 'x' },
    })
    expect(text(providerError)).toContain('channel_not_found')
    const garbage = await client.callTool({
      name: 'slack__post_message',
      arguments: { channel: 'C_GARBAGE', text: 'x' },
    })
    expect([garbage.isError, text(garbage)]).toEqual([true, expect.stringContaining('not JSON')])
    const started = Date.now()
    const hang = await client.callTool({
      name: 'github__create_issue',
      arguments: { owner: 'o', repo: 'slow', title: 't' },
    })
    expect([hang.isError, text(hang)]).toEqual([true, expect.stringContaining('did not answer in time')])
    // Ended by the configured MCP_TOOL_TIMEOUT_MS (1.5 s), not the default (15 s) or never.
    expect(Date.now() - started).toBeLessThan(15_000)
    const rest = await tp.json('/mcp/tools/execute', {
      headers: { 'x-api-key': key },
      body: { tool: 'slack:post_message', params: { channel: 'C_GARBAGE', text: 'x' } },
    })
    expect([rest.status, rest.body.code]).toEqual([422, 'UNPROCESSABLE'])
    const badParams = await tp.json('/mcp/tools/execute', {
      headers: { 'x-api-key': key },
      body: { tool: 'slack:post_message', params: { channel: 42 } },
    })
    expect([badParams.status, badParams.body.code]).toEqual([400, 'VALIDATION_ERROR'])
    await client.close()
  })

  it('does not offer the tools of a connection that needs re-authorization', async () => {
    const stale = await seedOAuth(b, 'slack', slack, { status: 'needs_reauth' })
    const keyB = await toolKey(b)
    const client = await mcpClient(keyB)
    expect((await client.listTools()).tools.map((t) => t.name).filter((n) => n.startsWith('slack'))).toEqual(
      [],
    )
    const call = await client.callTool({
      name: 'slack__post_message',
      arguments: { channel: 'C012AB3CD', text: 'x' },
    })
    expect(call.isError).toBe(true)
    expect(text(call)).toContain('re-authorized')
    await client.close()
    const log = await usage(stale.id)
    expect(log.map((l) => [l.tool_name, l.success])).toEqual([['slack:post_message', false]])
    await tp.db.sql`delete from public.integration_connections where id = ${stale.id}`
  })

  it('names the tools of two connections of one integration apart, and calls the one named', async () => {
    const one = await seedOAuth(b, 'github', github)
    const two = await seedOAuth(b, 'github', github)
    const keyB = await toolKey(b)
    const client = await mcpClient(keyB)
    const names = (await client.listTools()).tools.map((t) => t.name).filter((n) => n.startsWith('github'))
    const short = (id: string) => id.replace(/-/g, '').slice(0, 8)
    expect(names).toContain(`github_${short(one.id)}__create_issue`)
    expect(names).toContain(`github_${short(two.id)}__create_issue`)
    for (const n of names) expect(n).toMatch(/^[a-zA-Z0-9_-]{1,64}$/)
    const r = await client.callTool({
      name: `github_${short(two.id)}__create_issue`,
      arguments: { owner: 'o', repo: 'r', title: 'to two' },
    })
    expect(r.isError, text(r)).toBeFalsy()
    expect(github.received.at(-1)!.headers.authorization).toBe(`Bearer ${two.token}`)
    const rest = await tp.json('/mcp/tools/list', { headers: { 'x-api-key': keyB } })
    expect(rest.body.tools.map((t: { name: string }) => t.name)).toContain(
      `github@${short(one.id)}:create_issue`,
    )
    const ambiguous = await client.callTool({
      name: 'github__create_issue',
      arguments: { owner: 'o', repo: 'r', title: 'x' },
    })
    expect(ambiguous.isError).toBe(true)
    await client.close()
  })
})

describe('the other providers, as their APIs document', () => {
  it('sends each documented request and reads each documented answer', async () => {
    for (const slug of ['notion', 'linear', 'gmail', 'google-drive', 'google-calendar', 'figma'])
      await seedOAuth(a, slug, others)
    const key = await toolKey(a)
    const run = async (tool: string, params: Record<string, unknown>) => {
      const res = await tp.json('/mcp/tools/execute', {
        headers: { 'x-api-key': key },
        body: { tool, params },
      })
      expect(res.status, `${tool}: ${JSON.stringify(res.body)}`).toBe(200)
      return { result: res.body.result, sent: others.received.at(-1)! }
    }
    const page = await run('notion:create_page', {
      database_id: 'd9824bdc84454327be8b5b47500af6ce',
      title: 'Plan',
      content: 'One\n\nTwo',
    })
    expect(page.result.id).toBe('59833787-2cf9-4fdf-8782-e53db20768a5')
    expect(page.sent.headers['notion-version']).toBe('2022-06-28')
    expect(JSON.parse(page.sent.body)).toMatchObject({
      parent: { database_id: 'd9824bdc84454327be8b5b47500af6ce' },
      properties: { title: { title: [{ text: { content: 'Plan' } }] } },
      children: [{ type: 'paragraph' }, { type: 'paragraph' }],
    })
    const issue = await run('linear:create_issue', { team_id: 'team1', title: 'Broken build', priority: 1 })
    expect(issue.result.identifier).toBe('ENG-42')
    expect(JSON.parse(issue.sent.body).variables.input).toEqual({
      teamId: 'team1',
      title: 'Broken build',
      priority: 1,
    })
    const mail = await run('gmail:send_email', { to: ['ann@example.com'], subject: 'Grüße', body: 'Hi' })
    expect(mail.result.id).toBe('18c1f')
    const raw = JSON.parse(mail.sent.body).raw as string
    const decoded = Buffer.from(raw, 'base64url').toString('utf8')
    expect(decoded).toContain('To: ann@example.com')
    expect(decoded).toContain(`Subject: =?UTF-8?B?${Buffer.from('Grüße').toString('base64')}?=`)
    const event = await run('google-calendar:create_event', {
      summary: 'Review',
      start: '2026-11-24T10:00:00Z',
      end: '2026-11-24T11:00:00Z',
      attendees: ['bob@example.com'],
    })
    expect(event.result.id).toBe('evt1')
    expect(JSON.parse(event.sent.body)).toEqual({
      summary: 'Review',
      start: { dateTime: '2026-11-24T10:00:00Z' },
      end: { dateTime: '2026-11-24T11:00:00Z' },
      attendees: [{ email: 'bob@example.com' }],
    })
    const file = await run('google-drive:read_file', { file_id: 'doc1' })
    expect(file.result).toMatchObject({ name: 'Notes', content: 'Hello from Drive' })
    expect(file.sent.path).toBe('/drive/v3/files/doc1/export?mimeType=text%2Fplain')
    const images = await run('figma:export_assets', { file_key: 'FILEKEY', node_ids: ['1:2'], format: 'png' })
    expect(images.result.images['1:2']).toContain('.png')
    expect(images.sent.path).toBe('/v1/images/FILEKEY?ids=1%3A2&format=png')
  })
})

/**
 * Every tool of the catalog, executed once against its provider's loopback server: the request the
 * provider documents (method and path) and the answer read from its documented response. A tool
 * added to the catalog without a case here fails the first test.
 */
const toolCases: Record<
  string,
  { args: Record<string, unknown>; request: string; result: unknown; server: () => ProviderServer }
> = {
  'slack:post_message': {
    server: () => slack,
    args: { channel: 'C012AB3CD', text: 'Hi' },
    request: 'POST /api/chat.postMessage',
    result: { channel: 'C012AB3CD', ts: '1503435956.000247' },
  },
  'slack:list_channels': {
    server: () => slack,
    args: { limit: 5 },
    request: 'GET /api/conversations.list?types=public_channel&exclude_archived=true&limit=5',
    result: {
      channels: [
        { id: 'C012AB3CD', name: 'general', is_member: true, num_members: 4 },
        { id: 'C061EG9T2', name: 'random', is_member: false, num_members: 4 },
      ],
      next_cursor: null,
    },
  },
  'slack:search_messages': {
    server: () => slack,
    args: { query: 'deploy', count: 5 },
    request: 'GET /api/search.messages?query=deploy&count=5',
    result: {
      total: 1,
      matches: [
        {
          channel: 'C012AB3CD',
          ts: '1503435956.000247',
          text: 'found: deploy',
          user: 'U012AB3CD',
          permalink: 'https://example.slack.com/archives/C012AB3CD/p1503435956000247',
        },
      ],
    },
  },
  'github:create_issue': {
    server: () => github,
    args: { owner: 'octocat', repo: 'Hello-World', title: 'Bug' },
    request: 'POST /repos/octocat/Hello-World/issues',
    result: { state: 'open', title: 'Bug' },
  },
  'github:create_pull_request': {
    server: () => github,
    args: { owner: 'octocat', repo: 'Hello-World', title: 'Fix', head: 'fix', base: 'main' },
    request: 'POST /repos/octocat/Hello-World/pulls',
    result: { state: 'open', title: 'Fix' },
  },
  'github:list_repositories': {
    server: () => github,
    args: { org: 'acme' },
    request: 'GET /orgs/acme/repos?per_page=100',
    result: {
      repositories: [
        {
          full_name: 'acme/Spoon-Knife',
          private: false,
          html_url: 'https://github.com/octocat/Hello-World',
          default_branch: 'main',
        },
      ],
    },
  },
  'github:get_repository': {
    server: () => github,
    args: { owner: 'octocat', repo: 'Hello-World' },
    request: 'GET /repos/octocat/Hello-World',
    result: {
      full_name: 'octocat/Hello-World',
      description: 'This your first repo!',
      private: false,
      html_url: 'https://github.com/octocat/Hello-World',
      default_branch: 'main',
      open_issues_count: 3,
      stargazers_count: 80,
    },
  },
  'notion:create_page': {
    server: () => others,
    args: { database_id: 'db1', title: 'Plan' },
    request: 'POST /v1/pages',
    result: { id: '59833787-2cf9-4fdf-8782-e53db20768a5', url: 'https://www.notion.so/p' },
  },
  'notion:search': {
    server: () => others,
    args: { query: 'roadmap', page_size: 10 },
    request: 'POST /v1/search',
    result: {
      results: [
        { object: 'page', id: 'b55c9c91-384d-452b-81db-d1ef79372b75', url: 'https://www.notion.so/roadmap' },
      ],
      next_cursor: null,
    },
  },
  'notion:query_database': {
    server: () => others,
    args: { database_id: 'db1', page_size: 1 },
    request: 'POST /v1/databases/db1/query',
    result: {
      results: [
        {
          id: '2e01e904-febd-43a0-ad02-8eedb903a82c',
          url: 'https://www.notion.so/row',
          properties: { Name: { id: 'title', type: 'title', title: [{ plain_text: 'Row one' }] } },
        },
      ],
      next_cursor: 'cursor-2',
    },
  },
  'linear:create_issue': {
    server: () => others,
    args: { team_id: 'team1', title: 'Broken' },
    request: 'POST /graphql',
    result: { id: 'a1b2', identifier: 'ENG-42', title: 'Broken', url: 'https://linear.app/i/ENG-42' },
  },
  'linear:list_projects': {
    server: () => others,
    args: { team_id: 'team1', first: 5 },
    request: 'POST /graphql',
    result: {
      projects: [{ id: 'p1', name: 'Team team1', state: 'started', url: 'https://linear.app/p/launch' }],
    },
  },
  'figma:get_file': {
    server: () => others,
    args: { file_key: 'FILEKEY', depth: 1 },
    request: 'GET /v1/files/FILEKEY?depth=1',
    result: {
      name: 'Design',
      last_modified: '2026-11-20T09:00:00Z',
      version: '123',
      document: { id: '0:0', name: 'Document', type: 'DOCUMENT', children: [] },
    },
  },
  'figma:export_assets': {
    server: () => others,
    args: { file_key: 'FILEKEY', node_ids: ['1:2'] },
    request: 'GET /v1/images/FILEKEY?ids=1%3A2&format=png',
    result: { images: { '1:2': 'https://figma-alpha-api.s3/1-2.png' } },
  },
  'gmail:send_email': {
    server: () => others,
    args: { to: ['ann@example.com'], subject: 'Hi', body: 'Hello' },
    request: 'POST /gmail/v1/users/me/messages/send',
    result: { id: '18c1f', thread_id: '18c1f' },
  },
  'gmail:read_email': {
    server: () => others,
    args: { message_id: '18c1f' },
    request: 'GET /gmail/v1/users/me/messages/18c1f?format=full',
    result: {
      id: '18c1f',
      thread_id: '18c1f',
      snippet: 'Hello there',
      from: 'Ann <ann@example.com>',
      to: 'bob@example.com',
      subject: 'Hello',
      date: 'Tue, 24 Nov 2026 10:00:00 +0000',
      body: 'Hello there, Grüße',
    },
  },
  'gmail:search_email': {
    server: () => others,
    args: { query: 'from:ann', max_results: 5 },
    request: 'GET /gmail/v1/users/me/messages?q=from%3Aann&maxResults=5',
    result: { messages: [{ id: '18c1f', threadId: '18c1f' }], result_size_estimate: 1 },
  },
  'google-drive:read_file': {
    server: () => others,
    args: { file_id: 'doc1' },
    request: 'GET /drive/v3/files/doc1/export?mimeType=text%2Fplain',
    result: {
      id: 'doc1',
      name: 'Notes',
      mime_type: 'application/vnd.google-apps.document',
      modified_time: null,
      content: 'Hello from Drive',
    },
  },
  'google-drive:write_file': {
    server: () => others,
    args: { file_id: 'doc1', name: 'Notes.txt', content: 'New text' },
    request: 'PATCH /upload/drive/v3/files/doc1?uploadType=multipart&fields=id%2Cname%2CmimeType',
    result: { id: 'doc1', name: 'Notes.txt', mime_type: 'text/plain' },
  },
  'google-drive:share_file': {
    server: () => others,
    args: { file_id: 'doc1', email: 'bob@example.com', role: 'reader' },
    request: 'POST /drive/v3/files/doc1/permissions?sendNotificationEmail=true',
    result: { permission_id: 'perm1', role: 'reader' },
  },
  'google-calendar:list_events': {
    server: () => others,
    args: { time_min: '2026-11-24T00:00:00Z' },
    request:
      'GET /calendar/v3/calendars/primary/events?timeMin=2026-11-24T00%3A00%3A00Z&singleEvents=true&orderBy=startTime&maxResults=250',
    result: {
      events: [
        {
          id: 'evt1',
          summary: 'Review',
          start: '2026-11-24T10:00:00Z',
          end: '2026-11-24T11:00:00Z',
          html_link: 'https://calendar.google.com/e',
        },
        { id: 'evt2', summary: null, start: '2026-11-25', end: '2026-11-26', html_link: null },
      ],
    },
  },
  'google-calendar:create_event': {
    server: () => others,
    args: { summary: 'Review', start: '2026-11-24T10:00:00Z', end: '2026-11-24T11:00:00Z' },
    request: 'POST /calendar/v3/calendars/primary/events',
    result: { id: 'evt1', html_link: 'https://calendar.google.com/e', status: 'confirmed' },
  },
}

describe('every catalog tool, executed', () => {
  it('has a case for every tool of the catalog', () => {
    const tools = catalog.flatMap((e) => e.tools.map((t) => t.name)).sort()
    expect(tools.length).toBeGreaterThanOrEqual(22)
    expect(Object.keys(toolCases).sort(), 'add the tool to toolCases').toEqual(tools)
  })

  it('sends the documented request and returns what it read from the documented answer', async () => {
    const t = await tp.createTenant()
    const servers = { slack: () => slack, github: () => github }
    for (const entry of catalog.filter((e) => e.tools.length > 0))
      await seedOAuth(t, entry.slug, (servers[entry.slug as keyof typeof servers] ?? (() => others))())
    const key = await toolKey(t)
    for (const [tool, c] of Object.entries(toolCases)) {
      const received = c.server().received
      const before = received.length
      const res = await tp.json('/mcp/tools/execute', {
        headers: { 'x-api-key': key },
        body: { tool, params: c.args },
      })
      expect(res.status, `${tool}: ${JSON.stringify(res.body)}`).toBe(200)
      expect(res.body.result, tool).toMatchObject(c.result as object)
      const sent = received.slice(before).map((r) => `${r.method} ${r.path}`)
      expect(sent, tool).toContain(c.request)
    }
    const [logged] = await tp.db.sql<{ n: number }[]>`
      select count(distinct tool_name)::int as n from public.integration_usage
      where tenant_id = ${t.tenantId} and success and tool_name <> 'tools/list'`
    expect(logged!.n).toBe(Object.keys(toolCases).length)
  })
})

describe('the account lookup after consent', () => {
  /** What each provider names as the connected account: from its token response or its API. */
  const accounts: Record<string, { raw?: Record<string, unknown>; id: string; name: string }> = {
    notion: { raw: { workspace_id: 'ws-1', workspace_name: 'Acme Notes' }, id: 'ws-1', name: 'Acme Notes' },
    slack: { raw: { team: { id: 'T012AB3C4', name: 'Acme' } }, id: 'T012AB3C4', name: 'Acme' },
    github: { id: '583231', name: 'octocat' },
    linear: { id: 'org-1', name: 'Acme' },
    figma: { id: '99887766', name: 'ann' },
    gmail: { id: 'ann@example.com', name: 'ann@example.com' },
    'google-drive': { id: '0123456789', name: 'ann@example.com' },
    'google-calendar': { id: 'ann@example.com', name: 'Ann Example' },
  }

  it('reads the account of every OAuth provider from where the provider documents it', async () => {
    const deps = tp.instances[0]!.platform.deps
    const providers = resolveProviders(deps.config)
    const oauthSlugs = catalog.filter((e) => e.oauth).map((e) => e.slug)
    expect(Object.keys(accounts).sort(), 'add the provider to accounts').toEqual(oauthSlugs.sort())
    for (const slug of oauthSlugs) {
      const token = `${slug}-lookup-${crypto.randomUUID()}`
      github.validTokens.add(token)
      const expected = accounts[slug]!
      const account = await lookupAccount(deps, providers.get(slug)!, {
        accessToken: token,
        refreshToken: null,
        expiresAt: null,
        scopes: null,
        raw: expected.raw ?? { access_token: token },
      })
      expect(account, slug).toEqual({ id: expected.id, name: expected.name })
    }
  })
})

describe('MCP connection tools', () => {
  it('lists the discovered tools and proxies tools/call to the connected server with its auth', async () => {
    const connected = await tp.json('/api/integrations/connect', {
      token: a.token,
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
    const key = await toolKey(a)
    const client = await mcpClient(key, 1)
    const names = (await client.listTools()).tools.map((t) => t.name)
    expect(names).toContain('custom-mcp__echo')
    const refusedBefore = everything.refused
    const echoed = await client.callTool({
      name: 'custom-mcp__echo',
      arguments: { message: 'hello through the proxy' },
    })
    expect(echoed.isError, text(echoed)).toBeFalsy()
    expect(text(echoed)).toContain('hello through the proxy')
    expect(everything.refused).toBe(refusedBefore)
    const bad = await client.callTool({ name: 'custom-mcp__echo', arguments: { message: 42 } })
    expect(bad.isError).toBe(true)
    await client.close()
    const log = await usage(connected.body.id)
    expect(log.map((l) => [l.tool_name, l.success])).toEqual([
      ['custom-mcp:echo', true],
      ['custom-mcp:echo', false],
    ])
  })
})
