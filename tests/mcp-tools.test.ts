import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { integrationBySlug } from '../shared/services/integrations/catalog.ts'
import { type McpTestServer, startMcpServer } from './support/mcp-server.ts'
import { startTestPlatform, TestClock, type TestPlatform, type TestTenant } from './support/platform.ts'
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
}, 60_000)
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
    expect(Date.now() - started).toBeLessThan(5000)
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
