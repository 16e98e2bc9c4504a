// No input gives a 5xx. A property-based walk of every route of every function's
// OpenAPI document (as served at /functions/v1/<fn>/openapi.json), with generated values that fit
// the schemas and values that break them: wrong types, huge numbers, extreme dates, deep nesting,
// odd Unicode (lone surrogates, NUL) and wrong content types, in path and query parameters as in
// bodies, as every caller kind the route allows. Every answer must be below 500, every error must
// have the spec's body and every 2xx the route's response schema. Rate limits run on an injected
// clock moved one second per request, so the walk reaches validation (at most 2% answered 429).
// Every value comes from fast-check's seed, printed on failure: FUZZ_SEED=<seed> replays a run.

import { readdirSync, readFileSync } from 'node:fs'
import Ajv2020 from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { functionModules } from '../local-platform/functions.ts'
import { type RouteAuthEntry, routesOf } from '../scripts/lib/route-catalog.ts'
import { errorStatus } from '../shared/infra/errors.ts'
import { startTestPlatform, TestClock, type TestPlatform } from './support/platform.ts'
import { createLoneUser } from './support/tenancy.ts'

/** Cases per route; routes x cases is printed at the end. */
const CASES = Number(process.env.FUZZ_CASES ?? 30)
/** A run's seed: fixed by FUZZ_SEED to replay one, else drawn once (printed at the end). */
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31)
/** Rate limits are per minute; one second per request keeps every bucket below its limit. */
const CLOCK_STEP_MS = 1000

// biome-ignore lint/suspicious/noExplicitAny: JSON Schema of arbitrary shape, walked generically
type Schema = any
interface Operation {
  entry: RouteAuthEntry
  params: { name: string; in: 'path' | 'query'; required: boolean; schema: Schema }[]
  body?: Schema
  /** The JSON response schema of each 2xx status the route documents (null: no JSON body). */
  responses: Map<number, Schema | null>
  /** The document's components, for $ref. */
  components: Schema
}

let tp: TestPlatform
const clock = new TestClock(new Date())
const operations: Operation[] = []
const credentials: Record<string, Record<string, string>> = {}
let sent = 0
const statusCounts = new Map<number, number>()
const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true })
addFormats(ajv)

beforeAll(async () => {
  tp = await startTestPlatform({ clock })
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
  credentials.user_without_tenant = { authorization: `Bearer ${(await createLoneUser(tp)).token}` }
  credentials.platform_key = { authorization: `Bearer ${await key('platform')}` }
  credentials.tool_key = { 'x-api-key': await key('tool_server') }
  const published = await tp.json('/api/api-keys', {
    token: owner.token,
    body: {
      name: 'fuzz published-only',
      environment: 'production',
      scopes: ['content:read'],
      published_only: true,
      rate_limit_per_minute: 1000,
    },
  })
  expect(published.status, JSON.stringify(published.body)).toBe(201)
  credentials.published_key = { authorization: `Bearer ${published.body.key}` }
  credentials.service = { apikey: tp.serviceRoleKey }
  credentials.anon = { apikey: tp.anonKey }
  // A WebSub hub carries no credential: the callback's address (its token) is all it has.
  credentials.websub_hub = {}
  for (const m of functionModules) {
    const doc = (await tp.json(`/functions/v1/${m.functionName}/openapi.json`)).body
    for (const entry of routesOf(m.functionName, doc)) {
      const op = doc.paths[entry.path][entry.method.toLowerCase()]
      const responses = new Map<number, Schema | null>()
      for (const [status, response] of Object.entries<Schema>(op.responses ?? {}))
        if (status.startsWith('2'))
          responses.set(Number(status), response.content?.['application/json']?.schema ?? null)
      operations.push({
        entry,
        params: (op.parameters ?? []).filter((p: { in: string }) => p.in === 'path' || p.in === 'query'),
        body: op.requestBody?.content?.['application/json']?.schema,
        responses,
        components: doc.components ?? {},
      })
    }
  }
}, 120_000)

