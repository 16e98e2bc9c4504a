import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { outboundPolicyFrom } from '../shared/infra/outbound.ts'
import { integrationBySlug } from '../shared/services/integrations/catalog.ts'
import { authorizationServerProblem } from '../shared/services/integrations/mcp-auth.ts'
import { startMcpServer } from './support/mcp-server.ts'
import {
  setupTimeout,
  startTestPlatform,
  TestClock,
  type TestPlatform,
  type TestTenant,
} from './support/platform.ts'

/**
 * OAuth-protected remote MCP servers, the platform as the MCP client: tenant A connects tenant B's
 * tool server (the platform's own, behind its own OAuth authorization server) through the whole
 * MCP authorization flow over real HTTP: the 401 challenge, protected resource and authorization
 * server metadata, dynamic registration, PKCE, the resource indicator, B's owner consenting, the
 * integrations callback. A then lists and calls B's tools through its own tool server, and the
 * hourly job refreshes the token (B's server rotates refresh tokens). Hostile metadata is refused.
 */

const custom = integrationBySlug('custom-mcp')!
const NOWHERE = 'http://127.0.0.1:9'
const clock = new TestClock(new Date())
let tp: TestPlatform
let a: TestTenant
let b: TestTenant
let hostile: Server
let hostileUrl: string
/** What the hostile server publishes; each test sets it. */
let hostileMetadata: { resource: Record<string, unknown>; server: Record<string, unknown> }

