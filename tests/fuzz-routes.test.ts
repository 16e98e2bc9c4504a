// Issue 16, item 1: no input gives a 5xx. A property-based walk of every route of every function's
// OpenAPI document (as served at /functions/v1/<fn>/openapi.json), with generated values that fit
// the schemas and values that break them: wrong types, huge numbers, extreme dates, deep nesting,
// odd Unicode (lone surrogates, NUL) and wrong content types. Every answer must be below 500, and
// every error must have the spec's body. The seed is printed on failure (fast-check's report).
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RouteAuthEntry, routesOf } from '../scripts/lib/route-catalog.ts'
import { functionModules } from '../scripts/platform/functions.ts'
import { errorStatus } from '../shared/infra/errors.ts'
import { startTestPlatform, type TestPlatform } from './support/platform.ts'

/** Cases per route; routes x cases is printed at the end. */
const CASES = Number(process.env.FUZZ_CASES ?? 30)

// biome-ignore lint/suspicious/noExplicitAny: JSON Schema of arbitrary shape, walked generically
type Schema = any
interface Operation {
  entry: RouteAuthEntry
  params: { name: string; in: 'path' | 'query'; required: boolean; schema: Schema }[]
  body?: Schema
}

let tp: TestPlatform
const operations: Operation[] = []
const credentials: Record<string, Record<string, string>> = {}
let sent = 0

beforeAll(async () => {
  tp = await startTestPlatform()
  const owner = await tp.createTenant()
  const key = async (kind: 'platform' | 'tool_server') => {
    const res = await tp.json('/api/api-keys', {
      token: owner.token,
      body: {
        name: `fuzz ${kind}`,
        kind,
        environment: kind === 'platform' ? 'production' : 'development',
        scopes: [
          'content:read',
          'content:write',
          'analytics:read',
          'billing:read',
          'users:read',
          'users:write',
        ],
        rate_limit_per_minute: kind === 'platform' ? 1000 : 100,
      },
    })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    return res.body.key as string
  }
  credentials.user = { authorization: `Bearer ${owner.token}` }
  credentials.user_without_tenant = credentials.user
  credentials.platform_key = { authorization: `Bearer ${await key('platform')}` }
  credentials.tool_key = { 'x-api-key': await key('tool_server') }
  credentials.service = { apikey: tp.serviceRoleKey }
  credentials.anon = { apikey: tp.anonKey }
  for (const m of functionModules) {
    const doc = (await tp.json(`/functions/v1/${m.functionName}/openapi.json`)).body
    for (const entry of routesOf(m.functionName, doc)) {
      const op = doc.paths[entry.path][entry.method.toLowerCase()]
      operations.push({
        entry,
        params: (op.parameters ?? []).filter((p: { in: string }) => p.in === 'path' || p.in === 'query'),
        body: op.requestBody?.content?.['application/json']?.schema,
      })
    }
  }
}, 120_000)

afterAll(async () => {
  console.log(`fuzz: ${operations.length} routes x ${CASES} cases = ${sent} requests`)
  await tp?.close()
})

const deref = (s: Schema): Schema => s ?? {}

// ---- values that fit a schema -------------------------------------------------------------

function fitting(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  const s = deref(schema)
  if (s.enum) return fc.constantFrom(...s.enum)
  if (s.const !== undefined) return fc.constant(s.const)
  if (s.anyOf || s.oneOf) return fc.oneof(...(s.anyOf ?? s.oneOf).map((x: Schema) => fitting(x, depth)))
  if (s.example !== undefined && Math.random() < 0.3) return fc.constant(s.example)
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type
  switch (type) {
    case 'string': {
      if (s.format === 'uuid') return fc.uuid()
      if (s.format === 'date-time')
        return fc
          .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
          .map((d) => d.toISOString())
      if (s.format === 'email') return fc.emailAddress().filter((e) => e.length <= 254)
      if (s.format === 'uri') return fc.constantFrom('https://example.com/hook', 'https://example.org/x')
      const maxLength = Math.min(s.maxLength ?? 40, 40)
      return fc.string({ minLength: Math.min(s.minLength ?? 0, maxLength), maxLength })
    }
    case 'integer':
      return fc.integer({ min: s.minimum ?? -1000, max: s.maximum ?? 1000 })
    case 'number':
      return fc.double({ min: s.minimum ?? -1000, max: s.maximum ?? 1000, noNaN: true })
    case 'boolean':
      return fc.boolean()
    case 'array':
      return depth > 3
        ? fc.constant([])
        : fc.array(fitting(s.items, depth + 1), {
            minLength: s.minItems ?? 0,
            maxLength: Math.max(s.minItems ?? 0, Math.min(s.maxItems ?? 3, 3)),
          })
    case 'object': {
      if (!s.properties || depth > 3)
        return fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 }))
      const shape = Object.fromEntries(
        Object.entries(s.properties).map(([k, v]) => [k, fitting(v, depth + 1)]),
      )
      return fc.record(shape, { requiredKeys: s.required ?? [] })
    }
    default:
      return fc.jsonValue({ maxDepth: 2 })
  }
}

