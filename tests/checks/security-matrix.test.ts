import { readFileSync } from 'node:fs'
import { functionModules } from '@local-platform/functions.ts'
import {
  openApiDocuments,
  ROUTE_TABLE_BEGIN,
  ROUTE_TABLE_END,
  type RouteAuthEntry,
  renderRouteTable,
  routesOf,
} from '@scripts/lib/route-catalog.ts'
import type { CallerKind } from '@shared/infra/caller.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  addMember,
  startTestPlatform,
  TestClock,
  type TestPlatform,
  type TestTenant,
} from '../support/platform.ts'
import { fixtureEventId, seedEveryTenantTable, tenantFixtures } from '../support/tenant-fixtures.ts'

/**
 * The shared security matrix: every route of every function's OpenAPI document, read from the
 * running platform, is checked against the authentication it declares (x-auth):
 *   - 401 AUTH_REQUIRED without credentials;
 *   - 401 for every caller kind the route does not allow; for every kind it does, an answer below
 *     500, never 401, 403 or 429, and never 404 for the caller's own record;
 *   - 403 INSUFFICIENT_PERMISSIONS for a key without the route's scope, for a member where the
 *     route needs owner or admin, and for a key whose creator was an admin when they made it and
 *     is a member now (a key acts with its creator's current role);
 *   - 404 NOT_FOUND for another tenant's ids (tests/support/tenant-fixtures.ts makes them);
 *   - a published-only key: refused (403, or 401 where no platform key is taken) on every route
 *     but those that name it, which answer as `publishedKeyAnswers` declares (deny by default);
 *   - a contributor on every route its role may call: let in, refused only as `contributorRefusals`
 *     declares.
 * A new route is covered by being registered; one with an id and no fixture fails here.
 */

let tp: TestPlatform
let owner: TestTenant
let member: TestTenant
let contributor: TestTenant
let other: TestTenant
const entries: RouteAuthEntry[] = []
const credentials = {} as Record<Exclude<CallerKind, 'user_without_tenant'>, Record<string, string>>
const scopeless = {} as Record<'platform_key' | 'tool_key', Record<string, string>>
/** Keys with every scope, made by an admin who was then demoted to member. */
const demotedCreators = {} as Record<'platform_key' | 'tool_key', Record<string, string>>
let otherIds: Record<string, string>
let ownIds: Record<string, string>
let clientCounter = 0
/** Moved a second per request: no caller's rate limit (100 a minute for keys) is ever reached. */
const clock = new TestClock(new Date())

