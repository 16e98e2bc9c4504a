import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withTenant } from '../shared/infra/db.ts'
import { catalog, integrationBySlug, toolAlias } from '../shared/services/integrations/catalog.ts'
import {
  decideToolCall,
  parseRestrictions,
  restrictionSchemas,
} from '../shared/services/integrations/permissions.ts'
import { restrictionKinds } from '../shared/services/integrations/restriction-kinds.ts'
import { recordIntegrationCall } from '../shared/services/integrations/usage-log.ts'
import {
  addMember,
  setupTimeout,
  startTestPlatform,
  TestClock,
  type TestPlatform,
  type TestTenant,
} from './support/platform.ts'
import { seedEveryTenantTable } from './support/tenant-fixtures.ts'

let tp: TestPlatform
let a: TestTenant
let b: TestTenant
const clock = new TestClock()

beforeAll(async () => {
  tp = await startTestPlatform({ clock })
  a = await tp.createTenant()
  b = await tp.createTenant()
}, setupTimeout())
afterAll(() => tp?.close())

const claimsOf = (t: TestTenant) => ({
  sub: t.userId,
  role: 'authenticated' as const,
  app_metadata: { tenant_id: t.tenantId },
})

/** Seeds an OAuth connection the way the callback stores one (tokens encrypted). */
async function seedOAuth(
  t: TestTenant,
  slug: string,
  opts: { scopes?: string[]; status?: string; account?: string } = {},
) {
  const entry = integrationBySlug(slug)!
  const vault = tp.instances[0]!.platform.deps.vault
  const access = await vault.encrypt(
    t.tenantId,
    `access-${slug}-plaintext-${Math.random()}`,
    'oauth-access-token',
  )
  const refresh = await vault.encrypt(
    t.tenantId,
    `refresh-${slug}-plaintext-${Math.random()}`,
    'oauth-refresh-token',
  )
  const [row] = await tp.db.sql<{ id: string }[]>`
    insert into public.integration_connections
      (tenant_id, integration_id, integration_slug, connection_type, status, external_account_id, external_account_name, scopes,
       access_token_encrypted, refresh_token_encrypted, token_expires_at, created_by)
    values (${t.tenantId}, ${entry.integration_id}, ${slug}, 'oauth', ${opts.status ?? 'active'}, ${opts.account ?? `acct-${Math.random()}`},
            'Seeded', ${opts.scopes ?? entry.oauth_scopes}, ${access}, ${refresh}, ${new Date(clock.now().getTime() + 86_400_000)}, ${t.userId})
    returning id`
  return row!.id
}

