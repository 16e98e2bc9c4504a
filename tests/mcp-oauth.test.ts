import { createHash, randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type OAuthClientProvider, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js'
import bcrypt from 'bcryptjs'
import { chromium } from 'playwright-core'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { buildDashboard } from '../dashboard/build.ts'
import {
  setupTimeout,
  startTestPlatform,
  TestClock,
  type TestPlatform,
  type TestTenant,
} from './support/platform.ts'

/**
 * OAuth sign-in for MCP clients, driven by the official SDK client's OAuth support over real HTTP
 * against two instances: discovery from a bare 401, dynamic registration, PKCE, the consent
 * decision by a signed-in owner, tokens that act as a tool-server key of that tenant, refresh with
 * rotation, revocation seen by the other instance, and the checks that must refuse.
 */

let tp: TestPlatform
// The clock stands still, so a burst is a burst however slow the machine.
const clock = new TestClock(new Date())
let owner: TestTenant
let other: TestTenant
const REDIRECT = 'http://127.0.0.1:33418/callback'

beforeAll(async () => {
  tp = await startTestPlatform({ instances: 2, clock })
  owner = await tp.createTenant({ tenant: 'Acme' })
  other = await tp.createTenant({ tenant: 'Other' })
  await tp.db.sql`insert into public.sites (tenant_id, name) values (${owner.tenantId}, 'Acme site')`
  await tp.db.sql`insert into public.sites (tenant_id, name) values (${other.tenantId}, 'Other site')`
}, setupTimeout())
afterAll(() => tp.close())
// A fresh minute per test: the address's unauthenticated bucket (discovery, registration, tokens).
beforeEach(() => clock.advance(61_000))

/** The SDK's OAuth client hooks, kept in memory: what a desktop client keeps on disk. */
class MemoryProvider implements OAuthClientProvider {
  info?: OAuthClientInformationMixed
  saved?: OAuthTokens
  verifier = ''
  authorizationUrl?: URL
  constructor(readonly redirect = REDIRECT) {}
  get redirectUrl() {
    return this.redirect
  }
  get clientMetadata() {
    return {
      client_name: 'Test MCP client',
      redirect_uris: [this.redirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    }
  }
  state() {
    return 'state-123'
  }
  clientInformation() {
    return this.info
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info
  }
  tokens() {
    return this.saved
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url
  }
  saveCodeVerifier(v: string) {
    this.verifier = v
  }
  codeVerifier() {
    return this.verifier
  }
}

const mcpUrl = (instance = 0) => new URL(`${tp.instances[instance]!.baseUrl}/mcp`)

/** Connects; on the first try the SDK discovers, registers and asks for authorization. */
async function connect(provider: MemoryProvider, instance = 0) {
  const transport = new StreamableHTTPClientTransport(mcpUrl(instance), { authProvider: provider })
  const client = new Client({ name: 'oauth-test', version: '1.0.0' })
  await client.connect(transport)
  return client
}

/** The browser's part, as the dashboard does it: follow the authorization URL to the consent page, decide. */
async function consent(
  provider: MemoryProvider,
  user: TestTenant,
  approve = true,
  extra: Record<string, unknown> = {},
) {
  const res = await fetch(provider.authorizationUrl!, { redirect: 'manual' })
  expect(res.status).toBe(302)
  const consentPage = new URL(res.headers.get('location')!)
  expect(consentPage.pathname).toBe('/dashboard/')
  const requestId = consentPage.hash.replace('#/oauth/consent/', '')
  const shown = await tp.json(`/mcp/oauth/requests/${requestId}`, { token: user.token })
  expect(shown.status).toBe(200)
  const decided = await tp.json(`/mcp/oauth/requests/${requestId}/decision`, {
    token: user.token,
    body: { approve, ...extra },
  })
  return { shown: shown.body, decided }
}

async function signIn(provider = new MemoryProvider(), user = owner, decision: Record<string, unknown> = {}) {
  const first = await connect(provider).catch((e: Error) => e)
  expect(first).toBeInstanceOf(UnauthorizedError)
  const { shown, decided } = await consent(provider, user, true, decision)
  expect(decided.status).toBe(200)
  const back = new URL(decided.body.redirect_to)
  expect(back.searchParams.get('state')).toBe('state-123')
  const transport = new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider })
  await transport.finishAuth(back.searchParams.get('code')!)
  return { provider, shown }
}