beforeAll(async () => {
  tp = await startTestPlatform({ clock })
  owner = await tp.createTenant()
  member = await addMember(tp, owner.tenantId, 'member')
  contributor = await addMember(tp, owner.tenantId, 'contributor')
  other = await tp.createTenant()
  const key = async (kind: 'platform' | 'tool_server', scopes: string[], token = owner.token) => {
    const environment = kind === 'platform' ? 'production' : 'development'
    const res = await tp.json('/api/api-keys', {
      token,
      body: { name: `matrix ${kind}`, kind, environment, scopes, rate_limit_per_minute: 100 },
    })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    return res.body.key as string
  }
  const allScopes = [
    'content:read',
    'content:write',
    'analytics:read',
    'billing:read',
    'assistant:invoke',
    'users:read',
    'users:write',
  ]
  credentials.user = { authorization: `Bearer ${owner.token}` }
  credentials.platform_key = { authorization: `Bearer ${await key('platform', allScopes)}` }
  const publishedOnly = await tp.json('/api/api-keys', {
    token: owner.token,
    body: {
      name: 'matrix published-only',
      environment: 'production',
      scopes: ['content:read'],
      rate_limit_per_minute: 100,
      published_only: true,
    },
  })
  expect(publishedOnly.status, JSON.stringify(publishedOnly.body)).toBe(201)
  credentials.published_key = { authorization: `Bearer ${publishedOnly.body.key}` }
  credentials.tool_key = { 'x-api-key': await key('tool_server', allScopes) }
  credentials.service = { apikey: tp.serviceRoleKey }
  credentials.anon = { apikey: tp.anonKey }
  scopeless.platform_key = { authorization: `Bearer ${await key('platform', ['users:read'])}` }
  scopeless.tool_key = { 'x-api-key': await key('tool_server', ['users:read']) }
  const admin = await addMember(tp, owner.tenantId, 'admin')
  demotedCreators.platform_key = { authorization: `Bearer ${await key('platform', allScopes, admin.token)}` }
  demotedCreators.tool_key = { 'x-api-key': await key('tool_server', allScopes, admin.token) }
  const demoted = await tp.json(`/api/tenants/current/members/${admin.userId}`, {
    method: 'PATCH',
    token: owner.token,
    body: { role: 'member' },
  })
  expect(demoted.status, JSON.stringify(demoted.body)).toBe(200)
  otherIds = await tenantFixtures(tp, other)
  ownIds = await seedEveryTenantTable(tp, owner)
  const catalog = (await tp.json('/api/integrations', { token: owner.token })).body.data
  ownIds.global = catalog[0].integration_id
  // Pending MCP authorization requests (no tenant until a user decides): one to read, one to decide.
  await tp.db.sql`insert into private.mcp_oauth_clients (client_id, client_name, redirect_uris)
    values ('mcpc_matrix', 'Matrix client', '{http://127.0.0.1/callback}')`
  for (const name of ['mcpAuthorizationRequest', 'mcpDecisionRequest']) {
    ownIds[name] = crypto.randomUUID()
    await tp.db
      .sql`insert into private.mcp_oauth_requests (id, client_id, redirect_uri, code_challenge, scopes,
        resource, expires_at)
      values (${ownIds[name]!}, 'mcpc_matrix', 'http://127.0.0.1/callback', 'x', '{content:read}',
        'http://127.0.0.1/mcp', now() + interval '1 hour')`
  }
  for (const m of functionModules) {
    const doc = await tp.json(`/functions/v1/${m.functionName}/openapi.json`)
    expect(doc.status, m.functionName).toBe(200)
    entries.push(...routesOf(m.functionName, doc.body))
  }
}, 120_000)
afterAll(() => tp?.close())

const UUID_PARAM = /\{(\w*id)\}/g

function pathOf(e: RouteAuthEntry, ids: Record<string, string> = {}): string {
  const path = e.path
    .replace(UUID_PARAM, (_, name) => ids[name] ?? crypto.randomUUID())
    .replace(/\{(\w+)\}/g, (_, name) => ids[name] ?? 'x')
  return `/functions/v1/${e.fn}${path === '/' ? '' : path}`
}

/** Each request comes from its own client address, so the unauthenticated limit never interferes. */
async function call(
  e: RouteAuthEntry,
  headers: Record<string, string>,
  opts: { path?: string; body?: unknown } = {},
) {
  const withBody = e.method !== 'GET' && e.method !== 'DELETE'
  clock.advance(1000)
  const res = await tp.request(opts.path ?? pathOf(e), {
    method: e.method,
    headers: { ...headers, 'x-test-client': `198.51.100.${++clientCounter % 250}` },
    ...(withBody && { body: opts.body ?? {} }),
  })
  // A stream (a turn's events) is text; everything else answers JSON.
  const text = await res.text()
  const isJson = (res.headers.get('content-type') ?? '').includes('json')
  return { status: res.status, headers: res.headers, body: text && isJson ? JSON.parse(text) : undefined }
}

const label = (e: RouteAuthEntry) => `${e.method} ${e.fn}${e.path}`

