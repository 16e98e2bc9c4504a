import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  openApiDocuments,
  ROUTE_TABLE_BEGIN,
  ROUTE_TABLE_END,
  type RouteAuthEntry,
  renderRouteTable,
  routesOf,
} from '../scripts/lib/route-catalog.ts'
import { functionModules } from '../scripts/platform/functions.ts'
import type { CallerKind } from '../shared/infra/auth.ts'
import { addMember, startTestPlatform, type TestPlatform, type TestTenant } from './support/platform.ts'
import { tenantFixtures } from './support/tenant-fixtures.ts'

/**
 * The shared security matrix: every route of every function's OpenAPI document, read from the
 * running platform, is checked against the authentication it declares (x-auth):
 *   - 401 AUTH_REQUIRED without credentials;
 *   - 401 for every caller kind the route does not allow, and entry for every kind it does;
 *   - 403 INSUFFICIENT_PERMISSIONS for a key without the route's scope, and for a member where
 *     the route needs owner or admin;
 *   - 404 NOT_FOUND for another tenant's ids (tests/support/tenant-fixtures.ts makes them).
 * A new route is covered by being registered; one with an id and no fixture fails here.
 */

let tp: TestPlatform
let owner: TestTenant
let member: TestTenant
let other: TestTenant
const entries: RouteAuthEntry[] = []
const credentials = {} as Record<Exclude<CallerKind, 'user_without_tenant'>, Record<string, string>>
const scopeless = {} as Record<'platform_key' | 'tool_key', Record<string, string>>
let otherIds: Record<string, string>
let clientCounter = 0

beforeAll(async () => {
  tp = await startTestPlatform()
  owner = await tp.createTenant()
  member = await addMember(tp, owner.tenantId, 'member')
  other = await tp.createTenant()
  const key = async (kind: 'platform' | 'tool_server', scopes: string[]) => {
    const environment = kind === 'platform' ? 'production' : 'development'
    const res = await tp.json('/api/api-keys', {
      token: owner.token,
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
  credentials.tool_key = { 'x-api-key': await key('tool_server', allScopes) }
  credentials.service = { apikey: tp.serviceRoleKey }
  credentials.anon = { apikey: tp.anonKey }
  scopeless.platform_key = { authorization: `Bearer ${await key('platform', ['users:read'])}` }
  scopeless.tool_key = { 'x-api-key': await key('tool_server', ['users:read']) }
  otherIds = await tenantFixtures(tp, other)
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
    .replace(/\{\w+\}/g, 'x')
  return `/functions/v1/${e.fn}${path === '/' ? '' : path}`
}

/** Each request comes from its own client address, so the unauthenticated limit never interferes. */
async function call(
  e: RouteAuthEntry,
  headers: Record<string, string>,
  opts: { path?: string; body?: unknown } = {},
) {
  const withBody = e.method !== 'GET' && e.method !== 'DELETE'
  const res = await tp.json(opts.path ?? pathOf(e), {
    method: e.method,
    headers: { ...headers, 'x-test-client': `198.51.100.${++clientCounter % 250}` },
    ...(withBody && { body: opts.body ?? {} }),
  })
  return res
}

const label = (e: RouteAuthEntry) => `${e.method} ${e.fn}${e.path}`
const kinds = ['user', 'platform_key', 'tool_key', 'service', 'anon'] as const

describe('security matrix', () => {
  it('covers every route, and every route declares its callers', () => {
    expect(entries.length).toBeGreaterThan(0)
    for (const e of entries) expect(Array.isArray(e.allow), label(e)).toBe(true)
  })

  it('answers 401 AUTH_REQUIRED without credentials', async () => {
    for (const e of entries.filter((e) => e.allow.length > 0)) {
      const res = await call(e, {})
      expect([res.status, res.body?.code], label(e)).toEqual([401, 'AUTH_REQUIRED'])
      expect(res.body.error, label(e)).toBe('Unauthorized')
    }
  })

  it('refuses every caller kind a route does not allow, and lets in those it does', async () => {
    for (const e of entries.filter((e) => e.allow.length > 0)) {
      for (const kind of kinds) {
        const res = await call(e, credentials[kind])
        if (e.allow.includes(kind)) {
          expect([401, 403], `${label(e)} as ${kind}: ${JSON.stringify(res.body)}`).not.toContain(res.status)
        } else {
          expect([res.status, res.body?.code], `${label(e)} as ${kind}`).toEqual([401, 'AUTH_REQUIRED'])
        }
      }
    }
  })

  it('answers 403 for a key without the scope and a member without the role', async () => {
    let checked = 0
    for (const e of entries) {
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
    }
    expect(checked).toBeGreaterThan(0)
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
        path: pathOf(e, { id: otherIds[fixture]!, user_id: otherIds[fixture]! }),
        body: validBodies[label(e)],
      })
      expect([res.status, res.body?.code], `${label(e)}: ${JSON.stringify(res.body)}`).toEqual([
        404,
        'NOT_FOUND',
      ])
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
  ['assistant/conversations/{id}', 'assistantConversation'],
  ['assistant/automations/{id}', 'assistantAutomation'],
]

/** Bodies that pass validation, for routes whose 404 comes after it (keyed as label() prints them). */
const validBodies: Record<string, unknown> = {
  'PATCH content/articles/{id}': { title: 'Renamed' },
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
  'POST assistant/conversations/{id}/approvals/{call_id}': { approve: true },
  'PATCH assistant/automations/{id}': { name: 'Renamed' },
}