describe('OAuth sign-in for MCP clients', () => {
  it('discovers, registers, consents and then calls tools as the tenant', async () => {
    const { provider, shown } = await signIn()
    expect(shown).toMatchObject({
      client_name: 'Test MCP client',
      redirect_uri: REDIRECT,
      scopes: ['content:read', 'content:write'],
      resource: `${tp.baseUrl}/mcp`,
      tenant: { id: owner.tenantId, name: 'Acme' },
    })
    expect(provider.saved?.access_token).toMatch(/^mcpat_/)
    expect(provider.saved?.refresh_token).toMatch(/^mcprt_/)

    const client = await connect(provider)
    const listed = await client.callTool({ name: 'platform__list_content', arguments: { type: 'site' } })
    // The token reaches its own tenant only.
    expect((listed.structuredContent as { items: { name: string }[] }).items.map((i) => i.name)).toEqual([
      'Acme site',
    ])
    await client.close()

    const connected = await tp.json('/api/mcp-clients', { token: owner.token })
    expect(connected.body.data).toEqual([
      expect.objectContaining({ client_name: 'Test MCP client', user_id: owner.userId, revoked_at: null }),
    ])
    const elsewhere = await tp.json('/api/mcp-clients', { token: other.token })
    expect(elsewhere.body.data).toEqual([])
  })

  it('limits a grant to the tool subset chosen at consent', async () => {
    const { provider } = await signIn(new MemoryProvider(), owner, {
      tool_subset: { tools: ['platform:list_content'] },
    })
    const client = await connect(provider)
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['platform__list_content'])
    const outside = await client.callTool({ name: 'platform__create_draft', arguments: {} })
    expect(outside.isError).toBe(true)
    expect(JSON.stringify(outside.content)).toContain('tool subset')
    await client.close()
    const clients = (await tp.json('/api/mcp-clients', { token: owner.token })).body.data
    expect(clients[0].tool_subset).toEqual({ connections: [], tools: ['platform:list_content'] })
  })

  it('lists search_tools and call_tool to a grant whose consent chose tool search', async () => {
    const { provider } = await signIn(new MemoryProvider(), owner, { tool_listing: 'search' })
    const client = await connect(provider)
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['search_tools', 'call_tool'])
    const found = await client.callTool({ name: 'search_tools', arguments: { query: 'list content' } })
    expect(JSON.stringify(found.structuredContent)).toContain('platform__list_content')
    await client.close()
    const clients = (await tp.json('/api/mcp-clients', { token: owner.token })).body.data
    expect(clients[0].tool_listing).toBe('search')
  })

  it('refreshes with rotation, and a reused refresh token ends the grant', async () => {
    const { provider } = await signIn()
    const first = provider.saved!
    const token = (body: Record<string, string>) =>
      tp.json('/mcp/oauth/token', {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(body).toString(),
      })
    const clientId = provider.info!.client_id
    const refreshed = await token({
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token!,
      client_id: clientId,
    })
    expect(refreshed.status).toBe(200)
    expect(refreshed.body.access_token).not.toBe(first.access_token)
    const call = (access: string, instance = 0) =>
      tp.request('/mcp/tools/list', { headers: { authorization: `Bearer ${access}` }, instance })
    expect((await call(refreshed.body.access_token)).status).toBe(200)

    const reused = await token({
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token!,
      client_id: clientId,
    })
    expect([reused.status, reused.body.error]).toEqual([400, 'invalid_grant'])
    const afterReuse = await call(refreshed.body.access_token, 1)
    expect(afterReuse.status).toBe(401)
    expect(afterReuse.headers.get('www-authenticate')).toContain('error="invalid_token"')
  })

  it('is refused on the next call on every instance once the owner revokes the client', async () => {
    const { provider } = await signIn()
    const access = provider.saved!.access_token
    const call = (instance: number) =>
      tp.request('/mcp/tools/list', { headers: { authorization: `Bearer ${access}` }, instance })
    expect((await call(0)).status).toBe(200)
    expect((await call(1)).status).toBe(200)
    const list = await tp.json('/api/mcp-clients', { token: owner.token })
    const grant = list.body.data.find((g: { revoked_at: string | null }) => g.revoked_at === null)
    const member = await tp.createTenant({ email: `m-${Date.now()}@example.com` })
    // Another tenant's owner cannot revoke it.
    expect(
      (await tp.request(`/api/mcp-clients/${grant.id}`, { method: 'DELETE', token: member.token })).status,
    ).toBe(404)
    expect((await call(1)).status).toBe(200)
    expect(
      (await tp.request(`/api/mcp-clients/${grant.id}`, { method: 'DELETE', token: owner.token })).status,
    ).toBe(204)
    expect((await call(1)).status).toBe(401)
    expect((await call(0)).status).toBe(401)
  })

  it('refuses a wrong PKCE verifier, a wrong redirect URI and a used code', async () => {
    const provider = new MemoryProvider()
    await connect(provider).catch(() => {})
    const clientId = provider.info!.client_id
    const { decided } = await consent(provider, owner)
    const code = new URL(decided.body.redirect_to).searchParams.get('code')!
    const token = (body: Record<string, string>) =>
      tp.json('/mcp/oauth/token', {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(body).toString(),
      })
    const wrongVerifier = await token({
      grant_type: 'authorization_code',
      code,
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_verifier: 'x'.repeat(43),
    })
    expect([wrongVerifier.status, wrongVerifier.body.error]).toEqual([400, 'invalid_grant'])
    // The code was spent by the failed attempt: the right verifier no longer helps.
    const again = await token({
      grant_type: 'authorization_code',
      code,
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_verifier: provider.verifier,
    })
    expect([again.status, again.body.error]).toEqual([400, 'invalid_grant'])

    // An unregistered redirect URI is answered in place, never redirected to.
    const evil = new URL(provider.authorizationUrl!)
    evil.searchParams.set('redirect_uri', 'https://evil.example/steal')
    const refused = await fetch(evil, { redirect: 'manual' })
    expect([refused.status, refused.headers.get('location')]).toEqual([400, null])
    // No PKCE: back to the client with an error.
    const noPkce = new URL(provider.authorizationUrl!)
    noPkce.searchParams.delete('code_challenge')
    const back = await fetch(noPkce, { redirect: 'manual' })
    expect(back.status).toBe(302)
    expect(new URL(back.headers.get('location')!).searchParams.get('error')).toBe('invalid_request')
    // A redirect URI at the token endpoint other than the request's.
    await connect(provider).catch(() => {})
    const second = await consent(provider, owner)
    const code2 = new URL(second.decided.body.redirect_to).searchParams.get('code')!
    const otherRedirect = await token({
      grant_type: 'authorization_code',
      code: code2,
      client_id: clientId,
      redirect_uri: 'http://127.0.0.1:9/other',
      code_verifier: provider.verifier,
    })
    expect([otherRedirect.status, otherRedirect.body.error]).toEqual([400, 'invalid_grant'])
  })

  it('allows a grant 100 requests a minute over both instances, like a key', async () => {
    const { provider } = await signIn()
    const headers = { authorization: `Bearer ${provider.saved!.access_token}` }
    for (let i = 0; i < 100; i++) {
      const res = await tp.request('/mcp/tools/list', { headers, instance: i % 2 })
      expect(res.status, `request ${i + 1}`).toBe(200)
    }
    const over = await tp.json('/mcp/tools/list', { headers, instance: 1 })
    expect([over.status, over.body.code]).toEqual([429, 'RATE_LIMITED'])
    expect(over.headers.get('x-ratelimit-limit')).toBe('100')
  })

  it('ends a removed member’s grants: no refresh, and re-adding them does not bring the client back', async () => {
    const { addMember } = await import('./support/platform.ts')
    const admin = await addMember(tp, owner.tenantId, 'admin')
    const { provider } = await signIn(new MemoryProvider(), admin)
    const first = provider.saved!
    const clientId = provider.info!.client_id
    const refresh = (refresh_token: string) =>
      tp.json('/mcp/oauth/token', {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token,
          client_id: clientId,
        }).toString(),
      })
    const call = (access: string, instance = 0) =>
      tp.request('/mcp/tools/list', { headers: { authorization: `Bearer ${access}` }, instance })
    expect((await call(first.access_token)).status).toBe(200)

    const removed = await tp.request(`/api/tenants/current/members/${admin.userId}`, {
      method: 'DELETE',
      token: owner.token,
    })
    expect(removed.status).toBe(204)
    expect((await call(first.access_token, 1)).status).toBe(401)
    const refused = await refresh(first.refresh_token!)
    expect([refused.status, refused.body.error]).toEqual([400, 'invalid_grant'])
    const grants = await tp.db.sql<{ revoked_at: Date | null }[]>`
      select revoked_at from public.mcp_oauth_grants where tenant_id = ${owner.tenantId} and user_id = ${admin.userId}`
    expect(grants.map((g) => g.revoked_at !== null)).toEqual([true])

    // Invited back, the old client is still out: it needs a new consent.
    await tp.db
      .sql`insert into public.tenant_members (tenant_id, user_id, role) values (${owner.tenantId}, ${admin.userId}, 'admin')`
    expect((await call(first.access_token, 1)).status).toBe(401)
    const again = await refresh(first.refresh_token!)
    expect([again.status, again.body.error]).toEqual([400, 'invalid_grant'])
  })

  it('refuses a refresh once the consenting admin is a member, and ends the grant', async () => {
    const { addMember } = await import('./support/platform.ts')
    const admin = await addMember(tp, owner.tenantId, 'admin')
    const { provider } = await signIn(new MemoryProvider(), admin)
    const tokens = provider.saved!
    const demoted = await tp.json(`/api/tenants/current/members/${admin.userId}`, {
      method: 'PATCH',
      token: owner.token,
      body: { role: 'member' },
    })
    expect(demoted.status).toBe(200)
    const refused = await tp.json('/mcp/oauth/token', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token!,
        client_id: provider.info!.client_id,
      }).toString(),
    })
    expect([refused.status, refused.body.error]).toEqual([400, 'invalid_grant'])
    expect(refused.body.error_description).toContain('no longer an owner or admin')
    const access = await tp.request('/mcp/tools/list', {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    })
    expect(access.status).toBe(401)
  })

  it('lets only owners and admins approve, and a declined request returns access_denied', async () => {
    const provider = new MemoryProvider()
    await connect(provider).catch(() => {})
    const { addMember } = await import('./support/platform.ts')
    const member = await addMember(tp, owner.tenantId, 'member')
    const { decided } = await consent(provider, member)
    expect(decided.status).toBe(403)
    await connect(provider).catch(() => {})
    const declined = await consent(provider, owner, false)
    expect(new URL(declined.decided.body.redirect_to).searchParams.get('error')).toBe('access_denied')
  })
})