// ---- values that break a schema ------------------------------------------------------------

const oddStrings = fc.constantFrom(
  '\ud800',
  'a\udc00b',
  '\u0000',
  'x\u0000y',
  '\uffff\ufffe',
  '\u202etxt.exe',
  '🦄'.repeat(50),
  'x'.repeat(100_000),
  '',
  ' ',
  '%00',
  "'; drop table tenants; --",
)
const extremeDates = fc.constantFrom(
  '0000-01-01T00:00:00Z',
  '0000-12-31T23:59:59.999Z',
  '-000001-01-01T00:00:00Z',
  '+275760-09-13T00:00:00Z',
  '9999-12-31T23:59:59Z',
  '10000-01-01T00:00:00Z',
  '1969-12-31T23:59:59Z',
  '2026-02-30T00:00:00Z',
  '2026-11-23T25:00:00Z',
  '0000-01',
  '9999-13',
)
const hugeNumbers = fc.constantFrom(
  1e308,
  -1e308,
  2 ** 63,
  -(2 ** 63),
  Number.MAX_SAFE_INTEGER + 2,
  0.5,
  -1,
  1e-320,
)
const wrongTypes = fc.oneof(
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.string({ maxLength: 5 }),
  fc.constant([]),
  fc.constant({}),
  fc.array(fc.anything({ maxDepth: 2 }), { maxLength: 3 }),
)
/** Sentinel replaced by a 10,000-level nesting in the raw JSON text. */
const DEEP = '__deep_nesting__'
const deep = fc.constant(DEEP)

const breaking: fc.Arbitrary<unknown> = fc.oneof(oddStrings, extremeDates, hugeNumbers, wrongTypes, deep)

/** An object that fits, with one field broken (or one unknown field added), or a whole broken body. */
function broken(schema: Schema): fc.Arbitrary<unknown> {
  const s = deref(schema)
  if (s.type === 'object' && s.properties) {
    const keys = Object.keys(s.properties)
    return fc.oneof(
      fc.tuple(fitting(s), fc.constantFrom(...keys, '__unknown__'), breaking).map(([v, k, bad]) => ({
        ...(v as object),
        [k]: bad,
      })),
      breaking,
    )
  }
  return breaking
}

// ---- requests ------------------------------------------------------------------------------

interface Case {
  path: Record<string, unknown>
  query: Record<string, unknown>
  body: unknown
  contentType: string
}

function caseFor(op: Operation): fc.Arbitrary<Case> {
  const value = (schema: Schema) =>
    fc.oneof({ weight: 2, arbitrary: fitting(schema) }, { weight: 3, arbitrary: breaking })
  const path = fc.record(
    Object.fromEntries(op.params.filter((p) => p.in === 'path').map((p) => [p.name, value(p.schema)])),
  )
  const query = fc.record(
    Object.fromEntries(op.params.filter((p) => p.in === 'query').map((p) => [p.name, value(p.schema)])),
    { requiredKeys: [] },
  )
  const body = op.body
    ? fc.oneof({ weight: 2, arbitrary: fitting(op.body) }, { weight: 3, arbitrary: broken(op.body) })
    : fc.oneof(fc.constant(undefined), fc.jsonValue({ maxDepth: 2 }))
  const contentType = fc.constantFrom(
    'application/json',
    'application/json',
    'application/json',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/json; charset=latin1',
    '',
  )
  return fc.record({ path, query, body, contentType })
}

