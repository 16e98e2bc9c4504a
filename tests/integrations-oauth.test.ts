import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { integrationBySlug } from '../shared/services/integrations/catalog.ts'
import { pkceChallenge } from '../shared/services/integrations/oauth.ts'
import { needsRealConcurrency } from './support/concurrency.ts'
import { type OAuthServer, startOAuthServer } from './support/oauth-server.ts'
import {
  addMember,
  setupTimeout,
  startTestPlatform,
  TestClock,
  type TestPlatform,
  type TestTenant,
} from './support/platform.ts'

/**
 * The OAuth 2.0 flow against a real authorization server on loopback (oidc-provider), which
 * stands in for the notes-workspace provider (Notion) through OAUTH_PROVIDERS_OVERRIDE.
 */

const PUBLIC_URL = 'http://127.0.0.1:54321'
const DASHBOARD = 'http://dashboard.test/settings/integrations'
const notion = integrationBySlug('notion')!

let tp: TestPlatform
let oauth: OAuthServer
let a: TestTenant
let b: TestTenant
const clock = new TestClock()

beforeAll(async () => {
  oauth = await startOAuthServer({
    redirectUri: `${PUBLIC_URL}/api/integrations/callback`,
    scopes: notion.oauth_scopes,
  })
  tp = await startTestPlatform({
    instances: 2,
    clock,
    env: {
      PUBLIC_URL,
      DASHBOARD_URL: DASHBOARD,
      OAUTH_PROVIDERS_OVERRIDE: JSON.stringify({
        notion: {
          authorize_url: `${oauth.issuer}/auth`,
          token_url: `${oauth.issuer}/token`,
          revocation_url: `${oauth.issuer}/token/revocation`,
          api_base_url: oauth.issuer,
          pkce: true,
          token_auth: 'client_secret_basic',
        },
      }),
      OAUTH_NOTION_CLIENT_ID: oauth.clientId,
      OAUTH_NOTION_CLIENT_SECRET: oauth.clientSecret,
    },
  })
  a = await tp.createTenant()
  b = await tp.createTenant()
}, setupTimeout())

afterAll(async () => {
  await tp?.close()
  await oauth?.close()
})

const vault = () => tp.instances[0]!.platform.deps.vault

/** The browser's cookies (name -> value): the binding cookies set at authorize. */
const browser = new Map<string, string>()

/** Like a browser navigation, but stopping at the redirect; sends the browser's cookies unless told not to. */
const navigate = (
  path: string,
  opts: { token?: string; instance?: number; cookies?: Map<string, string> } = {},
) => {
  const jar = opts.cookies ?? browser
  const headers: Record<string, string> = opts.token ? { authorization: `Bearer ${opts.token}` } : {}
  if (jar.size > 0) headers.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ')
  return fetch(`${tp.instances[opts.instance ?? 0]!.baseUrl}${path}`, { redirect: 'manual', headers })
}

async function authorizeUrl(t: TestTenant): Promise<URL> {
  const res = await navigate('/api/integrations/notion/authorize', { token: t.token })
  expect(res.status, res.status === 302 ? '' : await res.text()).toBe(302)
  for (const c of res.headers.getSetCookie()) {
    const [pair] = c.split(';')
    const [name, value] = pair!.split('=')
    browser.set(name!, value!)
  }
  return new URL(res.headers.get('location')!)
}

/** authorize -> consent at the provider -> our callback; returns the dashboard redirect. */
async function connect(t: TestTenant, account: string): Promise<URL> {
  const back = await oauth.authorize((await authorizeUrl(t)).toString(), { approve: account })
  return callback(back)
}

async function callback(providerRedirect: URL, cookies?: Map<string, string>): Promise<URL> {
  expect(providerRedirect.toString().startsWith(`${PUBLIC_URL}/api/integrations/callback`)).toBe(true)
  const res = await navigate(`/api/integrations/callback${providerRedirect.search}`, { cookies })
  expect(res.status).toBe(302)
  const location = new URL(res.headers.get('location')!)
  expect(location.toString().startsWith(DASHBOARD)).toBe(true)
  return location
}

const connectionCount = async () =>
  (await tp.db.sql`select count(*)::int as n from public.integration_connections`)[0]!.n as number