describe('clients named by a client ID metadata document', () => {
  let docServer: ReturnType<typeof createServer>
  let base: string
  const served: string[] = []
  const documents = new Map<
    string,
    () => { status?: number; body: string; headers?: Record<string, string> }
  >()
  beforeAll(async () => {
    docServer = createServer((req, res) => {
      served.push(req.url!)
      const doc = documents.get(req.url!)?.()
      res.writeHead(doc?.status ?? (doc ? 200 : 404), { 'content-type': 'application/json', ...doc?.headers })
      res.end(doc?.body ?? '{}')
    })
    await new Promise<void>((r) => docServer.listen(0, '127.0.0.1', r))
    base = `http://127.0.0.1:${(docServer.address() as AddressInfo).port}`
  })
  afterAll(() => docServer?.close())

  const serve = (
    path: string,
    doc: Record<string, unknown>,
    extra: { headers?: Record<string, string> } = {},
  ) => {
    const url = `${base}${path}`
    documents.set(path, () => ({ body: JSON.stringify({ client_id: url, ...doc }), ...extra }))
    return url
  }
  const pkce = () => {
    const verifier = randomBytes(32).toString('base64url')
    return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') }
  }
  const authorize = (clientId: string, challenge: string, redirect = REDIRECT) =>
    fetch(
      `${tp.baseUrl}/mcp/oauth/authorize?${new URLSearchParams({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: redirect,
        code_challenge: challenge,
        code_challenge_method: 'S256',
        state: 'doc-state',
        resource: `${tp.baseUrl}/mcp`,
      })}`,
      { redirect: 'manual' },
    )

  it('advertises the documents in the authorization server metadata', async () => {
    const res = await tp.json('/mcp/.well-known/oauth-authorization-server')
    expect(res.body.client_id_metadata_document_supported).toBe(true)
  })

  it('fetches the document once, enforces its redirect URIs, and issues tokens that call tools', async () => {
    const clientId = serve('/clients/claude-code.json', {
      client_name: 'Doc Client',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    })
    const { verifier, challenge } = pkce()
    // A redirect URI the document does not list is answered here, never followed.
    const foreign = await authorize(clientId, challenge, 'https://evil.example/cb')
    expect(foreign.status).toBe(400)
    expect(foreign.headers.get('location')).toBeNull()

    const res = await authorize(clientId, challenge)
    expect(res.status, await res.clone().text()).toBe(302)
    const requestId = new URL(res.headers.get('location')!).hash.replace('#/oauth/consent/', '')
    const shown = await tp.json(`/mcp/oauth/requests/${requestId}`, { token: owner.token })
    expect(shown.body).toMatchObject({
      client_id: clientId,
      client_name: `Doc Client (${new URL(base).host})`,
    })
    const decided = await tp.json(`/mcp/oauth/requests/${requestId}/decision`, {
      token: owner.token,
      body: { approve: true },
    })
    const code = new URL(decided.body.redirect_to).searchParams.get('code')!
    const token = await tp.request('/mcp/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        code_verifier: verifier,
        client_id: clientId,
        redirect_uri: REDIRECT,
      }).toString(),
    })
    const tokens = await token.json()
    expect(token.status, JSON.stringify(tokens)).toBe(200)
    expect(tokens.access_token).toMatch(/^mcpat_/)
    const listed = await tp.json('/mcp/tools/list', {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    })
    expect(listed.status).toBe(200)
    // Cached: the foreign redirect, the authorization and the token exchange read it once.
    expect(served.filter((u) => u === '/clients/claude-code.json')).toHaveLength(1)
    const clients = (await tp.json('/api/mcp-clients', { token: owner.token })).body.data
    expect(clients.map((c: { client_id: string }) => c.client_id)).toContain(clientId)
  })

  it('refuses documents that do not describe the URL, are too large, or ask for a secret', async () => {
    const { challenge } = pkce()
    const cases: [string, string][] = [
      [
        serve('/clients/other-id.json', {
          client_id: `${base}/clients/someone-else.json`,
          redirect_uris: [REDIRECT],
        }),
        'differs',
      ],
      [
        serve('/clients/big.json', {
          client_name: 'x'.repeat(100),
          redirect_uris: [REDIRECT],
          padding: 'p'.repeat(6000),
        }),
        'bytes',
      ],
      [
        serve('/clients/secret.json', {
          redirect_uris: [REDIRECT],
          token_endpoint_auth_method: 'client_secret_basic',
        }),
        'public clients',
      ],
      [serve('/clients/js.json', { redirect_uris: ['javascript:alert(1)'] }), 'redirect URI'],
      [`${base}/clients/missing.json`, 'HTTP 404'],
      [`${base}/`, 'path'],
      ['http://169.254.169.254/latest/meta-data/client.json', 'blocked'],
    ]
    for (const [clientId, reason] of cases) {
      const res = await authorize(clientId, challenge)
      expect(res.status, clientId).toBe(400)
      expect(await res.text(), clientId).toContain(reason)
    }
  })
})

