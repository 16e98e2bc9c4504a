import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
} from '@modelcontextprotocol/client'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { encode } from 'gpt-tokenizer'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { integrationBySlug } from '../shared/services/integrations/catalog.ts'
import { setupTimeout, startTestPlatform, type TestPlatform, type TestTenant } from './support/platform.ts'
import { type ProviderServer, startGitHub, startOtherProviders, startSlack } from './support/provider-apis.ts'

/**
 * Tool search (ADR 0043), over real HTTP with the SDK's v2 client on 2026-07-28 and the v1 client
 * on 2025-11-25: a tool-server key created with tool_listing 'search' is offered search_tools and
 * call_tool instead of every tool; call_tool runs the same path as a direct call (permissions,
 * the usage log); and the tokens the tools/list answer costs a client's context, with and without
 * search, for a tenant with five connections.
 */

let tp: TestPlatform
let slack: ProviderServer
let github: ProviderServer
let others: ProviderServer
let a: TestTenant
let allKey: string
let searchKey: string
const slackConn: { id?: string } = {}
const slackClient = { clientId: 'slack-client', clientSecret: 'slack-secret-0123456789' }
const FIVE = ['slack', 'github', 'notion', 'linear', 'gmail']

beforeAll(async () => {
  ;[slack, github, others] = await Promise.all([
    startSlack(slackClient),
    startGitHub(),
    startOtherProviders(),
  ])
  tp = await startTestPlatform({
    env: {
      OAUTH_PROVIDERS_OVERRIDE: JSON.stringify({
        slack: {
          api_base_url: `${slack.url}/api`,
          token_url: `${slack.url}/api/oauth.v2.access`,
          client_id: slackClient.clientId,
          client_secret: slackClient.clientSecret,
        },
        github: { api_base_url: github.url },
        notion: { api_base_url: others.url },
        linear: { api_base_url: others.url },
        gmail: { api_base_url: others.url },
      }),
    },
  })
  a = await tp.createTenant()
  const vault = tp.instances[0]!.platform.deps.vault
  for (const slug of FIVE) {
    const entry = integrationBySlug(slug)!
    const token = `${slug}-access-${crypto.randomUUID()}`
    for (const server of [slack, github, others]) server.validTokens.add(token)
    const [row] = await tp.db.sql<{ id: string }[]>`
      insert into public.integration_connections
        (tenant_id, integration_id, integration_slug, connection_type, status, external_account_id, external_account_name, scopes,
         access_token_encrypted, token_expires_at, created_by)
      values (${a.tenantId}, ${entry.integration_id}, ${slug}, 'oauth', 'active', ${`acct-${crypto.randomUUID()}`},
              'Seeded', ${entry.oauth_scopes}, ${await vault.encrypt(a.tenantId, token, 'oauth-access-token')},
              ${new Date(Date.now() + 86_400_000)}, ${a.userId})
      returning id`
    if (slug === 'slack') slackConn.id = row!.id
  }
  allKey = await toolKey({})
  searchKey = await toolKey({ tool_listing: 'search' })
}, setupTimeout())
afterAll(async () => {
  await Promise.all([slack?.close(), github?.close(), others?.close()])
  await tp?.close()
})