async function storedTokens(id: string) {
  const [row] = await tp.db.sql<
    {
      tenant_id: string
      access_token_encrypted: string
      refresh_token_encrypted: string
      token_expires_at: Date
    }[]
  >`
    select tenant_id, access_token_encrypted, refresh_token_encrypted, token_expires_at from public.integration_connections where id = ${id}`
  return {
    access: await vault().decrypt(row!.tenant_id, row!.access_token_encrypted, 'oauth-access-token'),
    refresh: await vault().decrypt(row!.tenant_id, row!.refresh_token_encrypted, 'oauth-refresh-token'),
    row: row!,
  }
}

/** Every table (public and private) that mentions the text anywhere in a row. */
async function tablesContaining(text: string): Promise<string[]> {
  const tables = await tp.db.sql<{ s: string; t: string }[]>`
    select table_schema as s, table_name as t from information_schema.tables
    where table_schema in ('public', 'private', 'auth') and table_type = 'BASE TABLE'`
  const hits: string[] = []
  for (const { s, t } of tables) {
    const [r] = await tp.db
      .sql`select count(*)::int as n from ${tp.db.sql(s)}.${tp.db.sql(t)} x where x::text like ${`%${text}%`}`
    if (r!.n > 0) hits.push(`${s}.${t}`)
  }
  return hits
}

describe('OAuth authorize -> consent -> callback -> stored encrypted tokens -> refresh', () => {
  let connectionId: string

  it('redirects a signed-in owner to the consent screen with a single-use state and PKCE S256', async () => {
    const url = await authorizeUrl(a)
    expect(url.origin + url.pathname).toBe(`${oauth.issuer}/auth`)
    expect(url.searchParams.get('client_id')).toBe(oauth.clientId)
    expect(url.searchParams.get('redirect_uri')).toBe(`${PUBLIC_URL}/api/integrations/callback`)
    expect(url.searchParams.get('scope')).toBe('read_content update_content insert_content')
    expect(url.searchParams.get('code_challenge_method')).toBe('S256')
    expect(url.searchParams.get('state')!.length).toBeGreaterThanOrEqual(40)
    // The state is stored only hashed, bound to the user and tenant, expiring in minutes.
    const [state] = await tp.db.sql`select * from private.oauth_states order by created_at desc limit 1`
    expect(state!.state_hash).not.toBe(url.searchParams.get('state'))
    expect(state).toMatchObject({
      tenant_id: a.tenantId,
      user_id: a.userId,
      integration_slug: 'notion',
      used_at: null,
    })
    expect(state!.expires_at.getTime() - clock.now().getTime()).toBe(10 * 60 * 1000)
    const verifier = await vault().decrypt(a.tenantId, state!.code_verifier_encrypted, 'oauth-pkce-verifier')
    expect(await pkceChallenge(verifier)).toBe(url.searchParams.get('code_challenge'))
    // JSON form for dashboards that cannot read a redirect.
    const json = await tp.json('/api/integrations/notion/authorize', {
      token: a.token,
      headers: { accept: 'application/json' },
    })
    expect(json.status).toBe(200)
    expect(json.body.authorization_url).toContain(`${oauth.issuer}/auth?`)
  })

  it('stores the connection with encrypted tokens, expiry, scopes and account name', async () => {
    oauth.accountNames.set('acct-a', 'Acme Workspace')
    const back = await connect(a, 'acct-a')
    expect(back.searchParams.get('status')).toBe('connected')
    expect(back.searchParams.get('integration')).toBe('notion')
    connectionId = back.searchParams.get('connection_id')!

    const res = await tp.json(`/api/connections/${connectionId}`, { token: a.token })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      integration_id: notion.integration_id,
      connection_type: 'oauth',
      status: 'active',
      external_account_name: 'Acme Workspace',
      scopes: ['read_content', 'update_content', 'insert_content'],
      token_expires_at: new Date(clock.now().getTime() + 3600_000).toISOString(),
      tool_count: notion.tools.length,
    })
    expect(res.body.tools.map((t: { name: string }) => t.name)).toEqual(notion.tools.map((t) => t.name))
    // A new connection's write tools wait for approval when the assistant calls them.
    const permissions = await tp.json(`/api/connections/${connectionId}/permissions`, { token: a.token })
    expect(
      permissions.body.data.map((p: { tool_name: string; requires_approval: boolean }) => [
        p.tool_name,
        p.requires_approval,
      ]),
    ).toEqual(notion.tools.filter((t) => t.action === 'write').map((t) => [t.name, true]))

    const { access, refresh, row } = await storedTokens(connectionId)
    expect(row.access_token_encrypted).toMatch(/^v1:1:/)
    expect(await oauth.provider.AccessToken.find(access)).toBeTruthy()
    expect(await oauth.provider.RefreshToken.find(refresh)).toBeTruthy()
    for (const secret of [access, refresh]) {
      expect(JSON.stringify(res.body)).not.toContain(secret)
      expect(await tablesContaining(secret)).toEqual([])
    }
  })

  it('refreshes within the hour before expiry, rotating the refresh token, and stores both atomically', async () => {
    const before = await storedTokens(connectionId)
    // Not yet: more than an hour left.
    clock.advance(-1)
    let job = await tp.instances[0]!.platform.runJob('integrations/jobs/refresh-tokens')
    expect((await job.json()).refreshed).toBe(0)
    clock.advance(1 + 1) // now 59:59 before expiry
    job = await tp.instances[0]!.platform.runJob('integrations/jobs/refresh-tokens')
    expect(job.status).toBe(200)
    expect(await job.json()).toMatchObject({ refreshed: 1, needs_reauth: 0, failed: 0 })

    const after = await storedTokens(connectionId)
    expect(after.refresh).not.toBe(before.refresh) // rotated
    expect(after.access).not.toBe(before.access)
    expect(after.row.token_expires_at.getTime()).toBe(clock.now().getTime() + 3600_000)
    expect(await oauth.provider.RefreshToken.find(after.refresh)).toBeTruthy()
    // The old refresh token was consumed by the rotation and was presented exactly once.
    expect(oauth.refreshUses.get(before.refresh)).toBe(1)
    expect(await tablesContaining(after.refresh)).toEqual([])
    expect(await tablesContaining(after.access)).toEqual([])
    // A second run right away finds nothing to do.
    job = await tp.instances[1]!.platform.runJob('integrations/jobs/refresh-tokens')
    expect((await job.json()).claimed).toBe(0)
  })

  it('updates the same connection when the same account reconnects, adds one for another account', async () => {
    const before = await connectionCount()
    const again = await connect(a, 'acct-a')
    expect(again.searchParams.get('connection_id')).toBe(connectionId)
    expect(await connectionCount()).toBe(before)
    const other = await connect(a, 'acct-other')
    expect(other.searchParams.get('connection_id')).not.toBe(connectionId)
    expect(await connectionCount()).toBe(before + 1)
  })
})