describe('the OAuth endpoints, from a web page on another origin', () => {
  const origin = 'https://inspector.example'
  const open = [
    ['GET', '/mcp/.well-known/oauth-protected-resource'],
    ['GET', '/.well-known/oauth-protected-resource/mcp'],
    ['GET', '/mcp/.well-known/oauth-authorization-server'],
    ['GET', '/.well-known/oauth-authorization-server/mcp'],
    ['GET', '/mcp/.well-known/openid-configuration'],
    ['POST', '/mcp/oauth/register'],
    ['POST', '/mcp/oauth/token'],
    ['POST', '/mcp/oauth/revoke'],
  ] as const

  it('answers preflights for any origin, without credentials', async () => {
    for (const [method, path] of open) {
      const res = await tp.request(path, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': method,
          'access-control-request-headers': 'content-type,mcp-protocol-version',
        },
      })
      expect(res.status, path).toBe(204)
      expect(res.headers.get('access-control-allow-origin'), path).toBe('*')
      expect(res.headers.get('access-control-allow-credentials'), path).toBeNull()
      expect(res.headers.get('access-control-allow-methods'), path).toContain(method)
      expect(res.headers.get('access-control-allow-headers')?.toLowerCase(), path).toContain(
        'mcp-protocol-version',
      )
      expect(res.headers.get('access-control-allow-headers')?.toLowerCase(), path).toContain('content-type')
    }
  })

  it('lets the page read the metadata, register, and read the token endpoint answers', async () => {
    for (const [method, path] of open.filter(([m]) => m === 'GET')) {
      const res = await tp.request(path, { method, headers: { origin } })
      expect(res.status, path).toBe(200)
      expect(res.headers.get('access-control-allow-origin'), path).toBe('*')
      expect(res.headers.get('access-control-allow-credentials'), path).toBeNull()
    }
    const registered = await tp.json('/mcp/oauth/register', {
      headers: { origin },
      body: {
        client_name: 'Inspector in a browser',
        redirect_uris: ['http://localhost:6274/oauth/callback'],
      },
    })
    expect(registered.status).toBe(201)
    expect(registered.headers.get('access-control-allow-origin')).toBe('*')
    expect(registered.headers.get('access-control-allow-credentials')).toBeNull()
    const token = await tp.request('/mcp/oauth/token', {
      method: 'POST',
      headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=authorization_code&code=nope&client_id=${registered.body.client_id}&code_verifier=x&redirect_uri=http://localhost:6274/oauth/callback`,
    })
    expect(token.status).toBe(400)
    expect(token.headers.get('access-control-allow-origin')).toBe('*')
  })

  it('keeps every other address closed to that origin', async () => {
    for (const path of [
      '/mcp/oauth/requests/00000000-0000-4000-8000-000000000000',
      '/api/mcp-clients',
      '/mcp',
    ]) {
      const res = await tp.request(path, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST' },
      })
      expect(res.headers.get('access-control-allow-origin'), path).toBeNull()
    }
    const authorize = await tp.request('/mcp/oauth/authorize?client_id=x', { headers: { origin } })
    expect(authorize.headers.get('access-control-allow-origin')).toBeNull()
  })
})