beforeAll(async () => {
  // A public address nothing answers at: the platform cannot serve its client ID metadata document
  // there, so it registers (the document's case has a platform of its own below).
  tp = await startTestPlatform({ clock, env: { PUBLIC_URL: NOWHERE } })
  a = await tp.createTenant({ tenant: 'Acme' })
  b = await tp.createTenant({ tenant: 'Beta' })
  await tp.db.sql`insert into public.sites (tenant_id, name) values (${b.tenantId}, 'Beta site')`
  await tp.db.sql`insert into public.sites (tenant_id, name) values (${a.tenantId}, 'Acme site')`
  hostile = createServer((req, res) => {
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers })
      res.end(JSON.stringify(body))
    }
    if (req.url === '/mcp')
      return json(
        401,
        { error: 'unauthorized' },
        {
          'www-authenticate': `Bearer resource_metadata="${hostileUrl}/.well-known/oauth-protected-resource/mcp"`,
        },
      )
    if (req.url?.startsWith('/.well-known/oauth-protected-resource'))
      return json(200, hostileMetadata.resource)
    if (req.url?.startsWith('/.well-known/oauth-authorization-server'))
      return json(200, hostileMetadata.server)
    json(404, {})
  })
  await new Promise<void>((r) => hostile.listen(0, '127.0.0.1', r))
  hostileUrl = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}`
}, setupTimeout())
afterAll(async () => {
  hostile?.close()
  await tp?.close()
})
// Every request the platform sends itself (discovery, registration, tokens) is anonymous from
// 127.0.0.1: a fresh minute per test for that address's bucket.
beforeEach(() => clock.advance(61_000))

const browser = new Map<string, string>()
const cookieHeader = () => [...browser].map(([k, v]) => `${k}=${v}`).join('; ')

async function startConnect(t: TestTenant, over: Record<string, unknown> = {}) {
  const res = await tp.request('/api/integrations/connect', {
    token: t.token,
    body: {
      integration_id: custom.integration_id,
      connection_type: 'mcp',
      mcp_server_url: `${tp.baseUrl}/mcp`,
      mcp_auth_type: 'oauth',
      display_name: 'Beta tools',
      ...over,
    },
  })
  for (const c of res.headers.getSetCookie()) {
    const [name, value] = c.split(';')[0]!.split('=')
    browser.set(name!, value!)
  }
  return { status: res.status, body: await res.json() }
}

/** The user's browser at B's authorization server: consent as B's owner, back to our callback. */
async function consentAndReturn(authorizationUrl: string, consenting: TestTenant) {
  const res = await fetch(authorizationUrl, { redirect: 'manual' })
  expect(res.status).toBe(302)
  const requestId = new URL(res.headers.get('location')!).hash.replace('#/oauth/consent/', '')
  const shown = await tp.json(`/mcp/oauth/requests/${requestId}`, { token: consenting.token })
  expect(shown.status).toBe(200)
  const decided = await tp.json(`/mcp/oauth/requests/${requestId}/decision`, {
    token: consenting.token,
    body: { approve: true },
  })
  expect(decided.status, JSON.stringify(decided.body)).toBe(200)
  const back = new URL(decided.body.redirect_to)
  expect(back.pathname).toBe('/api/integrations/callback')
  const landed = await fetch(`${tp.baseUrl}${back.pathname}${back.search}`, {
    redirect: 'manual',
    headers: { cookie: cookieHeader() },
  })
  expect(landed.status).toBe(302)
  return { shown: shown.body, dashboard: new URL(landed.headers.get('location')!) }
}

async function toolKey(t: TestTenant) {
  const res = await tp.json('/api/api-keys', {
    token: t.token,
    body: {
      name: 'agent',
      kind: 'tool_server',
      environment: 'development',
      scopes: ['content:read'],
      rate_limit_per_minute: 100,
    },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body.key as string
}

const execute = (key: string, tool: string, params: Record<string, unknown>) =>
  tp.json('/mcp/tools/execute', { headers: { 'x-api-key': key }, body: { tool, params } })

const stored = async (id: string) => {
  const [row] = await tp.db.sql<
    {
      access_token_encrypted: string
      refresh_token_encrypted: string
      token_expires_at: Date
      mcp_auth_token_encrypted: string | null
      mcp_oauth: Record<string, unknown>
    }[]
  >`select access_token_encrypted, refresh_token_encrypted, token_expires_at, mcp_auth_token_encrypted, mcp_oauth
    from public.integration_connections where id = ${id}`
  const vault = tp.instances[0]!.platform.deps.vault
  return {
    row: row!,
    access: await vault.decrypt(a.tenantId, row!.access_token_encrypted, 'oauth-access-token'),
    refresh: await vault.decrypt(a.tenantId, row!.refresh_token_encrypted, 'oauth-refresh-token'),
  }
}

describe('connecting an OAuth-protected MCP server', () => {
  let connectionId: string

  it('runs the MCP authorization flow and stores the connection with encrypted, refreshable tokens', async () => {
    const started = await startConnect(a)
    expect(started.status, JSON.stringify(started.body)).toBe(202)
    const url = new URL(started.body.authorization_url)
    // Discovery found B's authorization server; the request carries PKCE S256 and the resource.
    expect(`${url.origin}${url.pathname}`).toBe(`${tp.baseUrl}/mcp/oauth/authorize`)
    expect(url.searchParams.get('code_challenge_method')).toBe('S256')
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(url.searchParams.get('resource')).toBe(`${tp.baseUrl}/mcp`)
    expect(url.searchParams.get('redirect_uri')).toMatch(/\/api\/integrations\/callback$/)
    // Dynamically registered at B's server.
    expect(url.searchParams.get('client_id')).toMatch(/^mcpc_/)
    expect(
      await tp.db.sql`select 1 from integration_connections where tenant_id = ${a.tenantId}`,
    ).toHaveLength(0)

    const { shown, dashboard } = await consentAndReturn(started.body.authorization_url, b)
    expect(shown).toMatchObject({ client_name: 'Tenant platform integrations', tenant: { id: b.tenantId } })
    expect(Object.fromEntries(dashboard.searchParams)).toMatchObject({
      status: 'connected',
      integration: 'custom-mcp',
    })
    connectionId = dashboard.searchParams.get('connection_id')!

    const conn = await tp.json(`/api/connections/${connectionId}`, { token: a.token })
    expect(conn.status).toBe(200)
    expect(conn.body).toMatchObject({
      connection_type: 'mcp',
      mcp_auth_type: 'oauth',
      display_name: 'Beta tools',
      mcp_transport: 'streamable_http',
      status: 'active',
    })
    expect(conn.body.token_expires_at).not.toBeNull()
    expect(conn.body.tools.map((t: { name: string }) => t.name)).toContain(
      'custom-mcp:platform__list_content',
    )

    const { row, access, refresh } = await stored(connectionId)
    expect(access).toMatch(/^mcpat_/)
    expect(refresh).toMatch(/^mcprt_/)
    expect(row.access_token_encrypted).not.toContain(access)
    expect(row.mcp_auth_token_encrypted).toBeNull()
    expect(row.mcp_oauth).toMatchObject({ issuer: `${tp.baseUrl}/mcp`, resource: `${tp.baseUrl}/mcp` })
    // B sees the platform among its connected clients.
    const clients = await tp.json('/api/mcp-clients', { token: b.token })
    expect(clients.body.data.map((c: { client_name: string }) => c.client_name)).toContain(
      'Tenant platform integrations',
    )
  })

  it("lets A's tool server call B's tools with the token, as B", async () => {
    const key = await toolKey(a)
    const listed = await tp.json('/mcp/tools/list', { headers: { 'x-api-key': key } })
    expect(JSON.stringify(listed.body)).toContain('custom-mcp:platform__list_content')
    const res = await execute(key, 'custom-mcp:platform__list_content', { type: 'site' })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    // B's content, not A's: the token is B's grant.
    expect(JSON.stringify(res.body.result)).toContain('Beta site')
    expect(JSON.stringify(res.body.result)).not.toContain('Acme site')
  })

  it('is refreshed by the hourly job (rotation kept), and calls go on with the new token', async () => {
    const before = await stored(connectionId)
    // Due within the hour.
    await tp.db
      .sql`update integration_connections set token_expires_at = ${new Date(clock.now().getTime() + 10 * 60_000)} where id = ${connectionId}`
    const job = await (await tp.instances[0]!.platform.runJob('integrations/jobs/refresh-tokens')).json()
    expect(job).toMatchObject({ claimed: 1, refreshed: 1, needs_reauth: 0, failed: 0 })
    const after = await stored(connectionId)
    expect(after.access).toMatch(/^mcpat_/)
    expect(after.access).not.toBe(before.access)
    expect(after.refresh).not.toBe(before.refresh)
    expect(after.row.token_expires_at.getTime()).toBeGreaterThan(clock.now().getTime() + 30 * 60_000)

    // The refresh token rotated: the one sent is spent at B, the stored one is the new one.
    const fresh = await tp.request('/mcp/tools/list', {
      headers: { authorization: `Bearer ${after.access}` },
    })
    expect(fresh.status).toBe(200)
    const key = await toolKey(a)
    const res = await execute(key, 'custom-mcp:platform__list_content', { type: 'site' })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(JSON.stringify(res.body.result)).toContain('Beta site')
  })

  it('refreshes an expired token before a tool call uses it', async () => {
    const before = await stored(connectionId)
    await tp.db
      .sql`update integration_connections set token_expires_at = ${new Date(clock.now().getTime() - 60_000)} where id = ${connectionId}`
    const res = await execute(await toolKey(a), 'custom-mcp:platform__list_content', { type: 'site' })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const after = await stored(connectionId)
    expect(after.access).not.toBe(before.access)
    expect(after.row.token_expires_at.getTime()).toBeGreaterThan(clock.now().getTime())
  })

  it('asks for re-authorization when B ends the grant', async () => {
    const clients = await tp.json('/api/mcp-clients', { token: b.token })
    for (const c of clients.body.data)
      await tp.request(`/api/mcp-clients/${c.id}`, { method: 'DELETE', token: b.token })
    await tp.db
      .sql`update integration_connections set token_expires_at = ${new Date(clock.now().getTime() + 10 * 60_000)} where id = ${connectionId}`
    const job = await (await tp.instances[0]!.platform.runJob('integrations/jobs/refresh-tokens')).json()
    expect(job).toMatchObject({ claimed: 1, needs_reauth: 1 })
    const conn = await tp.json(`/api/connections/${connectionId}`, { token: a.token })
    expect(conn.body.status).toBe('needs_reauth')
    const [event] = await tp.db.sql<{ data: { reconnect_path: string } }[]>`
      select data from public.event_outbox where tenant_id = ${a.tenantId} and type = 'connection.reauthorization_required'`
    expect(event?.data.reconnect_path).toBe('/api/integrations/connect')
  })

  it('reconnects the same connection when its server is signed in to again', async () => {
    await tp.json(`/api/connections/${connectionId}/permissions`, {
      token: a.token,
      body: { tool_name: 'custom-mcp:platform__create_draft', allowed: false },
    })
    const started = await startConnect(a, { display_name: 'Beta tools again' })
    const { dashboard } = await consentAndReturn(started.body.authorization_url, b)
    expect(dashboard.searchParams.get('connection_id')).toBe(connectionId)
    const conn = await tp.json(`/api/connections/${connectionId}`, { token: a.token })
    expect(conn.body).toMatchObject({ status: 'active', display_name: 'Beta tools' })
    expect(conn.body.tools.length).toBeGreaterThan(0)
    // The tenant's choices stay with the connection.
    const rules = await tp.json(`/api/connections/${connectionId}/permissions`, { token: a.token })
    expect(rules.body.data).toEqual([
      expect.objectContaining({ tool_name: 'custom-mcp:platform__create_draft', allowed: false }),
    ])
    const key = await toolKey(a)
    const res = await execute(key, 'custom-mcp:platform__list_content', { type: 'site' })
    expect(JSON.stringify(res.body.result)).toContain('Beta site')
  })

  it('starts the same flow from a connection asked for without a token', async () => {
    const started = await startConnect(a, { mcp_auth_type: 'none' })
    expect(started.status, JSON.stringify(started.body)).toBe(202)
    expect(started.body.authorization_url).toContain('/mcp/oauth/authorize')
  })

  it('revokes the grant at the server when the connection is deleted', async () => {
    const started = await startConnect(a, { display_name: 'Short-lived' })
    const { dashboard } = await consentAndReturn(started.body.authorization_url, b)
    const id = dashboard.searchParams.get('connection_id')!
    const { access } = await stored(id)
    expect(
      (await tp.request('/mcp/tools/list', { headers: { authorization: `Bearer ${access}` } })).status,
    ).toBe(200)
    const deleted = await tp.json(`/api/connections/${id}`, { method: 'DELETE', token: a.token })
    expect(deleted.body).toMatchObject({ deleted: true, revoked_at_provider: true })
    expect(
      (await tp.request('/mcp/tools/list', { headers: { authorization: `Bearer ${access}` } })).status,
    ).toBe(401)
  })

  it('refuses a token with oauth and none, and requires one with bearer', async () => {
    const withToken = await startConnect(a, { mcp_auth_type: 'oauth', mcp_auth_token: 'abc' })
    expect([withToken.status, withToken.body.code]).toEqual([400, 'VALIDATION_ERROR'])
    expect(withToken.body.details[0].field).toBe('mcp_auth_token')
    const without = await startConnect(a, { mcp_auth_type: 'bearer' })
    expect([without.status, without.body.details[0].field]).toEqual([400, 'mcp_auth_token'])
  })

  it('needs the browser that started the flow', async () => {
    const started = await startConnect(a)
    browser.clear()
    const res = await fetch(started.body.authorization_url, { redirect: 'manual' })
    const requestId = new URL(res.headers.get('location')!).hash.replace('#/oauth/consent/', '')
    const decided = await tp.json(`/mcp/oauth/requests/${requestId}/decision`, {
      token: b.token,
      body: { approve: true },
    })
    const back = new URL(decided.body.redirect_to)
    const landed = await fetch(`${tp.baseUrl}${back.pathname}${back.search}`, { redirect: 'manual' })
    expect(new URL(landed.headers.get('location')!).searchParams.get('error')).toBe('invalid_state')
  })
})

describe('hostile or malformed authorization metadata', () => {
  const goodServer = () => ({
    issuer: `${hostileUrl}/as`,
    authorization_endpoint: `${hostileUrl}/as/authorize`,
    token_endpoint: `${hostileUrl}/as/token`,
    registration_endpoint: `${hostileUrl}/as/register`,
    response_types_supported: ['code'],
    code_challenge_methods_supported: ['S256'],
  })
  const connectHostile = () => startConnect(a, { mcp_server_url: `${hostileUrl}/mcp` })

  it('refuses metadata whose issuer is not the authorization server it was found at', async () => {
    hostileMetadata = {
      resource: { resource: `${hostileUrl}/mcp`, authorization_servers: [`${hostileUrl}/as`] },
      server: { ...goodServer(), issuer: 'https://accounts.example.com' },
    }
    const res = await connectHostile()
    expect(res.status).toBe(422)
    expect(res.body.message).toContain('names issuer https://accounts.example.com')
    expect(res.body.details[0]).toEqual({ field: 'mcp_server_url', message: 'invalid_metadata' })
  })

  it('refuses protected resource metadata for another resource', async () => {
    hostileMetadata = {
      resource: { resource: 'https://other.example.com/mcp', authorization_servers: [`${hostileUrl}/as`] },
      server: goodServer(),
    }
    const res = await connectHostile()
    expect([res.status, res.body.details[0].message]).toEqual([422, 'invalid_metadata'])
    expect(res.body.message).toContain('not this server')
  })

  it('refuses an authorization server without PKCE S256', async () => {
    hostileMetadata = {
      resource: { resource: `${hostileUrl}/mcp`, authorization_servers: [`${hostileUrl}/as`] },
      server: { ...goodServer(), code_challenge_methods_supported: ['plain'] },
    }
    const res = await connectHostile()
    expect(res.status).toBe(422)
    expect(res.body.message).toContain('S256')
  })

  it('never sends a request to a private address the metadata names (SSRF)', async () => {
    hostileMetadata = {
      resource: { resource: `${hostileUrl}/mcp`, authorization_servers: ['http://169.254.169.254/latest'] },
      server: goodServer(),
    }
    const res = await connectHostile()
    expect([res.status, res.body.details[0].field]).toEqual([400, 'mcp_server_url'])
    expect(res.body.details[0].message).toMatch(/refused: .*169\.254\.169\.254/)

    hostileMetadata = {
      resource: { resource: `${hostileUrl}/mcp`, authorization_servers: [`${hostileUrl}/as`] },
      server: { ...goodServer(), registration_endpoint: 'http://10.0.0.7/register' },
    }
    const registration = await connectHostile()
    expect([registration.status, registration.body.details[0].message]).toEqual([
      400,
      'the registration endpoint address is refused: private address 10.0.0.7',
    ])
  })

  it('requires https endpoints where the deployment does not allow http (production)', () => {
    const production = outboundPolicyFrom({
      OUTBOUND_ALLOW_HTTP: false,
      OUTBOUND_ALLOW_LOOPBACK: false,
      OUTBOUND_ALLOW_PRIVATE: false,
    })
    const server = {
      ...goodServer(),
      issuer: 'https://as.example.com',
      authorization_endpoint: 'https://as.example.com/authorize',
      token_endpoint: 'http://as.example.com/token',
    }
    expect(authorizationServerProblem(server, 'https://as.example.com', production)).toBe(
      'token_endpoint must be https (http given)',
    )
    expect(
      authorizationServerProblem(
        {
          ...server,
          token_endpoint: 'https://as.example.com/token',
          registration_endpoint: 'https://as.example.com/r',
        },
        'https://as.example.com',
        production,
      ),
    ).toBeNull()
  })
})

describe('an MCP server that needs no token', () => {
  it('connects without one and calls its tools', async () => {
    // A tenant of its own: A's OAuth connection offers tools of the same integration.
    const c = await tp.createTenant({ tenant: 'Gamma' })
    const open = await startMcpServer({ transport: 'streamableHttp', auth: { type: 'none' } })
    try {
      const res = await tp.json('/api/integrations/connect', {
        token: c.token,
        body: {
          integration_id: custom.integration_id,
          connection_type: 'mcp',
          mcp_server_url: open.url,
          mcp_auth_type: 'none',
        },
      })
      expect(res.status, JSON.stringify(res.body)).toBe(201)
      expect(res.body).toMatchObject({ mcp_auth_type: 'none', status: 'active' })
      const key = await toolKey(c)
      const echo = await execute(key, 'custom-mcp:echo', { message: 'hello' })
      expect(echo.status, JSON.stringify(echo.body)).toBe(200)
      expect(JSON.stringify(echo.body.result)).toContain('hello')
    } finally {
      await open.close()
    }
  })
})

describe('with a client ID metadata document', () => {
  // The platform's public address is a loopback proxy in front of it, known before it starts: the
  // authorization server fetches the platform's document there, as a real one would.
  let proxy: Server
  let publicUrl: string
  let tp2: TestPlatform
  let c: TestTenant
  let d: TestTenant

  beforeAll(async () => {
    proxy = createServer((req, res) => {
      const target = new URL(req.url!, tp2.baseUrl)
      const upstream = httpRequest(
        target,
        { method: req.method, headers: { ...req.headers, host: target.host } },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers)
          up.pipe(res)
        },
      )
      upstream.on('error', () => res.writeHead(502).end())
      req.pipe(upstream)
    })
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r))
    publicUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`
    tp2 = await startTestPlatform({ clock, env: { PUBLIC_URL: publicUrl } })
    c = await tp2.createTenant({ tenant: 'Client side' })
    d = await tp2.createTenant({ tenant: 'Server side' })
  }, setupTimeout())
  afterAll(async () => {
    proxy?.close()
    await tp2?.close()
  })

  it('serves the document, signs in by it instead of registering, and refreshes as that client', async () => {
    const documentUrl = `${publicUrl}/api/integrations/client-metadata.json`
    const document = await tp2.json('/api/integrations/client-metadata.json')
    expect(document.body).toEqual({
      client_id: documentUrl,
      client_name: 'Tenant platform integrations',
      redirect_uris: [`${publicUrl}/api/integrations/callback`],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    })

    const res = await tp2.request('/api/integrations/connect', {
      token: c.token,
      body: {
        integration_id: custom.integration_id,
        connection_type: 'mcp',
        mcp_server_url: `${tp2.baseUrl}/mcp`,
        mcp_auth_type: 'oauth',
      },
    })
    expect(res.status).toBe(202)
    const cookie = res.headers
      .getSetCookie()
      .map((x) => x.split(';')[0])
      .join('; ')
    const authorizationUrl = new URL(((await res.json()) as { authorization_url: string }).authorization_url)
    expect(authorizationUrl.searchParams.get('client_id')).toBe(documentUrl)
    // Nothing registered at the authorization server.
    expect(await tp2.db.sql`select 1 from private.mcp_oauth_clients`).toHaveLength(0)

    const at = await fetch(authorizationUrl, { redirect: 'manual' })
    const requestId = new URL(at.headers.get('location')!).hash.replace('#/oauth/consent/', '')
    const shown = await tp2.json(`/mcp/oauth/requests/${requestId}`, { token: d.token })
    // The authorization server names a document's client with the host it came from.
    expect(shown.body.client_name).toBe(`Tenant platform integrations (${new URL(publicUrl).host})`)
    const decided = await tp2.json(`/mcp/oauth/requests/${requestId}/decision`, {
      token: d.token,
      body: { approve: true },
    })
    const back = new URL(decided.body.redirect_to)
    expect(back.origin).toBe(publicUrl)
    const landed = await fetch(back, { redirect: 'manual', headers: { cookie } })
    const dashboard = new URL(landed.headers.get('location')!)
    expect(dashboard.searchParams.get('status'), dashboard.search).toBe('connected')

    const id = dashboard.searchParams.get('connection_id')!
    await tp2.db
      .sql`update integration_connections set token_expires_at = ${new Date(clock.now().getTime() + 10 * 60_000)} where id = ${id}`
    const job = await (await tp2.instances[0]!.platform.runJob('integrations/jobs/refresh-tokens')).json()
    expect(job).toMatchObject({ claimed: 1, refreshed: 1 })
  })
})