describe('GET /api/integrations (catalog)', () => {
  it("lists the spec's eight OAuth kinds with exactly its scopes and capabilities", async () => {
    const res = await tp.json('/api/integrations', { token: a.token })
    expect(res.status).toBe(200)
    const byKind = Object.fromEntries(res.body.data.map((e: { kind: string }) => [e.kind, e]))
    const spec: [string, string[], string[]][] = [
      [
        'notes workspace',
        ['create pages', 'search', 'read databases'],
        ['read_content', 'update_content', 'insert_content'],
      ],
      [
        'team chat',
        ['post messages', 'read channels', 'search'],
        ['chat:write', 'channels:read', 'search:read'],
      ],
      ['cloud drive', ['read files', 'write files', 'share files'], ['drive.file', 'drive.readonly']],
      ['code hosting', ['create issues', 'create pull requests', 'read repos'], ['repo', 'read:org']],
      ['issue tracker', ['create issues', 'read projects'], ['read', 'write']],
      ['design tool', ['read designs', 'export assets'], ['file_read']],
      ['e-mail', ['send', 'read', 'search'], ['mail.send', 'mail.readonly']],
      ['calendar', ['read events', 'create events'], ['calendar.events']],
    ]
    for (const [kind, capabilities, scopes] of spec) {
      const entry = byKind[kind]
      expect(entry, kind).toBeDefined()
      expect(entry.connection_types).toContain('oauth')
      expect(entry.capabilities).toEqual(capabilities)
      expect(entry.oauth_scopes).toEqual(scopes)
      expect(entry.integration_id).toMatch(/^[0-9a-f-]{36}$/)
      expect(entry.tools.length).toBeGreaterThanOrEqual(2)
      for (const tool of entry.tools) {
        expect(tool.name.startsWith(`${entry.slug}:`)).toBe(true)
        expect(tool.alias).toMatch(/^[A-Za-z0-9_-]{1,64}$/)
        expect(tool.inputSchema.type).toBe('object')
        expect(tool.description.length).toBeGreaterThan(0)
      }
    }
    expect(
      res.body.data.filter((e: { connection_types: string[] }) => e.connection_types.includes('oauth')),
    ).toHaveLength(8)
    expect(JSON.stringify(res.body)).not.toMatch(/client_secret|clientSecret/)
  })

  it('lists the three MCP integration types and every spec category, custom included', async () => {
    const res = await tp.json('/api/integrations', { token: a.token })
    const mcpTypes = res.body.data
      .filter((e: { mcp_type: string | null }) => e.mcp_type)
      .map((e: { mcp_type: string }) => e.mcp_type)
    expect(mcpTypes.sort()).toEqual(['official', 'self_hosted', 'webhook'])
    expect(res.body.categories.map((c: { slug: string }) => c.slug)).toEqual([
      'productivity',
      'development',
      'office-suite',
      'communication',
      'storage',
      'design',
      'analytics',
      'crm',
      'ecommerce',
      'custom',
    ])
    expect(res.body.categories.find((c: { slug: string }) => c.slug === 'custom').integrations).toBe(2)
    const ids = res.body.data.map((e: { integration_id: string }) => e.integration_id)
    expect(new Set(ids).size).toBe(ids.length)
  })

  it('needs a signed-in user', async () => {
    expect((await tp.json('/api/integrations')).status).toBe(401)
  })

  it('makes aliases safe for model APIs and unique across the catalog', () => {
    const aliases = catalog.flatMap((e) => e.tools.map((t) => toolAlias(t.name)))
    expect(new Set(aliases).size).toBe(aliases.length)
    expect(toolAlias('google-drive:read_file')).toBe('google-drive__read_file')
    expect(toolAlias('custom-mcp:db.query/v2')).toBe('custom-mcp__db_query_v2')
    const long = toolAlias(`custom-mcp:${'x'.repeat(120)}`)
    expect(long).toMatch(/^[A-Za-z0-9_-]{64}$/)
  })
})