describe('the usage log of an OAuth client', () => {
  it("records triggered_by from the token's client, whatever X-Triggered-By says", async () => {
    const { startMcpServer } = await import('./support/mcp-server.ts')
    const { integrationBySlug } = await import('../shared/services/integrations/catalog.ts')
    const everything = await startMcpServer({
      transport: 'streamableHttp',
      auth: { type: 'bearer', token: 'oauth-usage-bearer-0123456789' },
    })
    try {
      const connected = await tp.json('/api/integrations/connect', {
        token: owner.token,
        body: {
          integration_id: integrationBySlug('custom-mcp')!.integration_id,
          connection_type: 'mcp',
          mcp_server_url: everything.url,
          mcp_auth_type: 'bearer',
          mcp_auth_token: 'oauth-usage-bearer-0123456789',
          display_name: 'Everything',
        },
      })
      expect(connected.status, JSON.stringify(connected.body)).toBe(201)
      const key = await tp.json('/api/api-keys', {
        token: owner.token,
        body: {
          name: 'automation',
          kind: 'tool_server',
          environment: 'development',
          scopes: ['content:read'],
          rate_limit_per_minute: 100,
        },
      })
      const { provider } = await signIn()
      const call = (headers: Record<string, string>) =>
        tp.json('/mcp/tools/execute', {
          headers: { ...headers, 'x-triggered-by': 'automation' },
          body: { tool: 'custom-mcp:echo', params: { message: 'hi' } },
        })
      const byKey = await call({ 'x-api-key': key.body.key })
      expect(byKey.status, JSON.stringify(byKey.body)).toBe(200)
      const byClient = await call({ authorization: `Bearer ${provider.saved!.access_token}` })
      expect(byClient.status, JSON.stringify(byClient.body)).toBe(200)
      // Over MCP as well.
      const client = await connect(provider)
      expect(
        (await client.callTool({ name: 'custom-mcp__echo', arguments: { message: 'hi' } })).isError,
      ).toBeFalsy()
      await client.close()
      const log = await tp.db.sql<{ triggered_by: string; user_id: string; success: boolean }[]>`
        select triggered_by, user_id, success from public.integration_usage
        where connection_id = ${connected.body.id} and tool_name = 'custom-mcp:echo' order by created_at, id`
      expect(log.map((l) => [l.triggered_by, l.user_id, l.success])).toEqual([
        ['automation', owner.userId, true],
        ['assistant', owner.userId, true],
        ['assistant', owner.userId, true],
      ])
    } finally {
      await everything.close()
    }
  })
})

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