afterAll(async () => {
  const statuses = [...statusCounts].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`)
  console.log(`fuzz (seed ${SEED}): ${operations.length} routes, ${sent} requests; ${statuses.join(', ')}`)
  await tp?.close()
})

/** The schema a $ref names, in the operation's document (one level: components do not chain here). */
let components: Schema = {}
const deref = (s: Schema): Schema => {
  if (s?.$ref?.startsWith('#/components/schemas/')) return deref(components.schemas?.[s.$ref.slice(21)])
  return s ?? {}
}

// ---- values that fit a schema -------------------------------------------------------------

function fitting(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  const s = deref(schema)
  if (s.enum) return fc.constantFrom(...s.enum)
  if (s.const !== undefined) return fc.constant(s.const)
  if (s.anyOf || s.oneOf) return fc.oneof(...(s.anyOf ?? s.oneOf).map((x: Schema) => fitting(x, depth)))
  if (s.example !== undefined)
    return fc.oneof(
      { weight: 1, arbitrary: fc.constant(s.example) },
      { weight: 2, arbitrary: fittingByType(s, depth) },
    )
  return fittingByType(s, depth)
}

function fittingByType(s: Schema, depth: number): fc.Arbitrary<unknown> {
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

const ODD_STRINGS: unknown[] = [
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
]
const oddStrings = fc.constantFrom(...ODD_STRINGS)
const EXTREME_DATES: unknown[] = [
  '0000-01-01T00:00:00Z',
  '0000-12-31T23:59:59.999Z',
  '-000001-01-01T00:00:00Z',
  '+275760-09-13T00:00:00Z',
  '9999-12-31T23:59:59Z',
  '0001-01-01T00:00:00+14:00',
  '9999-12-31T23:59:59-14:00',
  '10000-01-01T00:00:00Z',
  '1969-12-31T23:59:59Z',
  '2026-02-30T00:00:00Z',
  '2026-11-23T25:00:00Z',
  '0000-01',
  '9999-13',
]
const extremeDates = fc.constantFrom(...EXTREME_DATES)
const HUGE_NUMBERS: unknown[] = [
  1e308,
  -1e308,
  2 ** 63,
  -(2 ** 63),
  Number.MAX_SAFE_INTEGER + 2,
  0.5,
  -1,
  1e-320,
]
const hugeNumbers = fc.constantFrom(...HUGE_NUMBERS)
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

/**
 * Values that break this schema, weighted toward its kind: extreme dates for a date-time, huge
 * numbers for a number, odd text for a string; and any breaking value besides.
 */
function breakingFor(schema: Schema): fc.Arbitrary<unknown> {
  const extremes = extremesFor(schema)
  const targeted = extremes ? fc.constantFrom(...extremes) : breaking
  return fc.oneof({ weight: 2, arbitrary: targeted }, { weight: 1, arbitrary: breaking })
}

/** The extreme values of a schema's kind: dates for a date-time or a month, numbers, strings. */
function extremesFor(schema: Schema): unknown[] | undefined {
  const s = deref(schema)
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type
  if (s.format === 'date-time' || s.format === 'date' || /^\^\\d\{4\}/.test(s.pattern ?? ''))
    return EXTREME_DATES
  if (type === 'integer' || type === 'number') return HUGE_NUMBERS
  if (type === 'string') return ODD_STRINGS
  return undefined
}

/** An object that fits, with one field broken (or one unknown field added), or a whole broken body. */
function broken(schema: Schema): fc.Arbitrary<unknown> {
  const s = deref(schema)
  if (s.type === 'object' && s.properties) {
    const keys = Object.keys(s.properties)
    return fc.oneof(
      fc
        .constantFrom(...keys, '__unknown__')
        .chain((k) => fc.tuple(fitting(s), fc.constant(k), breakingFor(s.properties[k])))
        .map(([v, k, bad]) => ({ ...(v as object), [k]: bad })),
      breaking,
    )
  }
  return breaking
}

// ---- requests ------------------------------------------------------------------------------

interface Case {
  caller: string
  path: Record<string, unknown>
  query: Record<string, unknown>
  body: unknown
  contentType: string
}

function caseFor(op: Operation, caller: string): fc.Arbitrary<Case> {
  const value = (schema: Schema) =>
    fc.oneof({ weight: 2, arbitrary: fitting(schema) }, { weight: 3, arbitrary: breakingFor(schema) })
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
  return fc.record({ caller: fc.constant(caller), path, query, body, contentType })
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
  const headers: Record<string, string> = { ...(credentials[c.caller] ?? {}) }
  const hasBody = op.entry.method !== 'GET' && op.entry.method !== 'DELETE' && c.body !== undefined
  if (hasBody && c.contentType) headers['content-type'] = c.contentType
  const res = await fetch(`${tp.baseUrl}${path}${qs ? `?${qs}` : ''}`, {
    method: op.entry.method,
    headers,
    body: hasBody ? jsonText(c.body) : undefined,
    redirect: 'manual',
  })
  sent++
  statusCounts.set(res.status, (statusCounts.get(res.status) ?? 0) + 1)
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
  if (r.status < 300) return checkSuccess(op, r, where)
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

/** A 2xx the route documents, with a body its response schema accepts. */
function checkSuccess(op: Operation, r: { status: number; text: string; type: string }, where: string) {
  expect(op.responses.has(r.status), `${where}: an undocumented status`).toBe(true)
  const schema = op.responses.get(r.status)
  if (!schema) return
  expect(r.type, where).toMatch(/application\/json/)
  const validate = ajv.compile({ ...schema, components: op.components })
  const valid = validate(JSON.parse(r.text))
  expect(valid ? [] : validate.errors, where).toEqual([])
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
    ['updated_since on /api/commerce/orders', `/api/commerce/orders?updated_since=${year0}`],
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
  it('never answers 5xx, every error has the spec body, every 2xx its schema, as every allowed caller', async () => {
    expect(operations.length).toBeGreaterThan(50)
    let properties = 0
    for (const op of operations) {
      components = op.components
      const callers = op.entry.allow.length > 0 ? op.entry.allow : ['anon']
      for (const caller of callers) {
        expect(credentials[caller], caller).toBeDefined()
        await fc.assert(
          fc.asyncProperty(caseFor(op, caller), async (c) => {
            clock.advance(CLOCK_STEP_MS)
            checkAnswer(op, c, await send(op, c))
          }),
          {
            numRuns: Math.max(10, Math.ceil(CASES / callers.length)),
            endOnFailure: true,
            seed: SEED + properties,
          },
        )
        properties++
      }
    }
    expect(properties).toBeGreaterThan(operations.length)
    // Authentication and limits run before validation: a walk answered 429 would test neither.
    expect((statusCounts.get(429) ?? 0) / sent, 'share of requests answered 429').toBeLessThan(0.02)
  }, 600_000)

  it('answers every extreme value of its kind in every query parameter below 500', async () => {
    // Beside the random walk, a sweep: each query parameter of each route gets each extreme value
    // of its kind once (other parameters absent, path ids fitting), as every allowed caller.
    let swept = 0
    for (const op of operations) {
      components = op.components
      const callers = op.entry.allow.length > 0 ? op.entry.allow : ['anon']
      const [path] = fc.sample(
        fc.record(
          Object.fromEntries(
            op.params.filter((p) => p.in === 'path').map((p) => [p.name, fitting(p.schema)]),
          ),
        ),
        { seed: SEED, numRuns: 1 },
      )
      for (const param of op.params.filter((p) => p.in === 'query'))
        for (const value of extremesFor(param.schema) ?? [...EXTREME_DATES, ...HUGE_NUMBERS, ...ODD_STRINGS])
          for (const caller of callers) {
            const c: Case = {
              caller,
              path: path!,
              query: { [param.name]: value },
              body: undefined,
              contentType: '',
            }
            clock.advance(CLOCK_STEP_MS)
            checkAnswer(op, c, await send(op, c))
            swept++
          }
    }
    expect(swept).toBeGreaterThan(100)
  }, 600_000)

  it('bounds every date parameter by the shared schema (shared/infra/schemas.ts)', () => {
    // Each date-time a route accepts is isoTimestamp(): an unbounded z.iso.datetime() lets year 0
    // through to PostgreSQL, which answers "date/time field value out of range" (a 500).
    const offenders: string[] = []
    for (const dir of ['shared', 'functions'])
      for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' }))
        if (file.endsWith('.ts') && `${dir}/${file}` !== 'shared/infra/schemas.ts')
          if (/\.(datetime|date)\(/.test(readFileSync(`${dir}/${file}`, 'utf8')))
            offenders.push(`${dir}/${file}`)
    expect(offenders).toEqual([])
  })
})