/** A route's path with the owner's own records (a 404 there would mean the caller was not let in). */
function ownPath(e: RouteAuthEntry): string {
  const fixture = fixtureFor(e)
  if (!fixture) return pathOf(e)
  return pathOf(e, {
    id: ownIds[fixture]!,
    user_id: ownIds[fixture]!,
    program_id: ownIds.affiliateProgram!,
    // A finished call: deciding it again is a 409, never a 404.
    call_id: ownIds.assistantToolCall!,
    // A finished turn and an assistant message: cancelling or editing them is a 409.
    turn_id: ownIds.assistantTurn!,
    message_id: ownIds.assistantMessage!,
    site_id: ownIds.site!,
    slug: 'fixture',
    revision_id: ownIds.articleRevision!,
    preview_id: ownIds.articlePreview!,
  })
}

const bodyFor = (e: RouteAuthEntry) =>
  label(e) === 'POST webhooks/{id}/redeliver' ? { event_id: fixtureEventId(owner) } : validBodies[label(e)]
const kinds = ['user', 'platform_key', 'tool_key', 'service', 'anon'] as const

describe('security matrix', () => {
  it('covers every route, and every route declares its callers', () => {
    expect(entries.length).toBeGreaterThan(0)
    for (const e of entries) expect(Array.isArray(e.allow), label(e)).toBe(true)
  })

  it('answers 401 AUTH_REQUIRED without credentials', async () => {
    // A WebSub hub is a request without credentials: only the routes that name it take one (below).
    for (const e of entries.filter((e) => e.allow.length > 0 && !e.allow.includes('websub_hub'))) {
      const res = await call(e, {})
      expect([res.status, res.body?.code], label(e)).toEqual([401, 'AUTH_REQUIRED'])
      expect(res.body.error, label(e)).toBe('Unauthorized')
    }
  })

  it("takes a WebSub hub (no credentials) only at a source's callback, where a wrong address is 404", async () => {
    // Deny by default: a new kind of caller reaches only the routes that name it (ADR 0042).
    const declaring = entries.filter((e) => e.allow.includes('websub_hub'))
    expect(declaring.map(label).sort()).toEqual([
      'GET scrape-social/sources/websub/{subscription_id}/{token}',
      'POST scrape-social/sources/websub/{subscription_id}/{token}',
    ])
    for (const e of declaring) {
      expect(e.allow, label(e)).toEqual(['websub_hub'])
      const query = e.method === 'GET' ? '?hub.mode=subscribe&hub.topic=t&hub.challenge=c' : ''
      const res = await call(e, {}, { path: `${pathOf(e)}${query}`, body: {} })
      expect([res.status, res.body?.code], label(e)).toEqual([404, 'NOT_FOUND'])
    }
  })

  it('refuses a published-only key on every route but those that declare it, which answer as declared', async () => {
    // Deny by default: the routes that name published_key are exactly the declared ones below.
    const declaring = entries.filter((e) => e.allow.includes('published_key')).map(label)
    expect(declaring.sort(), 'a route that takes published-only keys declares its answer here').toEqual(
      Object.keys(publishedKeyAnswers).sort(),
    )
    for (const e of entries.filter((e) => e.allow.length > 0)) {
      const res = await call(e, credentials.published_key, { path: ownPath(e), body: bodyFor(e) })
      const where = `${label(e)} as a published-only key: ${res.status} ${JSON.stringify(res.body)}`
      const declared = publishedKeyAnswers[label(e)]
      if (declared !== undefined) expect(res.status, where).toBe(declared)
      else if (e.allow.includes('platform_key'))
        // A platform key of the kind the route does not take: verified, then refused.
        expect([res.status, res.body?.code], where).toEqual([403, 'INSUFFICIENT_PERMISSIONS'])
      else expect([res.status, res.body?.code], where).toEqual([401, 'AUTH_REQUIRED'])
    }
  })

  it('lets a contributor in wherever its role is allowed, refused only where declared', async () => {
    let tried = 0
    for (const e of entries.filter((e) => e.allow.includes('user'))) {
      if (e.roles && !e.roles.includes('contributor')) continue // 403 (the next test)
      // Deciding spends the pending MCP request the next test decides as the owner: a fresh id.
      const path = label(e) === 'POST mcp-sse/oauth/requests/{id}/decision' ? pathOf(e, {}) : ownPath(e)
      const res = await call(e, { authorization: `Bearer ${contributor.token}` }, { path, body: bodyFor(e) })
      const where = `${label(e)} as a contributor: ${res.status} ${JSON.stringify(res.body)}`
      expect(res.status, where).toBeLessThan(500)
      expect([401, 429], where).not.toContain(res.status)
      const declared = contributorRefusals[label(e)]
      if (declared) expect([res.status, res.body?.code], where).toEqual(declared)
      else expect([403, 404], where).not.toContain(res.status)
      tried++
    }
    expect(tried).toBeGreaterThan(60)
  })

  it('refuses every caller kind a route does not allow, and lets in those it does', async () => {
    // Routes with an id are called with the owner's own record (a 404 would mean the caller was
    // not really let in). Deletions run last, newest fixture first, so none removes a record a
    // later call needs (a site before its source, a destination before its program).
    const order = (e: RouteAuthEntry) =>
      e.method === 'DELETE' ? 1000 - Object.keys(ownIds).indexOf(fixtureFor(e) ?? '') : 0
    const allowed = entries
      .filter((e) => e.allow.length > 0)
      .sort((x, y) => order(x) - order(y) || y.path.length - x.path.length)
    let letIn = 0
    for (const e of allowed) {
      const fixture = fixtureFor(e)
      const path = ownPath(e)
      let deleted = false
      for (const kind of kinds) {
        const res = await call(e, credentials[kind], { path, body: bodyFor(e) })
        const where = `${label(e)} as ${kind}: ${res.status} ${JSON.stringify(res.body)}`
        if (e.allow.includes(kind)) {
          expect(res.status, where).toBeLessThan(500)
          expect([401, 403, 429], where).not.toContain(res.status)
          if (fixture && !deleted) expect(res.status, `${where} (its own record)`).not.toBe(404)
          if (e.method === 'DELETE' && res.status < 300) deleted = true
          letIn++
        } else {
          expect([res.status, res.body?.code], `${label(e)} as ${kind}`).toEqual([401, 'AUTH_REQUIRED'])
        }
      }
    }
    expect(letIn).toBeGreaterThan(allowed.length)
    // Every route times every caller kind, one after another: over 600 requests.
  }, 90_000)

  it('answers 403 for a key without the scope, a member without the role, and a demoted creator’s key', async () => {
    let checked = 0
    let demotedChecked = 0
    const contributorChecked: string[] = []
    for (const e of entries) {
      for (const kind of ['platform_key', 'tool_key'] as const) {
        if (!e.roles || e.roles.includes('member') || !e.allow.includes(kind)) continue
        const res = await call(e, demotedCreators[kind], { body: validBodies[label(e)] })
        expect([res.status, res.body?.code], `${label(e)} as ${kind} of a demoted admin`).toEqual([
          403,
          'INSUFFICIENT_PERMISSIONS',
        ])
        demotedChecked++
      }
      for (const kind of ['platform_key', 'tool_key'] as const) {
        if (!e.scope || !e.allow.includes(kind)) continue
        const res = await call(e, scopeless[kind])
        expect([res.status, res.body?.code], `${label(e)} as ${kind} without ${e.scope}`).toEqual([
          403,
          'INSUFFICIENT_PERMISSIONS',
        ])
        checked++
      }
      if (e.roles && e.allow.includes('user') && !e.roles.includes('member')) {
        const res = await call(e, { authorization: `Bearer ${member.token}` })
        expect([res.status, res.body?.code], `${label(e)} as a member`).toEqual([
          403,
          'INSUFFICIENT_PERMISSIONS',
        ])
        checked++
      }
      if (e.roles && e.allow.includes('user') && !e.roles.includes('contributor')) {
        const res = await call(
          e,
          { authorization: `Bearer ${contributor.token}` },
          { body: validBodies[label(e)] },
        )
        expect([res.status, res.body?.code], `${label(e)} as a contributor`).toEqual([
          403,
          'INSUFFICIENT_PERMISSIONS',
        ])
        contributorChecked.push(label(e))
      }
    }
    expect(checked).toBeGreaterThan(0)
    // The editors' content routes among them: publishing, scheduling, sites and tags.
    expect(contributorChecked).toEqual(
      expect.arrayContaining([
        'POST content/articles/{id}/publish',
        'POST content/articles/{id}/schedule',
        'POST content/articles/{id}/unpublish',
        'POST content/articles/{id}/return',
        'DELETE content/tags/{id}',
        'POST content/sites',
      ]),
    )
    // The assistant's approvals and settings, sources' and affiliate destinations' writes.
    expect(demotedChecked).toBeGreaterThan(5)
  })

  it("answers 404 for another tenant's ids", async () => {
    const withIds = entries.filter((e) => e.allow.includes('user') && /\{\w*id\}/.test(e.path))
    const missing = withIds.filter((e) => !fixtureFor(e))
    expect(missing.map(label), 'routes with ids need a fixture in tests/support/tenant-fixtures.ts').toEqual(
      [],
    )
    for (const e of withIds) {
      const fixture = fixtureFor(e)!
      if (fixture === 'global') continue
      const res = await call(e, credentials.user, {
        path: pathOf(e, {
          id: otherIds[fixture]!,
          user_id: otherIds[fixture]!,
          call_id: otherIds.assistantToolCall!,
          // Our own turn under their conversation: the pair must match, so 404 all the same.
          turn_id: ownIds.assistantTurn!,
          site_id: otherIds.site!,
          slug: 'fixture',
          revision_id: otherIds.articleRevision!,
          preview_id: otherIds.articlePreview!,
        }),
        body: validBodies[label(e)],
      })
      expect([res.status, res.body?.code], `${label(e)}: ${JSON.stringify(res.body)}`).toEqual([
        404,
        'NOT_FOUND',
      ])
    }
  })

  it('public feed routes show nothing a published-only key could not read, and nothing of a site whose feeds are off', async () => {
    const publicFeeds = entries.filter(
      (e) => e.allow.length === 0 && e.fn === 'content' && e.path.startsWith('/feeds/'),
    )
    expect(publicFeeds.map(label).sort()).toEqual(
      [
        'GET content/feeds/{site_id}/atom.xml',
        'GET content/feeds/{site_id}/feed.json',
        'GET content/feeds/{site_id}/rss.xml',
        'GET content/feeds/{site_id}/sitemap.xml',
        'GET content/feeds/{site_id}/sitemaps/{page}',
      ].sort(),
    )
    const site = await tp.json('/v1/content/sites', {
      token: owner.token,
      body: { name: 'Matrix public', domain: 'matrix.example.com', public_feeds: true },
    })
    expect(site.status, JSON.stringify(site.body)).toBe(201)
    const write = (title: string) =>
      tp.json('/v1/content/articles', { token: owner.token, body: { site_id: site.body.id, title } })
    const shown = (await write('Matrix shown')).body
    await tp.json(`/v1/content/articles/${shown.id}/publish`, { method: 'POST', token: owner.token })
    const draft = (await write('Matrix draft')).body
    const scheduled = (await write('Matrix scheduled')).body
    await tp.json(`/v1/content/articles/${scheduled.id}/schedule`, {
      token: owner.token,
      body: { publish_at: '2100-01-01T00:00:00Z' },
    })
    const key = await tp.json('/api/api-keys', {
      token: owner.token,
      body: {
        name: 'matrix published-only',
        environment: 'production',
        scopes: ['content:read'],
        published_only: true,
        rate_limit_per_minute: 100,
      },
    })
    const asKey = await tp.json(`/v1/content?site_id=${site.body.id}&type=article&limit=100`, {
      token: key.body.key,
    })
    const readable = new Set(asKey.body.data.map((a: { slug: string }) => a.slug))
    expect([...readable]).toEqual([shown.slug])
    const hidden = [draft, scheduled]
    for (const e of publicFeeds) {
      const path = pathOf(e, { site_id: site.body.id, page: '1.xml' })
      const res = await tp.request(path, {
        headers: { 'x-test-client': `198.51.100.${++clientCounter % 250}` },
      })
      const text = await res.text()
      expect(res.status, `${label(e)}: ${text}`).toBe(200)
      for (const a of hidden) {
        expect(text, label(e)).not.toContain(a.id)
        expect(text, label(e)).not.toContain(a.slug)
      }
      const linked = [...text.matchAll(/https:\/\/matrix\.example\.com\/([a-z0-9-]+)/g)].map((m) => m[1])
      expect(linked.length, label(e)).toBeGreaterThan(0)
      for (const slug of linked) expect(readable.has(slug), `${label(e)} links ${slug}`).toBe(true)
      // Another tenant's site, whose feeds are off: nothing, as for an unknown site.
      const other = await call(e, {}, { path: pathOf(e, { site_id: otherIds.site!, page: '1.xml' }) })
      expect([other.status, other.body?.code], label(e)).toEqual([404, 'NOT_FOUND'])
    }
  })

  it("the public preview read shows a link's own article only, private and no-store; other tokens are 404", async () => {
    const publicContent = entries.filter((e) => e.allow.length === 0 && e.fn === 'content')
    const previews = publicContent.filter((e) => !e.path.startsWith('/feeds/')).map(label)
    expect(previews).toEqual(['GET content/previews/{token}'])
    const read = async (token: string) => {
      const res = await tp.request(`/functions/v1/content/previews/${token}`, {
        headers: { 'x-test-client': `198.51.100.${++clientCounter % 250}` },
      })
      return { status: res.status, cache: res.headers.get('cache-control'), body: await res.json() }
    }
    // Each tenant's token reads that tenant's article, and nothing else. (Fresh ones: the matrix
    // has revoked and deleted the fixtures by now.)
    const linkTo = async (tenant: TestTenant) => {
      const site = await tp.json('/v1/content/sites', { token: tenant.token, body: { name: 'Preview site' } })
      const article = await tp.json('/v1/content/articles', {
        token: tenant.token,
        body: { site_id: site.body.id, title: 'Preview draft' },
      })
      const link = await tp.json(`/v1/content/articles/${article.body.id}/previews`, {
        method: 'POST',
        token: tenant.token,
      })
      expect(link.status, JSON.stringify(link.body)).toBe(201)
      return { articleId: article.body.id as string, token: link.body.token as string, id: link.body.id }
    }
    const ownLink = await linkTo(owner)
    const otherLink = await linkTo(other)
    const own = await read(ownLink.token)
    const others = await read(otherLink.token)
    expect([own.status, own.body.id, own.cache]).toEqual([200, ownLink.articleId, 'private, no-store'])
    expect([others.status, others.body.id]).toEqual([200, otherLink.articleId])
    // A made-up, a malformed and a revoked token: the same 404, never cached.
    const revoke = await tp.json(`/v1/content/articles/${otherLink.articleId}/previews/${otherLink.id}`, {
      method: 'DELETE',
      token: other.token,
    })
    expect(revoke.status).toBe(204)
    for (const token of [`prv_${'a'.repeat(32)}`, 'prv_', otherLink.token]) {
      const res = await read(token)
      expect([res.status, res.body.code, res.cache], token).toEqual([404, 'NOT_FOUND', 'private, no-store'])
    }
  })

  it("is the README's route table", () => {
    const readme = readFileSync('README.md', 'utf8')
    const table = readme.slice(
      readme.indexOf(ROUTE_TABLE_BEGIN) + ROUTE_TABLE_BEGIN.length,
      readme.indexOf(ROUTE_TABLE_END),
    )
    expect(table.trim(), 'run npm run docs:routes').toBe(renderRouteTable(entries))
  })

  it('reads the same routes from the apps as from the served documents', async () => {
    const docs = await openApiDocuments()
    expect([...docs].flatMap(([fn, doc]) => routesOf(fn, doc))).toEqual(entries)
  })
})