describe.skipIf(!existsSync(CHROMIUM))('the whole flow with a browser sign-in', () => {
  it('signs in on the dashboard, consents, and the SDK client finishes with the code', async () => {
    await buildDashboard()
    // The client's redirect URI: a loopback server that takes the code, as a desktop client does.
    let received: URL | undefined
    const callback = createServer((req, res) => {
      const url = new URL(req.url!, 'http://127.0.0.1')
      // The browser also asks this host for /favicon.ico.
      if (url.pathname === '/callback') received = url
      res.end('You can close this window.')
    })
    await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve))
    const provider = new MemoryProvider(
      `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`,
    )
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu'],
    })
    try {
      const first = await connect(provider).catch((e: Error) => e)
      expect(first).toBeInstanceOf(UnauthorizedError)
      const page = await (await browser.newContext()).newPage()
      await page.goto(provider.authorizationUrl!.toString())
      // The dashboard's sign-in. The owner was made without a password (as npm run token makes
      // users); sign-up never changes an existing user, so it gets one as npm run set-password does.
      await tp.db
        .sql`update auth.users set encrypted_password = ${await bcrypt.hash('correct horse battery', 4)}
        where id = ${owner.userId}`
      await page.getByLabel('E-mail').fill(owner.email)
      await page.getByLabel('Password').fill('correct horse battery')
      await page.getByRole('form', { name: 'Sign in' }).getByRole('button', { name: 'Sign in' }).click()
      await page.getByRole('heading', { name: 'Connect an MCP client' }).waitFor()
      expect(await page.locator('.client-name').textContent()).toBe('Test MCP client')
      expect(await page.locator('.tenant-name').textContent()).toBe('Acme')
      expect(await page.locator('.scopes').textContent()).toContain('content:write')
      await page.getByRole('button', { name: 'Approve' }).click()
      await page.waitForURL((url) => url.pathname === '/callback')
      expect(received?.searchParams.get('state')).toBe('state-123')
      const transport = new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider })
      await transport.finishAuth(received!.searchParams.get('code')!)
      const client = await connect(provider, 1)
      const { tools } = await client.listTools()
      expect(tools.map((t) => t.name)).toContain('platform__list_content')
      await client.close()
    } finally {
      await browser.close()
      callback.close()
    }
  }, 120_000)
})