/** Text for a URL: strings as they are (lone surrogates as their raw UTF-8 bytes), others as JSON. */
function urlText(v: unknown): string {
  // Capped: a URL of 100 kB is refused by the HTTP server itself (431) before any function runs.
  const s = (typeof v === 'string' ? v : (JSON.stringify(v) ?? '')).slice(0, 2000)
  try {
    return encodeURIComponent(s)
  } catch {
    // A lone surrogate as the bytes it would have in (invalid) UTF-8.
    return `${encodeURIComponent(s.replace(/[\ud800-\udfff]/g, ''))}%ED%A0%80`
  }
}

function jsonText(body: unknown): string {
  const text = JSON.stringify(body) ?? 'null'
  return text.replaceAll(`"${DEEP}"`, `${'['.repeat(10_000)}${']'.repeat(10_000)}`)
}

async function send(op: Operation, c: Case) {
  let path = `/functions/v1/${op.entry.fn}${op.entry.path === '/' ? '' : op.entry.path}`
  for (const [name, v] of Object.entries(c.path)) {
    const text = urlText(v)
    path = path.replace(`{${name}}`, text === '' ? 'x' : text)
  }
  const qs = Object.entries(c.query)
    .map(([k, v]) => `${encodeURIComponent(k)}=${urlText(v)}`)
    .join('&')
  const kind = op.entry.allow[0] ?? 'anon'
  const headers: Record<string, string> = { ...(credentials[kind] ?? {}) }
  const hasBody = op.entry.method !== 'GET' && op.entry.method !== 'DELETE' && c.body !== undefined
  if (hasBody && c.contentType) headers['content-type'] = c.contentType
  const res = await fetch(`${tp.baseUrl}${path}${qs ? `?${qs}` : ''}`, {
    method: op.entry.method,
    headers,
    body: hasBody ? jsonText(c.body) : undefined,
    redirect: 'manual',
  })
  sent++
  const text = await res.text()
  return { status: res.status, text, type: res.headers.get('content-type') ?? '' }
}

const codes = new Set(Object.keys(errorStatus))

/** The tool server's JSON-RPC endpoints: Streamable HTTP at its root and the SSE message endpoint. */
const isJsonRpcEndpoint = (op: Operation) =>
  op.entry.fn === 'mcp-sse' &&
  op.entry.method === 'POST' &&
  (op.entry.path === '/' || op.entry.path === '/sse/messages')

/** The OAuth endpoints MCP clients call answer with OAuth's error body ({error, error_description}). */
const isOAuthEndpoint = (op: Operation) =>
  op.entry.fn === 'mcp-sse' &&
  ['/oauth/register', '/oauth/authorize', '/oauth/token', '/oauth/revoke'].includes(op.entry.path)

function checkAnswer(op: Operation, c: Case, r: { status: number; text: string; type: string }) {
  const where = `${op.entry.method} ${op.entry.path} ${JSON.stringify(c).slice(0, 300)} -> ${r.status} ${r.text.slice(0, 300)}`
  expect(r.status, where).toBeLessThan(500)
  if (r.status < 400) return
  expect(r.type, where).toMatch(/application\/json/)
  const body = JSON.parse(r.text)
  if (body.jsonrpc === '2.0' && isJsonRpcEndpoint(op)) {
    // The MCP endpoints answer a malformed message with the JSON-RPC error the specification
    // defines (parse error, invalid request, ...), not the REST body.
    expect([typeof body.error?.code, typeof body.error?.message], where).toEqual(['number', 'string'])
    return
  }
  if ('error_description' in body && isOAuthEndpoint(op)) {
    expect([typeof body.error, typeof body.error_description], where).toEqual(['string', 'string'])
    return
  }
  expect(typeof body.error, where).toBe('string')
  expect(codes.has(body.code), where).toBe(true)
  // The code is one of the closed set and agrees with the status (no INTERNAL_ERROR on a 4xx).
  expect(errorStatus[body.code as keyof typeof errorStatus], where).toBe(r.status)
  expect(typeof body.message, where).toBe('string')
  if ('retryAfter' in body) expect(Number.isInteger(body.retryAfter), where).toBe(true)
  if ('details' in body) {
    expect(Array.isArray(body.details), where).toBe(true)
    for (const d of body.details)
      expect([typeof d.field, typeof d.message], where).toEqual(['string', 'string'])
  }
  expect(
    Object.keys(body).every((k) => ['error', 'code', 'message', 'retryAfter', 'details'].includes(k)),
    where,
  ).toBe(true)
}