async function toolKey(extra: Record<string, unknown>): Promise<string> {
  const res = await tp.json('/api/api-keys', {
    token: a.token,
    body: {
      name: 'agent',
      kind: 'tool_server',
      environment: 'development',
      scopes: ['content:read', 'content:write'],
      rate_limit_per_minute: 100,
      ...extra,
    },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  expect(res.body.tool_listing).toBe(extra.tool_listing ?? 'all')
  return res.body.key
}

const mcpUrl = () => new URL(`${tp.baseUrl}/mcp`)
const headers = (key: string) => ({ requestInit: { headers: { 'x-api-key': key } } })

async function v2(key: string) {
  const client = new ClientV2(
    { name: 'v2', version: '2.4.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } as never },
  )
  await client.connect(new TransportV2(mcpUrl(), headers(key)))
  return client
}

async function v1(key: string) {
  const client = new Client({ name: 'v1', version: '1' })
  await client.connect(new StreamableHTTPClientTransport(mcpUrl(), headers(key)))
  return client
}

const json = (r: { structuredContent?: unknown; content?: unknown }) =>
  (r.structuredContent ?? JSON.parse((r.content as { text: string }[])[0]!.text)) as {
    total: number
    tools: { name: string; integration: string; inputSchema: object }[]
  }

const usage = (connectionId: string) =>
  tp.db.sql<{ tool_name: string; success: boolean }[]>`
    select tool_name, success from public.integration_usage where connection_id = ${connectionId} order by created_at`

describe('a key with tool_listing search', () => {
  it('is offered search_tools and call_tool only, by the v2 and the v1 client', async () => {
    for (const client of [await v2(searchKey), await v1(searchKey)]) {
      const { tools } = await client.listTools()
      expect(tools.map((t) => t.name)).toEqual(['search_tools', 'call_tool'])
      await client.close()
    }
    const all = await v2(allKey)
    const { tools } = await all.listTools()
    expect(tools.some((t) => t.name === 'slack__post_message')).toBe(true)
    expect(tools.some((t) => t.name === 'search_tools')).toBe(false)
    await all.close()
  })

  it('finds tools by words and by integration, with what it takes to call them', async () => {
    const client = await v2(searchKey)
    const found = json(await client.callTool({ name: 'search_tools', arguments: { query: 'post message' } }))
    expect(found.tools[0]).toMatchObject({ name: 'slack__post_message', integration: 'slack' })
    expect(found.tools[0]!.inputSchema).toMatchObject({ type: 'object' })
    const github = json(
      await client.callTool({ name: 'search_tools', arguments: { integration: 'github', limit: 50 } }),
    )
    expect(github.tools.length).toBeGreaterThan(0)
    expect(github.tools.every((t) => t.integration === 'github')).toBe(true)
    const none = json(await client.callTool({ name: 'search_tools', arguments: { query: 'zzzqqq' } }))
    expect(none).toEqual({ total: 0, tools: [] })
    const bad = await client.callTool({ name: 'search_tools', arguments: { limit: 500 } })
    expect(bad.isError).toBe(true)
    await client.close()
  })

  it('calls what it found through the same path as a direct call: permissions and the usage log', async () => {
    const before = (await usage(slackConn.id!)).length
    const client = await v1(searchKey)
    const args = { channel: 'C012AB3CD', text: 'hello' }
    const ok = await client.callTool({
      name: 'call_tool',
      arguments: { name: 'slack__post_message', arguments: args },
    })
    expect(ok.isError ?? false).toBe(false)

    const set = await tp.json(`/api/connections/${slackConn.id}/permissions`, {
      token: a.token,
      body: { tool_name: 'slack:post_message', allowed: true, restrictions: { channels: ['C012AB3CD'] } },
    })
    expect(set.status, JSON.stringify(set.body)).toBe(201)
    const outside = { channel: 'C0999999999', text: 'x' }
    const viaSearch = await client.callTool({
      name: 'call_tool',
      arguments: { name: 'slack__post_message', arguments: outside },
    })
    const direct = await client.callTool({ name: 'slack__post_message', arguments: outside })
    expect(viaSearch.isError).toBe(true)
    expect(viaSearch.content).toEqual(direct.content)
    expect((viaSearch.content as { text: string }[])[0]!.text).toContain('not in the allowed channels')
    await tp.db.sql`delete from public.integration_tool_permissions where connection_id = ${slackConn.id!}`

    const log = (await usage(slackConn.id!)).slice(before)
    expect(log).toEqual([
      { tool_name: 'slack:post_message', success: true },
      { tool_name: 'slack:post_message', success: false },
      { tool_name: 'slack:post_message', success: false },
    ])
    const unknown = await client.callTool({ name: 'call_tool', arguments: { name: 'nosuch__tool' } })
    expect(unknown.isError).toBe(true)
    expect((unknown.content as { text: string }[])[0]!.text).toContain('find tools with search_tools')
    await client.close()
  })

  it('takes tool_listing on tool-server keys only, and a known value only; a refused key is not made', async () => {
    const count = async () =>
      (
        await tp.db.sql<
          { n: number }[]
        >`select count(*)::int as n from public.api_keys where tenant_id = ${a.tenantId}`
      )[0]!.n
    const keys = await count()
    const body = {
      name: 'k',
      environment: 'development',
      scopes: ['content:read'],
      rate_limit_per_minute: 60,
    }
    const platform = await tp.json('/api/api-keys', {
      token: a.token,
      body: { ...body, kind: 'platform', tool_listing: 'search' },
    })
    expect([platform.status, platform.body.code]).toEqual([400, 'VALIDATION_ERROR'])
    const unknown = await tp.json('/api/api-keys', {
      token: a.token,
      body: { ...body, kind: 'tool_server', tool_listing: 'some' },
    })
    expect([unknown.status, unknown.body.code]).toEqual([400, 'VALIDATION_ERROR'])
    expect(await count()).toBe(keys)
  })

  it('measures the tokens of tools/list with and without search for five connections', async () => {
    const tokens = async (key: string) => {
      const client = await v2(key)
      const { tools } = await client.listTools()
      await client.close()
      return { tools: tools.length, tokens: encode(JSON.stringify({ tools })).length }
    }
    const all = await tokens(allKey)
    const search = await tokens(searchKey)
    // The figures in docs/mcp.md ("Tool search"); o200k_base, the JSON of tools/list's tools.
    console.info(`tools/list for ${FIVE.join(', ')} and the platform: ${JSON.stringify({ all, search })}`)
    expect(search.tools).toBe(2)
    expect(search.tokens * 5).toBeLessThan(all.tokens)
  })
})