describe('OAuth failures store nothing', () => {
  it('refuses a replayed state', async () => {
    const providerRedirect = await oauth.authorize((await authorizeUrl(a)).toString(), {
      approve: 'acct-replay',
    })
    const first = await callback(providerRedirect)
    expect(first.searchParams.get('status')).toBe('connected')
    const count = await connectionCount()
    const replay = await callback(providerRedirect)
    expect(replay.searchParams.get('status')).toBe('error')
    expect(replay.searchParams.get('error')).toBe('invalid_state')
    expect(await connectionCount()).toBe(count)
  })

  it('refuses concurrent callbacks with one state except one', async (ctx) => {
    needsRealConcurrency(ctx)
    const providerRedirect = await oauth.authorize((await authorizeUrl(a)).toString(), {
      approve: 'acct-race',
    })
    const results = await Promise.all(
      [0, 1, 0, 1].map(async (instance) => {
        const res = await navigate(`/api/integrations/callback${providerRedirect.search}`, { instance })
        return new URL(res.headers.get('location')!).searchParams.get('status')
      }),
    )
    expect(results.filter((s) => s === 'connected')).toHaveLength(1)
  })

  it('binds the state to the browser that started the flow: an HttpOnly, SameSite=Lax cookie (RFC 9700)', async () => {
    const res = await navigate('/api/integrations/notion/authorize', { token: a.token })
    expect(res.status).toBe(302)
    const [cookie] = res.headers.getSetCookie()
    expect(cookie).toMatch(/^oauth_binding_[0-9a-f]{16}=[A-Za-z0-9]{43}; /)
    const attrs = cookie!.split('; ').map((x) => x.toLowerCase())
    expect(attrs).toEqual(
      expect.arrayContaining(['httponly', 'samesite=lax', 'path=/api/integrations/callback', 'max-age=600']),
    )
    // The JSON form (the dashboard's fetch) sets it too.
    const json = await tp.request('/api/integrations/notion/authorize', {
      token: a.token,
      headers: { accept: 'application/json' },
    })
    expect(json.status).toBe(200)
    expect(json.headers.getSetCookie()[0]).toMatch(/^oauth_binding_.*HttpOnly/)
  })

  it("refuses a callback in another browser (login CSRF), which does not spend the victim's state", async () => {
    const count = await connectionCount()
    const providerRedirect = await oauth.authorize((await authorizeUrl(a)).toString(), {
      approve: 'acct-csrf',
    })
    // The attacker's link opened in a browser without the cookie, or with someone else's.
    const other = await callback(providerRedirect, new Map())
    expect(other.searchParams.get('error')).toBe('invalid_state')
    const forged = new Map([...browser].map(([k]) => [k, 'A'.repeat(43)]))
    expect((await callback(providerRedirect, forged)).searchParams.get('error')).toBe('invalid_state')
    expect(await connectionCount()).toBe(count)
    // The browser that started it still completes it.
    expect((await callback(providerRedirect)).searchParams.get('status')).toBe('connected')
  })

  it('refuses an unknown or expired state', async () => {
    const count = await connectionCount()
    const unknown = await callback(
      new URL(`${PUBLIC_URL}/api/integrations/callback?code=abc&state=not-a-state`),
    )
    expect(unknown.searchParams.get('error')).toBe('invalid_state')

    const providerRedirect = await oauth.authorize((await authorizeUrl(a)).toString(), {
      approve: 'acct-late',
    })
    clock.advance(10 * 60 * 1000 + 1)
    const late = await callback(providerRedirect)
    expect(late.searchParams.get('error')).toBe('invalid_state')
    expect(await connectionCount()).toBe(count)
  })

  it('reports denied consent', async () => {
    const count = await connectionCount()
    const providerRedirect = await oauth.authorize((await authorizeUrl(a)).toString(), { deny: true })
    expect(providerRedirect.searchParams.get('error')).toBe('access_denied')
    const back = await callback(providerRedirect)
    expect(back.searchParams.get('status')).toBe('error')
    expect(back.searchParams.get('error')).toBe('access_denied')
    expect(await connectionCount()).toBe(count)
  })

  it('reports a failing token endpoint', async () => {
    const count = await connectionCount()
    const providerRedirect = await oauth.authorize((await authorizeUrl(a)).toString(), {
      approve: 'acct-fail',
    })
    oauth.failNextTokenRequests(1)
    const back = await callback(providerRedirect)
    expect(back.searchParams.get('error')).toBe('token_exchange_failed')
    expect(await connectionCount()).toBe(count)
  })

  it('checks the RFC 9207 iss of the strict server: another issuer is refused and its code never exchanged', async () => {
    const count = await connectionCount()
    const providerRedirect = await oauth.authorize((await authorizeUrl(a)).toString(), {
      approve: 'acct-iss',
    })
    // The strict server names itself in every authorization response.
    expect(providerRedirect.searchParams.get('iss')).toBe(oauth.issuer)
    const mixedUp = new URL(providerRedirect)
    mixedUp.searchParams.set('iss', 'http://127.0.0.1:1')
    const back = await callback(mixedUp)
    expect(back.searchParams.get('status')).toBe('error')
    expect(back.searchParams.get('error')).toBe('issuer_mismatch')
    expect(await connectionCount()).toBe(count)
    const code = await oauth.provider.AuthorizationCode.find(providerRedirect.searchParams.get('code')!)
    expect(code, 'the code is still unredeemed at the provider').toBeDefined()
    expect(code!.consumed).toBeUndefined()

    // An error response is judged by its issuer first, too.
    const denied = await oauth.authorize((await authorizeUrl(a)).toString(), { deny: true })
    denied.searchParams.set('iss', `${oauth.issuer}/`)
    expect((await callback(denied)).searchParams.get('error')).toBe('issuer_mismatch')
  })

  it('requires iss when the provider metadata says it sends it', async () => {
    const count = await connectionCount()
    const metadata = await (await fetch(`${oauth.issuer}/.well-known/openid-configuration`)).json()
    expect(metadata.authorization_response_iss_parameter_supported).toBe(true)
    const providerRedirect = await oauth.authorize((await authorizeUrl(a)).toString(), {
      approve: 'acct-iss',
    })
    const stripped = new URL(providerRedirect)
    stripped.searchParams.delete('iss')
    const back = await callback(stripped)
    expect(back.searchParams.get('error')).toBe('issuer_missing')
    expect(await connectionCount()).toBe(count)
  })

  it('answers 400 for a callback without a state and refuses members and anonymous callers at authorize', async () => {
    const res = await tp.json('/api/integrations/callback?code=abc')
    expect(res.status).toBe(400)
    expect(res.body.details.map((d: { field: string }) => d.field)).toContain('state')
    expect((await tp.json('/api/integrations/notion/authorize')).status).toBe(401)
    const member = await addMember(tp, a.tenantId, 'member')
    expect((await tp.json('/api/integrations/notion/authorize', { token: member.token })).status).toBe(403)
    expect((await tp.json('/api/integrations/nope/authorize', { token: a.token })).status).toBe(404)
    // Slack has no client configured on this deployment.
    expect((await tp.json('/api/integrations/slack/authorize', { token: a.token })).status).toBe(422)
  })
})