describe("the issue's cases, each a 500 before", () => {
  const year0 = '0000-01-01T00:00:00Z'
  const site = () =>
    tp.json('/v1/content/sites', {
      headers: credentials.platform_key,
      body: { name: 'S', domain: 'example.com' },
    })

  it.each([
    ['published_since on /v1/content', `/v1/content?published_since=${year0}`],
    ['period on /api/usage', '/api/usage?period=0000-01'],
    ['from on /v1/analytics', `/v1/analytics?from=${year0}`],
    ['to on /v1/analytics', '/v1/analytics?to=0000-12-31T00:00:00Z'],
  ])('a date outside PostgreSQL range: %s is 400', async (_n, path) => {
    const res = await tp.json(path, { headers: credentials.user })
    expect(res.status, JSON.stringify(res.body)).toBe(400)
    expect(res.body.code).toBe('VALIDATION_ERROR')
  })

  it('since on the webhook recovery endpoint is 400', async () => {
    const res = await tp.json(`/api/webhooks/${crypto.randomUUID()}/recover`, {
      headers: credentials.user,
      body: { since: year0 },
    })
    expect(res.status, JSON.stringify(res.body)).toBe(400)
    expect(res.body.details[0].field).toBe('since')
  })

  it('settings nested ten thousand levels deep is 400', async () => {
    const res = await tp.request('/api/tenants/current', {
      method: 'PATCH',
      headers: { ...credentials.user, 'content-type': 'application/json' },
      body: undefined,
    })
    expect(res.status).toBe(400) // no body
    const deep = await fetch(`${tp.baseUrl}/api/tenants/current`, {
      method: 'PATCH',
      headers: { ...credentials.user, 'content-type': 'application/json' },
      body: `{"settings":{"a":${'['.repeat(10_000)}${']'.repeat(10_000)}}}`,
    })
    expect(deep.status).toBe(400)
    expect((await deep.json()).code).toBe('VALIDATION_ERROR')
    const shallowButDeepForSettings = await tp.json('/api/tenants/current', {
      method: 'PATCH',
      headers: credentials.user,
      body: { settings: { a: [[[[[[[[[[1]]]]]]]]]] } },
    })
    expect(shallowButDeepForSettings.status).toBe(400)
    expect(shallowButDeepForSettings.body.details[0].field).toBe('settings')
  })

  it.each([
    ['a lone surrogate', '\ud800'],
    ['a lone low surrogate', 'a\udc00'],
    ['NUL', 'x\u0000y'],
  ])('%s in a string that reaches PostgreSQL is 400, in a body and in a query', async (_n, bad) => {
    const res = await tp.json('/v1/content/sites', {
      headers: credentials.platform_key,
      body: { name: bad, domain: 'example.com' },
    })
    expect(res.status, JSON.stringify(res.body)).toBe(400)
    expect(res.body.code).toBe('VALIDATION_ERROR')
    const q = await fetch(`${tp.baseUrl}/v1/content?cursor=${bad === 'x\u0000y' ? 'x%00y' : '%ED%A0%80'}`, {
      headers: credentials.platform_key,
    })
    expect(q.status).toBe(400)
    expect(await site().then((r) => r.status)).toBe(201)
  })

  it('a wrong Content-Type is 415 UNSUPPORTED_MEDIA_TYPE, logged at most at info', async () => {
    const res = await fetch(`${tp.baseUrl}/api/api-keys`, {
      method: 'POST',
      headers: { ...credentials.user, 'content-type': 'text/plain' },
      body: JSON.stringify({
        name: 'k',
        environment: 'production',
        scopes: ['content:read'],
        rate_limit_per_minute: 1,
      }),
    })
    const body = await res.json()
    expect([res.status, body.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE'])
    expect(body.error).toBe('Unsupported Media Type')
  })
})

describe('every route, generated input', () => {
  it('never answers 5xx, and every error has the spec body', async () => {
    expect(operations.length).toBeGreaterThan(50)
    for (const op of operations) {
      await fc.assert(
        fc.asyncProperty(caseFor(op), async (c) => checkAnswer(op, c, await send(op, c))),
        { numRuns: CASES, endOnFailure: true },
      )
    }
  }, 600_000)
})