/**
 * Which fixture id a route's {id} is: the fixture names of tests/support/tenant-fixtures.ts, or
 * 'global' for catalog ids that belong to no tenant.
 */
function fixtureFor(e: RouteAuthEntry): string | undefined {
  const key = `${e.fn}${e.path}`
  for (const [pattern, fixture] of fixturePatterns) if (key.startsWith(pattern)) return fixture
  return undefined
}

const fixturePatterns: [string, string][] = [
  ['api-keys/{id}', 'apiKey'],
  ['content/sites/{id}', 'site'],
  ['content/sites/{site_id}/articles/{slug}', 'site'],
  ['content/tags/{id}', 'tag'],
  ['content/media/{id}', 'media'],
  ['content/articles/{id}', 'article'],
  ['credentials/{id}', 'credential'],
  ['webhooks/{id}', 'webhook'],
  ['usage/alerts/{id}', 'alert'],
  ['tenants/invitations/{id}', 'invitation'],
  ['tenants/current/members/{user_id}', 'member'],
  ['integrations/connections/{id}', 'connection'],
  // Catalog entries belong to no tenant: every tenant sees the same integration ids.
  ['integrations/{id}/stats', 'global'],
  ['commerce-webhook/stores/{id}', 'store'],
  ['commerce-webhook/deliveries/{id}', 'delivery'],
  ['tenants/background-jobs/{id}', 'job'],
  ['scrape-social/sources/{id}', 'source'],
  ['sync-affiliate/destinations/{id}', 'affiliateDestination'],
  // A pending MCP authorization request belongs to no tenant until a user approves it; its
  // unguessable id, valid ten minutes, is what the consent page is given. Deciding spends it.
  ['mcp-sse/oauth/requests/{id}/decision', 'mcpDecisionRequest'],
  ['mcp-sse/oauth/requests/{id}', 'mcpAuthorizationRequest'],
  ['mcp-sse/oauth/clients/{id}', 'mcpClient'],
  ['assistant/conversations/{id}', 'assistantConversation'],
  ['assistant/automations/{id}', 'assistantAutomation'],
  ['assistant/approvals/{call_id}', 'assistantToolCall'],
]

