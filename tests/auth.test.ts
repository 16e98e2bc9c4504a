import { SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { configSchema } from '../shared/infra/config.ts'
import { generateKey, parseKey } from '../shared/infra/keys.ts'
import { addMember, startTestPlatform, type TestPlatform, type TestTenant } from './support/platform.ts'

const JWT_SECRET = 'legacy-secret-with-at-least-32-characters!!'
const DASHBOARD_ORIGIN = 'https://dash.example'
let tp: TestPlatform
let a: TestTenant

beforeAll(async () => {
  tp = await startTestPlatform({ env: { SUPABASE_JWT_SECRET: JWT_SECRET, CORS_ORIGINS: DASHBOARD_ORIGIN } })
  a = await tp.createTenant()
})
afterAll(() => tp.close())

async function createKey(token: string, body: Record<string, unknown> = {}) {
  const res = await tp.json('/api/api-keys', {
    token,
    body: {
      name: 'k',
      environment: 'production',
      scopes: ['content:read'],
      rate_limit_per_minute: 100,
      ...body,
    },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body as { id: string; key: string }
}

const expectAuthRequired = (res: { status: number; body: any }) => {
  expect(res.status).toBe(401)
  expect(res.body).toMatchObject({ error: 'Unauthorized', code: 'AUTH_REQUIRED' })
  expect(typeof res.body.message).toBe('string')
}

describe('user JWTs', () => {
  it('accepts a JWKS-signed (ES256) access token, at the public path and the function path', async () => {
    expect((await tp.json('/v1/content', { token: a.token })).status).toBe(200)
    expect((await tp.json('/functions/v1/content', { token: a.token })).status).toBe(200)
  })

  it('accepts a legacy HS256 token signed with the JWT secret', async () => {
    const token = await new SignJWT({
      role: 'authenticated',
      email: a.email,
      app_metadata: { tenant_id: a.tenantId },
    })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(a.userId)
      .setAudience('authenticated')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(JWT_SECRET))
    expect((await tp.json('/v1/content', { token })).status).toBe(200)
  })

  it('refuses missing, malformed, expired, forged and alg=none tokens with 401 AUTH_REQUIRED', async () => {
    expectAuthRequired(await tp.json('/v1/content'))
    expectAuthRequired(await tp.json('/v1/content', { token: 'not-a-jwt' }))
    expectAuthRequired(await tp.json('/v1/content', { headers: { authorization: `Basic ${btoa('a:b')}` } }))
    const expired = await tp.tokenFor(a, { now: new Date(Date.now() - 7200_000), expiresInSeconds: 3600 })
    expectAuthRequired(await tp.json('/v1/content', { token: expired }))
    const forged = await new SignJWT({ role: 'authenticated', app_metadata: { tenant_id: a.tenantId } })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(a.userId)
      .setAudience('authenticated')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret-that-is-long-enough-000'))
    expectAuthRequired(await tp.json('/v1/content', { token: forged }))
    const [h, p] = a.token.split('.')
    const none = `${btoa(JSON.stringify({ alg: 'none', typ: 'JWT' })).replace(/=+$/, '')}.${p}.`
    expectAuthRequired(await tp.json('/v1/content', { token: none }))
    const tampered = `${h}.${btoa(JSON.stringify({ sub: a.userId, role: 'authenticated', app_metadata: { tenant_id: a.tenantId }, exp: 9e9, aud: 'authenticated' })).replace(/=+$/, '')}.${a.token.split('.')[2]}`
    expectAuthRequired(await tp.json('/v1/content', { token: tampered }))
  })

  it('refuses a valid token whose tenant the user does not belong to (403)', async () => {
    const other = await tp.createTenant()
    const token = await tp.tokenFor({ userId: a.userId, email: a.email, tenantId: other.tenantId })
    const res = await tp.json('/v1/content', { token })
    expect(res.status).toBe(403)
    expect(res.body).toMatchObject({ error: 'Forbidden', code: 'INSUFFICIENT_PERMISSIONS' })
  })
})

describe('platform API keys', () => {
  it('accepts a key holding the scope and refuses one without it (403 INSUFFICIENT_PERMISSIONS)', async () => {
    const reader = await createKey(a.token, { scopes: ['content:read'] })
    expect((await tp.json('/v1/content', { token: reader.key })).status).toBe(200)
    const writer = await createKey(a.token, { scopes: ['content:write', 'analytics:read'] })
    const res = await tp.json('/v1/content', { token: writer.key })
    expect(res.status).toBe(403)
    expect(res.body).toMatchObject({ error: 'Forbidden', code: 'INSUFFICIENT_PERMISSIONS' })
  })

  it('refuses well-formed keys that do not exist, keys with a bad checksum, and tool keys at /v1', async () => {
    expectAuthRequired(await tp.json('/v1/content', { token: generateKey('svc_live_') }))
    const real = await createKey(a.token)
    const last = real.key.at(-1) === 'a' ? 'b' : 'a'
    const corrupted = real.key.slice(0, -1) + last
    expect(parseKey(corrupted)).toBeNull()
    expectAuthRequired(await tp.json('/v1/content', { token: corrupted }))
    const tool = await createKey(a.token, { kind: 'tool_server', environment: 'development' })
    expectAuthRequired(await tp.json('/v1/content', { token: tool.key }))
  })

  it('stops working when its creator leaves the tenant', async () => {
    const t = await tp.createTenant()
    const admin = await addMember(tp, t.tenantId, 'owner')
    const key = await createKey(admin.token)
    expect((await tp.json('/v1/content', { token: key.key })).status).toBe(200)
    await tp.db.sql`delete from public.tenant_members where user_id = ${admin.userId}`
    // A change made behind the API reaches the instance's key cache through the change feed,
    // within a second (docs/adr/0004-rate-limits-in-postgres.md): poll with that deadline.
    const since = performance.now()
    let res = await tp.json('/v1/content', { token: key.key })
    while (res.status === 200 && performance.now() - since < 1000) {
      await new Promise((r) => setTimeout(r, 10))
      res = await tp.json('/v1/content', { token: key.key })
    }
    expectAuthRequired(res)
  })
})

describe('service-role and anon keys', () => {
  it('runs internal jobs only with the service-role key (apikey header or Bearer)', async () => {
    const path = '/functions/v1/tenants/jobs/prune-rate-limits'
    expect((await tp.json(path, { method: 'POST', headers: { apikey: tp.serviceRoleKey } })).status).toBe(200)
    expect((await tp.json(path, { method: 'POST', token: tp.serviceRoleKey })).status).toBe(200)
    expectAuthRequired(await tp.json(path, { method: 'POST', headers: { apikey: tp.anonKey } }))
    expectAuthRequired(await tp.json(path, { method: 'POST', token: a.token }))
    expectAuthRequired(await tp.json(path, { method: 'POST', headers: { apikey: `${tp.serviceRoleKey}x` } }))
  })
})

describe('responses', () => {
  it('carry X-Request-Id (echoing a sane incoming one) and rate-limit headers', async () => {
    const res = await tp.request('/v1/content', {
      token: a.token,
      headers: { 'x-request-id': 'req-12345678' },
    })
    expect(res.headers.get('x-request-id')).toBe('req-12345678')
    expect(res.headers.get('x-ratelimit-limit')).toBe('1000')
    const generated = await tp.request('/v1/content', {
      token: a.token,
      headers: { 'x-request-id': 'bad id!' },
    })
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
    const unknown = await tp.json('/api/nothing-here')
    expect(unknown.status).toBe(404)
    expect(unknown.body.code).toBe('NOT_FOUND')
    expect(unknown.headers.get('x-request-id')).toBeTruthy()
  })

  it('answer CORS for the configured dashboard origin only, on every path and on errors', async () => {
    const preflight = await tp.request('/api/api-keys', {
      method: 'OPTIONS',
      headers: {
        origin: DASHBOARD_ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe(DASHBOARD_ORIGIN)
    expect(preflight.headers.get('access-control-allow-credentials')).toBe('true')
    expect(preflight.headers.get('access-control-allow-methods')).toContain('DELETE')
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase().split(',')).toEqual(
      expect.arrayContaining(['authorization', 'content-type', 'x-api-key', 'apikey', 'idempotency-key']),
    )
    expect(preflight.headers.get('access-control-max-age')).toBe('600')
    expect(preflight.headers.get('vary')).toMatch(/Origin/)
    expect(preflight.headers.get('x-request-id')).toBeTruthy()

    const read = await tp.request('/v1/content', { token: a.token, headers: { origin: DASHBOARD_ORIGIN } })
    expect(read.status).toBe(200)
    expect(read.headers.get('access-control-allow-origin')).toBe(DASHBOARD_ORIGIN)
    expect(read.headers.get('access-control-expose-headers')).toContain('X-RateLimit-Remaining')
    // Origin among what the answer varies on (a content read also varies on Authorization).
    expect(read.headers.get('vary')?.split(/,\s*/)).toContain('Origin')
    expect(read.headers.get('content-length')).toBe(String((await read.arrayBuffer()).byteLength))

    const refused = await tp.request('/v1/content', { headers: { origin: DASHBOARD_ORIGIN } })
    expect(refused.status).toBe(401)
    expect(refused.headers.get('access-control-allow-origin')).toBe(DASHBOARD_ORIGIN)
    expect(refused.headers.get('x-ratelimit-limit')).toBeTruthy()

    const stranger = await tp.request('/v1/content', {
      token: a.token,
      headers: { origin: 'https://evil.example' },
    })
    expect(stranger.headers.get('access-control-allow-origin')).toBeNull()
    expect(stranger.headers.get('access-control-allow-credentials')).toBeNull()
    expect(stranger.headers.get('access-control-expose-headers')).toBeNull()
    expect(stranger.headers.get('vary')?.split(/,\s*/)).toContain('Origin')
    // A server-to-server call (no Origin) carries no CORS headers either.
    const server = await tp.request('/v1/content', { token: a.token })
    expect([...server.headers.keys()].filter((h) => h.startsWith('access-control-'))).toEqual([])
    const strangerPreflight = await tp.request('/api/api-keys', {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    })
    expect(strangerPreflight.headers.get('access-control-allow-origin')).toBeNull()
    expect(strangerPreflight.headers.get('access-control-allow-methods')).toBeNull()
  })

  it('answers CORS for a front end on any loopback origin locally, and not for look-alikes', async () => {
    for (const origin of ['http://localhost:5173', 'http://127.0.0.1:3000', 'http://[::1]:8080']) {
      const preflight = await tp.request('/v1/content', {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'GET' },
      })
      expect(preflight.headers.get('access-control-allow-origin'), origin).toBe(origin)
      const read = await tp.request('/v1/content', { token: a.token, headers: { origin } })
      expect(read.headers.get('access-control-allow-origin'), origin).toBe(origin)
    }
    for (const origin of [
      'http://localhost.evil.example',
      'http://192.168.1.20:5173',
      'http://127.0.0.1.nip.io',
    ]) {
      const read = await tp.request('/v1/content', { token: a.token, headers: { origin } })
      expect(read.headers.get('access-control-allow-origin'), origin).toBeNull()
    }
    // Production leaves it off: only CORS_ORIGINS.
    expect(configSchema.shape.CORS_ALLOW_LOOPBACK.parse(undefined)).toBe(false)
    expect(tp.instances[0]!.platform.deps.config.CORS_ALLOW_LOOPBACK).toBe(true)
  })

  it('serves an OpenAPI 3.1 document per function, generated from the zod schemas', async () => {
    const doc = await tp.json('/functions/v1/api-keys/openapi.json')
    expect(doc.status).toBe(200)
    expect(doc.body.openapi).toBe('3.1.0')
    expect(doc.body.paths['/'].post.requestBody.content['application/json'].schema.$ref).toContain(
      'CreateApiKey',
    )
    expect(doc.body.components.schemas.CreateApiKey.properties.scopes.items.enum).toContain('billing:read')
  })
})
