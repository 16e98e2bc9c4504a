import { SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../shared/infra/config.ts'
import { isTransactionPooler } from '../shared/infra/db.ts'
import { startTestPlatform, type TestPlatform, type TestTenant } from './support/platform.ts'

/**
 * Supabase's current API keys (sb_publishable_..., sb_secret_..., given to functions as JSON
 * objects in SUPABASE_PUBLISHABLE_KEYS / SUPABASE_SECRET_KEYS) are accepted beside the legacy
 * anon and service_role keys; the legacy HS256 secret is read under the names the CLI allows.
 */
const secretKey = 'sb_secret_3kQ9vX2mLw8RtY6pZb1NcD4fGh7JsKe0'
const otherSecretKey = 'sb_secret_Aa1Bb2Cc3Dd4Ee5Ff6Gg7Hh8Ii9Jj0Kk1'
const publishableKey = 'sb_publishable_Qw3Er5Ty7Ui9Op1As3Df5Gh'
const JWT_SECRET = 'legacy-secret-set-as-JWT_SECRET-32-characters-or-more'

let tp: TestPlatform
let a: TestTenant
beforeAll(async () => {
  tp = await startTestPlatform({
    env: {
      SUPABASE_SECRET_KEYS: JSON.stringify({ default: secretKey, jobs: otherSecretKey }),
      SUPABASE_PUBLISHABLE_KEYS: JSON.stringify({ default: publishableKey }),
      JWT_SECRET,
    },
  })
  a = await tp.createTenant()
})
afterAll(() => tp.close())

const job = (apikey: string) =>
  tp.json('/functions/v1/tenants/jobs/prune-rate-limits', { method: 'POST', headers: { apikey }, body: {} })
const catalog = (apikey: string) => tp.json('/api/providers', { headers: { apikey } })

describe('service keys', () => {
  it('accepts every sb_secret_ key and the legacy service_role key on a job route', async () => {
    for (const key of [secretKey, otherSecretKey, tp.serviceRoleKey]) {
      const res = await job(key)
      expect(res.status, JSON.stringify(res.body)).toBe(200)
    }
    const bearer = await tp.json('/functions/v1/tenants/jobs/prune-rate-limits', {
      method: 'POST',
      token: secretKey,
      body: {},
    })
    expect(bearer.status).toBe(200)
  })

  it('refuses publishable keys, near misses and unknown sb_secret_ keys there', async () => {
    for (const key of [
      publishableKey,
      tp.anonKey,
      `${secretKey}x`,
      secretKey.slice(0, -1),
      'sb_secret_unknown0000000000000000',
    ]) {
      const res = await job(key)
      expect(res.status, key).toBe(401)
      expect(res.body.code).toBe('AUTH_REQUIRED')
    }
  })
})

describe('publishable keys', () => {
  it('accepts sb_publishable_ and the legacy anon key where anon is allowed', async () => {
    for (const key of [publishableKey, tp.anonKey]) expect((await catalog(key)).status).toBe(200)
    expect((await catalog('sb_publishable_not-a-key-of-this-project')).status).toBe(401)
  })
})

describe('legacy HS256 secret', () => {
  it('is read from JWT_SECRET (the CLI refuses SUPABASE_* secret names)', async () => {
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
})

describe('configuration', () => {
  const base = { DATABASE_URL: 'postgres://x@127.0.0.1/db', VAULT_MASTER_KEYS: 'v1:x' }

  it('takes the keys from the JSON objects, and the legacy secret from either name', () => {
    const config = loadConfig({
      ...base,
      SUPABASE_SECRET_KEYS: JSON.stringify({ default: secretKey }),
      SUPABASE_PUBLISHABLE_KEYS: JSON.stringify({ default: publishableKey }),
      LEGACY_JWT_SECRET: JWT_SECRET,
      // Legacy keys turned off on the project.
      SUPABASE_ANON_KEY: '',
      SUPABASE_SERVICE_ROLE_KEY: '',
    })
    expect(config.SUPABASE_SECRET_KEYS).toEqual([secretKey])
    expect(config.SUPABASE_PUBLISHABLE_KEYS).toEqual([publishableKey])
    expect(config.SUPABASE_SERVICE_ROLE_KEY).toBeUndefined()
    expect(config.SUPABASE_JWT_SECRET).toBe(JWT_SECRET)
  })

  it('refuses malformed key objects and a deployment without any secret key', () => {
    const keys = { SUPABASE_PUBLISHABLE_KEYS: JSON.stringify({ default: publishableKey }) }
    expect(() => loadConfig({ ...base, ...keys })).toThrow(/SUPABASE_SECRET_KEYS/)
    expect(() => loadConfig({ ...base, ...keys, SUPABASE_SECRET_KEYS: secretKey })).toThrow(/JSON object/)
    expect(() =>
      loadConfig({ ...base, ...keys, SUPABASE_SECRET_KEYS: JSON.stringify({ default: publishableKey }) }),
    ).toThrow(/sb_secret_/)
  })

  it('prefers DATABASE_URL over SUPABASE_DB_URL, and keeps the pool small by default', () => {
    const env = {
      ...base,
      SUPABASE_SECRET_KEYS: JSON.stringify({ d: secretKey }),
      SUPABASE_ANON_KEY: publishableKey,
    }
    expect(loadConfig({ ...env, SUPABASE_DB_URL: 'postgres://direct' }).DATABASE_URL).toBe(base.DATABASE_URL)
    expect(
      loadConfig({ ...env, DATABASE_URL: undefined, SUPABASE_DB_URL: 'postgres://direct' }).DATABASE_URL,
    ).toBe('postgres://direct')
    expect(loadConfig(env).DATABASE_POOL_MAX).toBe(3)
  })
})

describe('transaction pooler detection (prepared statements off)', () => {
  it.each([
    ['postgresql://postgres.ref:pw@aws-0-eu-central-1.pooler.supabase.com:6543/postgres', true],
    ['postgresql://postgres.ref:pw@aws-0-eu-central-1.pooler.supabase.com:5432/postgres', true],
    ['postgresql://postgres:pw@db.ref.supabase.co:6543/postgres', true],
    ['postgresql://postgres:p#w@db.ref.supabase.co:6543/postgres?sslmode=require', true],
    ['postgresql://postgres:pw@db.ref.supabase.co:5432/postgres', false],
    ['postgres://postgres@127.0.0.1:5432/postgres', false],
  ])('%s -> %s', (url, expected) => {
    expect(isTransactionPooler(url)).toBe(expected)
  })
})