describe('tool permissions', () => {
  let slackId: string
  beforeAll(async () => {
    slackId = await seedOAuth(a, 'slack')
  })

  it('creates, updates and lists a permission with the channels restriction; accepts the alias', async () => {
    const created = await tp.json(`/api/connections/${slackId}/permissions`, {
      token: a.token,
      body: {
        tool_name: 'slack__post_message',
        allowed: true,
        restrictions: { channels: ['C0123456789', 'C0987654321'] },
      },
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    expect(created.body).toMatchObject({
      connection_id: slackId,
      tool_name: 'slack:post_message',
      allowed: true,
      restrictions: { channels: ['C0123456789', 'C0987654321'] },
    })
    const updated = await tp.json(`/api/connections/${slackId}/permissions`, {
      token: a.token,
      body: { tool_name: 'slack:post_message', allowed: true, restrictions: { channels: ['C0123456789'] } },
    })
    expect(updated.status).toBe(200)
    expect(updated.body.id).toBe(created.body.id)
    const list = await tp.json(`/api/connections/${slackId}/permissions`, { token: a.token })
    expect(list.status).toBe(200)
    expect(list.body.default_allowed).toBe(true)
    expect(list.body.data).toHaveLength(1)
    expect(list.body.data[0].restrictions).toEqual({ channels: ['C0123456789'] })
  })

  it.each([
    ['an unknown tool', { tool_name: 'slack:delete_workspace', allowed: true }, 'tool_name'],
    ['a tool of another integration', { tool_name: 'github:create_issue', allowed: true }, 'tool_name'],
    [
      'channels that are not channel ids',
      { tool_name: 'slack:post_message', allowed: true, restrictions: { channels: ['#general'] } },
      'restrictions.channels.0',
    ],
    [
      'channels as a string',
      { tool_name: 'slack:post_message', allowed: true, restrictions: { channels: 'C0123456789' } },
      'restrictions.channels',
    ],
    [
      'an empty channel list',
      { tool_name: 'slack:post_message', allowed: true, restrictions: { channels: [] } },
      'restrictions.channels',
    ],
    [
      'an unknown restriction key',
      {
        tool_name: 'slack:post_message',
        allowed: true,
        restrictions: { channels: ['C0123456789'], users: [] },
      },
      'restrictions',
    ],
    [
      'restrictions on a tool without any',
      { tool_name: 'slack:list_channels', allowed: true, restrictions: { channels: ['C0123456789'] } },
      'restrictions',
    ],
    ['allowed missing', { tool_name: 'slack:post_message' }, 'allowed'],
    ['allowed as a string', { tool_name: 'slack:post_message', allowed: 'yes' }, 'allowed'],
    ['an unknown field', { tool_name: 'slack:post_message', allowed: true, note: 'x' }, '(body)'],
  ])('refuses %s with 400 and changes nothing', async (_name, body, field) => {
    const before = await tp.db
      .sql`select tool_name, allowed, restrictions from public.integration_tool_permissions where connection_id = ${slackId} order by tool_name`
    const res = await tp.json(`/api/connections/${slackId}/permissions`, { token: a.token, body })
    expect(res.status).toBe(400)
    expect(res.body.code).toBe('VALIDATION_ERROR')
    expect(res.body.details.map((d: { field: string }) => d.field)).toContain(field)
    const after = await tp.db
      .sql`select tool_name, allowed, restrictions from public.integration_tool_permissions where connection_id = ${slackId} order by tool_name`
    expect(after).toEqual(before)
  })

  it('describes for the dashboard exactly the tools, keys and examples the validation accepts', () => {
    expect(Object.keys(restrictionKinds).sort()).toEqual(Object.keys(restrictionSchemas).sort())
    for (const [tool, kind] of Object.entries(restrictionKinds))
      expect(parseRestrictions(tool, { [kind.key]: [kind.example] }), tool).toMatchObject({ ok: true })
  })

  it('validates each restriction kind', () => {
    expect(
      parseRestrictions('notion:create_page', {
        databases: ['0f3b5c6d-1a2b-4c3d-8e9f-0a1b2c3d4e5f', '0f3b5c6d1a2b4c3d8e9f0a1b2c3d4e5f'],
      }).ok,
    ).toBe(true)
    expect(parseRestrictions('notion:create_page', { databases: ['not-an-id'] }).ok).toBe(false)
    expect(
      parseRestrictions('github:create_issue', { repositories: ['acme/website', 'acme/api.v2'] }).ok,
    ).toBe(true)
    expect(parseRestrictions('github:create_issue', { repositories: ['website'] }).ok).toBe(false)
    expect(
      parseRestrictions('gmail:send_email', { recipients: ['ann@example.com', '@partner.org'] }).ok,
    ).toBe(true)
    expect(parseRestrictions('gmail:send_email', { recipients: ['ann'] }).ok).toBe(false)
    expect(parseRestrictions('gmail:send_email', { channels: ['C0123456789'] }).ok).toBe(false)
    expect(parseRestrictions('gmail:read_email', {}).ok).toBe(true)
  })

  it('is for owners and admins; members can read', async () => {
    const member = await addMember(tp, a.tenantId, 'member')
    const res = await tp.json(`/api/connections/${slackId}/permissions`, {
      token: member.token,
      body: { tool_name: 'slack:search_messages', allowed: false },
    })
    expect(res.status).toBe(403)
    expect((await tp.json(`/api/connections/${slackId}/permissions`, { token: member.token })).status).toBe(
      200,
    )
    const admin = await addMember(tp, a.tenantId, 'admin')
    const ok = await tp.json(`/api/connections/${slackId}/permissions`, {
      token: admin.token,
      body: { tool_name: 'slack:search_messages', allowed: true },
    })
    expect(ok.status).toBe(201)
  })
})

describe('decideToolCall', () => {
  let slack: string
  let gmail: string
  let github: string
  let notion: string
  let t: TestTenant

  beforeAll(async () => {
    t = await tp.createTenant()
    slack = await seedOAuth(t, 'slack')
    gmail = await seedOAuth(t, 'gmail')
    github = await seedOAuth(t, 'github', { scopes: ['read:org'] }) // 'repo' not granted
    notion = await seedOAuth(t, 'notion')
    const set = (id: string, body: unknown) =>
      tp.json(`/api/connections/${id}/permissions`, { token: t.token, body })
    expect(
      (
        await set(slack, {
          tool_name: 'slack:post_message',
          allowed: true,
          restrictions: { channels: ['C0123456789'] },
        })
      ).status,
    ).toBe(201)
    expect((await set(slack, { tool_name: 'slack:search_messages', allowed: false })).status).toBe(201)
    expect(
      (
        await set(gmail, {
          tool_name: 'gmail:send_email',
          allowed: true,
          restrictions: { recipients: ['ann@example.com', '@partner.org'] },
        })
      ).status,
    ).toBe(201)
    expect(
      (
        await set(notion, {
          tool_name: 'notion:create_page',
          allowed: true,
          restrictions: { databases: ['0f3b5c6d-1a2b-4c3d-8e9f-0a1b2c3d4e5f'] },
        })
      ).status,
    ).toBe(201)
  })

  const decide = (toolName: string, args: Record<string, unknown> = {}, tenant = t, connectionId?: string) =>
    withTenant(tp.db.sql, claimsOf(tenant), (tx) =>
      decideToolCall(tx, { tenantId: tenant.tenantId, toolName, arguments: args, connectionId }),
    )

  it('allows a tool without a permission row (the documented default)', async () => {
    expect(await decide('slack:list_channels')).toEqual({
      allowed: true,
      connection_id: slack,
      tool_name: 'slack:list_channels',
    })
    expect((await decide('slack__list_channels')).allowed).toBe(true)
  })

  it('refuses a disabled tool, and checks restrictions against the arguments', async () => {
    expect(await decide('slack:search_messages', { query: 'x' })).toMatchObject({
      allowed: false,
      reason: expect.stringContaining('disabled'),
    })
    expect((await decide('slack:post_message', { channel: 'C0123456789', text: 'hi' })).allowed).toBe(true)
    expect(await decide('slack:post_message', { channel: 'C0999999999', text: 'hi' })).toMatchObject({
      allowed: false,
      reason: expect.stringContaining('C0999999999'),
    })
    expect(
      (
        await decide('gmail:send_email', {
          to: ['Ann@example.com'],
          cc: ['bob@partner.org'],
          subject: 's',
          body: 'b',
        })
      ).allowed,
    ).toBe(true)
    expect(
      await decide('gmail:send_email', {
        to: ['ann@example.com'],
        bcc: ['eve@evil.test'],
        subject: 's',
        body: 'b',
      }),
    ).toMatchObject({
      allowed: false,
      reason: expect.stringContaining('eve@evil.test'),
    })
    expect(
      (await decide('notion:create_page', { database_id: '0f3b5c6d1a2b4c3d8e9f0a1b2c3d4e5f', title: 't' }))
        .allowed,
    ).toBe(true)
    expect(
      (await decide('notion:create_page', { database_id: 'ffffffff1a2b4c3d8e9f0a1b2c3d4e5f', title: 't' }))
        .allowed,
    ).toBe(false)
  })

  it('refuses recipients that are not one plain address, so a list in one string cannot pass the domain check', async () => {
    const send = (to: unknown[]) => decide('gmail:send_email', { to, subject: 's', body: 'b' })
    // The last '@' is an allowed domain, but the string names eve@evil.test too.
    expect(await send(['eve@evil.test, bob@partner.org'])).toMatchObject({ allowed: false })
    expect(await send(['eve@evil.test;bob@partner.org'])).toMatchObject({ allowed: false })
    expect(await send(['Eve <eve@evil.test> bob@partner.org'])).toMatchObject({ allowed: false })
    expect(await send(['eve@evil.test@partner.org'])).toMatchObject({ allowed: false })
    // A recipient that is not a string is not skipped.
    expect(await send([{ email: 'eve@evil.test' }, 'bob@partner.org'])).toMatchObject({ allowed: false })
    expect((await send(['bob@partner.org', 'ann@example.com'])).allowed).toBe(true)
  })

  it('refuses tools whose scope was not granted, unknown tools, and connections needing re-authorization', async () => {
    expect(
      await decide('github:create_issue', { owner: 'a', repo: 'b', title: 't' }, t, github),
    ).toMatchObject({
      allowed: false,
      reason: expect.stringContaining('repo'),
    })
    expect(await decide('slack:nope')).toMatchObject({ allowed: false })
    expect(await decide('figma:get_file', { file_key: 'x' })).toMatchObject({
      allowed: false,
      reason: 'no connection provides this tool',
    })
    await tp.db.sql`update public.integration_connections set status = 'needs_reauth' where id = ${gmail}`
    expect(await decide('gmail:read_email', { message_id: '1' })).toMatchObject({
      allowed: false,
      reason: expect.stringContaining('re-authorized'),
    })
  })

  it("never lets tenant B use tenant A's connection", async () => {
    expect(await decide('slack:list_channels', {}, b)).toMatchObject({ allowed: false })
    expect(await decide('slack:list_channels', {}, b, slack)).toMatchObject({
      allowed: false,
      reason: 'no connection provides this tool',
    })
    // Even the service connection, asked for B, does not use A's rows.
    expect(
      await decideToolCall(tp.db.sql, {
        tenantId: b.tenantId,
        toolName: 'slack:list_channels',
        connectionId: slack,
      }),
    ).toMatchObject({ allowed: false })
  })
})

describe('usage log and GET /api/integrations/:id/stats', () => {
  const slackEntry = integrationBySlug('slack')!
  let t: TestTenant
  beforeAll(async () => {
    t = await tp.createTenant()
    const connectionId = await seedOAuth(t, 'slack')
    const now = clock.now().getTime()
    const calls: [number, boolean, 'assistant' | 'automation' | 'manual', number][] = [
      [1, true, 'assistant', 100],
      [2, true, 'assistant', 200],
      [3, false, 'automation', 300],
      [4, true, 'manual', 400],
      [48, true, 'assistant', 1000], // two days ago: only in 7d and 30d
      [24 * 20, false, 'automation', 50], // twenty days ago: only in 30d
      [24 * 40, true, 'assistant', 10], // outside every period
    ]
    for (const [hoursAgo, success, triggeredBy, ms] of calls) {
      await recordIntegrationCall(tp.db.sql, {
        tenantId: t.tenantId,
        integrationId: slackEntry.integration_id,
        connectionId,
        toolName: 'slack:post_message',
        action: 'write',
        triggeredBy,
        userId: t.userId,
        success,
        responseTimeMs: ms,
        at: new Date(now - hoursAgo * 3600_000),
      })
    }
    // Another integration and another tenant must not count.
    await recordIntegrationCall(tp.db.sql, {
      tenantId: t.tenantId,
      integrationId: integrationBySlug('gmail')!.integration_id,
      connectionId: null,
      toolName: 'gmail:send_email',
      action: 'write',
      triggeredBy: 'manual',
      userId: null,
      success: true,
      responseTimeMs: 5,
      at: new Date(now - 1000),
    })
    await recordIntegrationCall(tp.db.sql, {
      tenantId: b.tenantId,
      integrationId: slackEntry.integration_id,
      connectionId: null,
      toolName: 'slack:post_message',
      action: 'write',
      triggeredBy: 'assistant',
      userId: null,
      success: false,
      responseTimeMs: 9999,
      at: new Date(now - 1000),
    })
  })

  it('computes totals, rates, average time and the triggered_by split per period', async () => {
    const day = await tp.json(`/api/integrations/${slackEntry.integration_id}/stats?period=24h`, {
      token: t.token,
    })
    expect(day.status).toBe(200)
    expect(day.body).toMatchObject({
      integration_id: slackEntry.integration_id,
      period: '24h',
      total_calls: 4,
      success_count: 3,
      failure_count: 1,
      success_rate: 0.75,
      failure_rate: 0.25,
      avg_response_time_ms: 250,
      triggered_by: { assistant: 2, automation: 1, manual: 1 },
    })
    const week = await tp.json('/api/integrations/slack/stats?period=7d', { token: t.token })
    expect(week.body).toMatchObject({ total_calls: 5, success_count: 4, avg_response_time_ms: 400 })
    const month = await tp.json('/api/integrations/slack/stats?period=30d', { token: t.token })
    expect(month.body).toMatchObject({
      total_calls: 6,
      failure_count: 2,
      triggered_by: { assistant: 3, automation: 2, manual: 1 },
    })
    const defaulted = await tp.json('/api/integrations/slack/stats', { token: t.token })
    expect(defaulted.body.period).toBe('24h')
  })

  it('shows an empty result, not another tenant’s numbers', async () => {
    const other = await tp.createTenant()
    const res = await tp.json('/api/integrations/slack/stats?period=30d', { token: other.token })
    expect(res.body).toMatchObject({
      total_calls: 0,
      success_rate: 0,
      failure_rate: 0,
      avg_response_time_ms: null,
    })
  })

  it('refuses a bad period, an unknown integration and anonymous callers', async () => {
    const bad = await tp.json('/api/integrations/slack/stats?period=1y', { token: t.token })
    expect(bad.status).toBe(400)
    expect(bad.body.details[0].field).toBe('period')
    expect((await tp.json('/api/integrations/nope/stats', { token: t.token })).status).toBe(404)
    expect((await tp.json('/api/integrations/slack/stats')).status).toBe(401)
  })
})

describe('tenant isolation of connections, permissions and statistics', () => {
  it("answers 404 for every route on tenant A's connection when asked by tenant B", async () => {
    const id = await seedOAuth(a, 'github')
    const routes: [string, string, unknown][] = [
      ['GET', `/api/connections/${id}`, undefined],
      ['PATCH', `/api/connections/${id}`, { display_name: 'pwned' }],
      ['DELETE', `/api/connections/${id}`, undefined],
      ['POST', `/api/connections/${id}/permissions`, { tool_name: 'github:create_issue', allowed: false }],
      ['GET', `/api/connections/${id}/permissions`, undefined],
      ['POST', `/api/connections/${id}/discover`, undefined],
    ]
    for (const [method, path, body] of routes) {
      const res = await tp.json(path, { token: b.token, method, body })
      expect(res.status, `${method} ${path}`).toBe(404)
    }
    const [row] = await tp.db.sql`select display_name from public.integration_connections where id = ${id}`
    expect(row!.display_name).toBeNull()
    expect(
      (
        await tp.db
          .sql`select count(*)::int as n from public.integration_tool_permissions where connection_id = ${id}`
      )[0]!.n,
    ).toBe(0)
  })

  it('hides every integrations table row of A from B under row-level security, and refuses cross-tenant writes', async () => {
    // A tenant with a row in every table (tests/support/tenant-fixtures.ts), and every integrations
    // table read from the catalog, so a new one is checked without being listed here.
    const seeded = await tp.createTenant()
    await seedEveryTenantTable(tp, seeded)
    const tables = (
      await tp.db.sql<{ table_name: string }[]>`
        select table_name from information_schema.columns
        where table_schema = 'public' and column_name = 'tenant_id' and table_name like 'integration%'
        order by 1`
    ).map((r) => r.table_name)
    expect(tables).toEqual(expect.arrayContaining(['integration_connections', 'integration_usage']))
    for (const table of tables) {
      const [owner] = await tp.db
        .sql`select count(*)::int as n from ${tp.db.sql(table)} where tenant_id = ${seeded.tenantId}`
      expect(owner!.n, `${table} has rows to hide`).toBeGreaterThan(0)
      const [asB] = await withTenant(
        tp.db.sql,
        claimsOf(b),
        (tx) => tx`select count(*)::int as n from ${tx(table)} where tenant_id = ${seeded.tenantId}`,
      )
      expect(asB!.n, table).toBe(0)
      const [asSeeded] = await withTenant(
        tp.db.sql,
        claimsOf(seeded),
        (tx) => tx`select count(*)::int as n from ${tx(table)} where tenant_id = ${seeded.tenantId}`,
      )
      expect(asSeeded!.n, `${table} as its own tenant`).toBe(owner!.n)
    }
    await expect(
      withTenant(
        tp.db.sql,
        claimsOf(b),
        (tx) =>
          tx`insert into public.integration_usage (tenant_id, integration_id, tool_name, action, triggered_by, success, response_time_ms)
           values (${a.tenantId}, ${integrationBySlug('slack')!.integration_id}, 'slack:x', 'write', 'manual', true, 1)`,
      ),
    ).rejects.toThrow(/row-level security/)
    // Tenants never read the secrets, not even their own.
    await expect(
      withTenant(
        tp.db.sql,
        claimsOf(a),
        (tx) => tx`select access_token_encrypted from public.integration_connections`,
      ),
    ).rejects.toThrow(/permission denied/)
    await expect(
      withTenant(tp.db.sql, claimsOf(a), (tx) => tx`select * from private.oauth_states`),
    ).rejects.toThrow(/permission denied/)
  })
})