describe('the refresh job under concurrency and failure', () => {
  // Only the given connections are due; every other one is pushed a day out, so counts are exact.
  const expireSoon = async (ids: string[]) => {
    await tp.db
      .sql`update public.integration_connections set token_expires_at = ${new Date(clock.now().getTime() + 86_400_000)}
                    where not (id = any(${ids}::uuid[])) and connection_type = 'oauth'`
    await tp.db
      .sql`update public.integration_connections set token_expires_at = ${new Date(clock.now().getTime() + 10 * 60_000)}
                    where id = any(${ids}::uuid[])`
  }

  it('never presents a refresh token twice when runs on two instances overlap', async (ctx) => {
    needsRealConcurrency(ctx)
    const t = await tp.createTenant()
    const ids: string[] = []
    for (let i = 0; i < 6; i++)
      ids.push((await connect(t, `acct-conc-${i}`)).searchParams.get('connection_id')!)
    const revokedBefore = oauth.grantsRevoked
    for (let round = 0; round < 3; round++) {
      await expireSoon(ids)
      const before = await Promise.all(ids.map(async (id) => (await storedTokens(id)).refresh))
      const runs = await Promise.all(
        [0, 1, 0, 1, 0, 1].map(async (i) =>
          (await tp.instances[i]!.platform.runJob('integrations/jobs/refresh-tokens')).json(),
        ),
      )
      expect(runs.reduce((n, r) => n + r.refreshed, 0)).toBe(ids.length)
      for (const [i, id] of ids.entries()) {
        expect(oauth.refreshUses.get(before[i]!), `connection ${i} round ${round}`).toBe(1)
        expect((await storedTokens(id)).refresh).not.toBe(before[i])
      }
    }
    for (const uses of oauth.refreshUses.values()) expect(uses).toBe(1)
    expect(oauth.grantsRevoked).toBe(revokedBefore)
    const statuses = await tp.db
      .sql`select distinct status from public.integration_connections where id = any(${ids}::uuid[])`
    expect(statuses.map((s) => s.status)).toEqual(['active'])
  })

  it('retries transient failures, then backs off until a later run', async () => {
    const t = await tp.createTenant()
    const id = (await connect(t, 'acct-transient')).searchParams.get('connection_id')!
    await expireSoon([id])
    oauth.failNextTokenRequests(1) // the retry inside the run succeeds
    let run = await (await tp.instances[0]!.platform.runJob('integrations/jobs/refresh-tokens')).json()
    expect(run).toMatchObject({ refreshed: 1, failed: 0 })

    await expireSoon([id])
    oauth.failNextTokenRequests(3) // every attempt of this run fails
    run = await (await tp.instances[0]!.platform.runJob('integrations/jobs/refresh-tokens')).json()
    expect(run).toMatchObject({ refreshed: 0, failed: 1 })
    const [row] = await tp.db
      .sql`select status, refresh_failures, refresh_next_attempt_at, last_refresh_error from public.integration_connections where id = ${id}`
    expect(row).toMatchObject({ status: 'active', refresh_failures: 1 })
    expect(row!.refresh_next_attempt_at.getTime()).toBe(clock.now().getTime() + 5 * 60_000)
    expect(row!.last_refresh_error).toContain('503')
    // Backing off: the next run leaves it alone; after the wait it is refreshed.
    run = await (await tp.instances[1]!.platform.runJob('integrations/jobs/refresh-tokens')).json()
    expect(run.claimed).toBe(0)
    clock.advance(5 * 60_000)
    run = await (await tp.instances[1]!.platform.runJob('integrations/jobs/refresh-tokens')).json()
    expect(run).toMatchObject({ refreshed: 1 })
  })

  it('marks invalid_grant as needing re-authorization and notifies the owners once', async () => {
    const t = await tp.createTenant()
    const coOwner = await addMember(tp, t.tenantId, 'owner')
    const admin = await addMember(tp, t.tenantId, 'admin')
    const id = (await connect(t, 'acct-revoked')).searchParams.get('connection_id')!
    // The user revokes the app at the provider.
    const { refresh } = await storedTokens(id)
    const rt = await oauth.provider.RefreshToken.find(refresh)
    await oauth.provider.Grant.adapter.destroy(rt!.grantId!)
    await expireSoon([id])

    const runs = await Promise.all(
      [0, 1].map(async (i) =>
        (await tp.instances[i]!.platform.runJob('integrations/jobs/refresh-tokens')).json(),
      ),
    )
    expect(runs.reduce((n, r) => n + r.needs_reauth, 0)).toBe(1)
    await (await tp.instances[0]!.platform.runJob('integrations/jobs/refresh-tokens')).json()

    const conn = await tp.json(`/api/connections/${id}`, { token: t.token })
    expect(conn.body.status).toBe('needs_reauth')
    const notes = await tp.db
      .sql`select recipient from public.notifications where tenant_id = ${t.tenantId} and kind = 'integration.needs_reauth'`
    expect(notes.map((n) => n.recipient).sort()).toEqual([t.email, coOwner.email].sort())
    expect(notes.map((n) => n.recipient)).not.toContain(admin.email)
    // Subscribers hear of it once, whichever instance saw the refusal.
    const events = await tp.db.sql`
      select data from public.event_outbox where tenant_id = ${t.tenantId} and type = 'connection.reauthorization_required'`
    expect(events.map((e) => e.data)).toEqual([
      {
        connection_id: id,
        integration_id: notion.integration_id,
        integration_slug: 'notion',
        display_name: null,
        external_account_name: 'Workspace of acct-revoked',
        reason: 'invalid_grant',
        reconnect_path: '/api/integrations/notion/authorize',
      },
    ])

    // Reconnecting the same account makes it active again.
    const back = await connect(t, 'acct-revoked')
    expect(back.searchParams.get('connection_id')).toBe(id)
    expect((await tp.json(`/api/connections/${id}`, { token: t.token })).body.status).toBe('active')
  })

  it('revokes at the provider when a connection is deleted, and tenant B cannot touch it', async () => {
    const id = (await connect(a, 'acct-delete')).searchParams.get('connection_id')!
    const { refresh } = await storedTokens(id)
    expect((await tp.json(`/api/connections/${id}`, { token: b.token, method: 'DELETE' })).status).toBe(404)
    const del = await tp.json(`/api/connections/${id}`, { token: a.token, method: 'DELETE' })
    expect(del.status).toBe(200)
    expect(del.body).toEqual({ id, deleted: true, revoked_at_provider: true })
    expect(await oauth.provider.RefreshToken.find(refresh)).toBeFalsy()
    expect(await connectionCount()).toBeGreaterThan(0)
    expect(
      (await tp.db.sql`select count(*)::int as n from public.integration_connections where id = ${id}`)[0]!.n,
    ).toBe(0)
  })
})