/**
 * What a published-only key gets from the routes that take it (publishedReader), with the owner's
 * fixtures: the fixture article is a draft, and its tag is carried by that draft only.
 */
const publishedKeyAnswers: Record<string, number> = {
  'GET content/': 200,
  'GET content/sites/{id}': 200,
  'GET content/tags': 200,
  'GET content/articles/{id}': 404,
  'GET content/sites/{site_id}/articles/{slug}': 404,
  'GET content/tags/{id}': 404,
}

/**
 * Where a contributor is refused although its role may call the route: the record is another
 * member's (the owner's fixtures), which the service refuses (403) or does not show (404).
 */
const contributorRefusals: Record<string, [number, string]> = {
  // Another author's article: contributors edit, submit, restore and delete their own drafts only.
  'PATCH content/articles/{id}': [403, 'INSUFFICIENT_PERMISSIONS'],
  'DELETE content/articles/{id}': [403, 'INSUFFICIENT_PERMISSIONS'],
  'POST content/articles/{id}/submit': [403, 'INSUFFICIENT_PERMISSIONS'],
  'POST content/articles/{id}/revisions/{revision_id}/restore': [403, 'INSUFFICIENT_PERMISSIONS'],
  // Another member's upload: a contributor changes and deletes its own media only.
  'PATCH content/media/{id}': [403, 'INSUFFICIENT_PERMISSIONS'],
  'DELETE content/media/{id}': [403, 'INSUFFICIENT_PERMISSIONS'],
  // Another member: a member removes only themselves.
  'DELETE tenants/current/members/{user_id}': [403, 'INSUFFICIENT_PERMISSIONS'],
  // Another member's connection.
  'PATCH integrations/connections/{id}': [403, 'INSUFFICIENT_PERMISSIONS'],
  'DELETE integrations/connections/{id}': [403, 'INSUFFICIENT_PERMISSIONS'],
  'POST integrations/connections/{id}/discover': [403, 'INSUFFICIENT_PERMISSIONS'],
  'POST integrations/connections/{id}/permissions': [403, 'INSUFFICIENT_PERMISSIONS'],
  // No integration with the slug the matrix sends (as for every caller).
  'GET integrations/{slug}/authorize': [404, 'NOT_FOUND'],
  // A pending MCP request the matrix makes up (the fixture is the owner's to decide).
  'POST mcp-sse/oauth/requests/{id}/decision': [404, 'NOT_FOUND'],
  // The owner's conversation: a member's conversations are their own.
  'GET assistant/conversations/{id}': [404, 'NOT_FOUND'],
  'PATCH assistant/conversations/{id}': [404, 'NOT_FOUND'],
  'DELETE assistant/conversations/{id}': [404, 'NOT_FOUND'],
  'POST assistant/conversations/{id}/messages': [404, 'NOT_FOUND'],
  'GET assistant/conversations/{id}/turns/{turn_id}/stream': [404, 'NOT_FOUND'],
  'POST assistant/conversations/{id}/turns/{turn_id}/cancel': [404, 'NOT_FOUND'],
  'POST assistant/conversations/{id}/regenerate': [404, 'NOT_FOUND'],
  'PUT assistant/conversations/{id}/messages/{message_id}': [404, 'NOT_FOUND'],
}

/** Bodies that pass validation, for routes whose 404 comes after it (keyed as label() prints them). */
const validBodies: Record<string, unknown> = {
  'PATCH content/articles/{id}': { title: 'Renamed' },
  'PATCH content/sites/{id}': { name: 'Renamed' },
  'PATCH content/tags/{id}': { name: 'Renamed' },
  'PATCH content/media/{id}': { alt_text: 'Renamed' },
  'POST content/articles/{id}/schedule': { publish_at: '2100-01-01T00:00:00Z' },
  'POST content/articles/{id}/return': { note: 'Add a source for the figures.' },
  // The fixture article's own locale (the site's default): 409 for a caller who may, 404 for another tenant's.
  'POST content/articles/{id}/translations': { locale: 'en' },
  'PATCH credentials/{id}': { name: 'Renamed' },
  'POST credentials/{id}/rotate': { credential: 'sk-rotated-secret-0123456789' },
  'PATCH webhooks/{id}': { description: 'Renamed' },
  'POST webhooks/{id}/redeliver': { event_id: 'evt_0000000000000000000000' },
  'POST webhooks/{id}/recover': { since: '2026-11-20T00:00:00Z' },
  'PATCH integrations/connections/{id}': { display_name: 'Renamed' },
  'POST integrations/connections/{id}/permissions': { tool_name: 'slack:post_message', allowed: true },
  'PATCH tenants/current/members/{user_id}': { role: 'member' },
  'PATCH commerce-webhook/stores/{id}': { name: 'Renamed' },
  'POST commerce-webhook/stores/{id}/rotate-secret': { secret: 'shpss_rotated_0123456789' },
  'PATCH scrape-social/sources/{id}': { name: 'Renamed' },
  'PATCH sync-affiliate/destinations/{id}': { name: 'renamed' },
  'POST sync-affiliate/destinations/{id}/programs': {
    name: 'x',
    network: 'awin',
    config: { feed_ids: ['1'] },
  },
  'POST assistant/conversations/{id}/messages': { content: 'hello' },
  'POST mcp-sse/oauth/requests/{id}/decision': { approve: false },
  'POST assistant/conversations/{id}/approvals/{call_id}': { approve: true },
  'POST assistant/approvals/{call_id}': { approve: true },
  'PUT assistant/conversations/{id}/messages/{message_id}': { content: 'hello' },
  'PATCH assistant/conversations/{id}': { title: 'Renamed' },
  'PATCH assistant/automations/{id}': { name: 'Renamed' },
}
