import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestPlatform, type TestPlatform } from './support/platform.ts'

/**
 * The local Supabase Auth endpoints, driven by supabase-js itself, as a user's own app would.
 */
let tp: TestPlatform

const client = (): SupabaseClient =>
  createClient(tp.baseUrl, tp.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    // Node 20 has no WebSocket; realtime is never used here, so any constructor will do.
    realtime: { transport: class {} as never },
  })

beforeAll(async () => {
  tp = await startTestPlatform({ env: { CORS_ORIGINS: 'https://dash.example' } })
})
afterAll(async () => {
  await tp?.close()
})

describe('local Supabase Auth (/auth/v1) with supabase-js', () => {
  it('signs up, creates a tenant, refreshes into it and calls a function with functions.invoke', async () => {
    const sb = client()
    const up = await sb.auth.signUp({ email: 'Ada@Example.com', password: 'correct horse' })
    expect(up.error).toBeNull()
    expect(up.data.session?.access_token).toBeTruthy()
    expect(up.data.user?.email).toBe('ada@example.com')
    expect(up.data.user?.app_metadata.provider).toBe('email')

    // The password is stored as a bcrypt hash, never as given.
    const [row] = await tp.db.sql<{ encrypted_password: string }[]>`
      select encrypted_password from auth.users where email = 'ada@example.com'`
    expect(row!.encrypted_password).toMatch(/^\$2[aby]\$10\$/)
    const [stored] = await tp.db.sql<
      { token_hash: string }[]
    >`select token_hash from auth.local_refresh_tokens`
    expect(stored!.token_hash).not.toBe(up.data.session!.refresh_token)

    // No tenant yet: the tenants function still takes the user, and the token says so.
    const created = await sb.functions.invoke('tenants', { body: { name: 'Ada Labs' } })
    expect(created.error).toBeNull()
    expect(created.data.name).toBe('Ada Labs')

    // The refreshed session carries the new tenant, as Supabase's custom claims would.
    const refreshed = await sb.auth.refreshSession()
    expect(refreshed.error).toBeNull()
    const claims = JSON.parse(
      Buffer.from(refreshed.data.session!.access_token.split('.')[1]!, 'base64url').toString(),
    )
    expect(claims.app_metadata.tenant_id).toBe(created.data.id)
    expect(claims.session_id).toBeTruthy()
    const current = await sb.functions.invoke('tenants/current', { method: 'GET' })
    expect(current.data.id).toBe(created.data.id)

    // The old refresh token is used up.
    const reuse = await client().auth.refreshSession({ refresh_token: up.data.session!.refresh_token })
    expect(reuse.error?.code).toBe('refresh_token_already_used')
  })

  it('signs in with the password, reads the user and signs out (refresh tokens revoked)', async () => {
    const sb = client()
    const bad = await sb.auth.signInWithPassword({ email: 'ada@example.com', password: 'wrong one' })
    expect(bad.error?.status).toBe(400)
    expect(bad.error?.code).toBe('invalid_credentials')
    expect(bad.error?.message).toBe('Invalid login credentials')
    const unknown = await sb.auth.signInWithPassword({ email: 'nobody@example.com', password: 'whatever' })
    expect(unknown.error?.code).toBe('invalid_credentials')

    const ok = await sb.auth.signInWithPassword({ email: 'ADA@example.com', password: 'correct horse' })
    expect(ok.error).toBeNull()
    const user = await sb.auth.getUser()
    expect(user.data.user?.email).toBe('ada@example.com')
    expect(user.data.user?.last_sign_in_at).toBeTruthy()
    const refreshToken = ok.data.session!.refresh_token

    expect((await sb.auth.signOut()).error).toBeNull()
    const after = await client().auth.refreshSession({ refresh_token: refreshToken })
    expect(after.error?.status).toBe(400)
  })

  it('refuses a second sign-up, a weak password, bad input and a missing apikey', async () => {
    const again = await client().auth.signUp({ email: 'ada@example.com', password: 'another one' })
    expect(again.error?.code).toBe('user_already_exists')
    const weak = await client().auth.signUp({ email: 'bob@example.com', password: '123' })
    expect(weak.error?.code).toBe('weak_password')
    const badEmail = await tp.json('/auth/v1/signup', {
      headers: { apikey: tp.anonKey },
      body: { email: 'not-an-email', password: 'long enough' },
    })
    expect(badEmail.status).toBe(400)
    expect(badEmail.body.code).toBe('validation_failed')
    const noKey = await tp.json('/auth/v1/token?grant_type=password', {
      body: { email: 'ada@example.com', password: 'correct horse' },
    })
    expect(noKey.status).toBe(401)
    const grant = await tp.json('/auth/v1/token?grant_type=magic', {
      headers: { apikey: tp.anonKey },
      body: {},
    })
    expect(grant.status).toBe(400)
    const big = await tp.json('/auth/v1/signup', {
      headers: { apikey: tp.anonKey },
      body: { email: 'big@example.com', password: 'long enough', data: { note: 'x'.repeat(20_000) } },
    })
    expect(big.status).toBe(413)
    // Supabase Auth's {code, message}, which is also the spec's body with `error`.
    expect(big.body).toMatchObject({ error: 'Payload Too Large', code: 'request_too_large' })
    const user = await tp.json('/auth/v1/user', {
      headers: { apikey: tp.anonKey, authorization: 'Bearer x.y.z' },
    })
    expect(user.status).toBe(403)
  })

  it('lets a seeded user without a password claim it at sign-up', async () => {
    const seeded = await tp.createTenant({ email: 'seeded@example.com' })
    const up = await client().auth.signUp({ email: 'seeded@example.com', password: 'now with one' })
    expect(up.error).toBeNull()
    expect(up.data.user?.id).toBe(seeded.userId)
    expect(up.data.user?.app_metadata.tenant_id).toBe(seeded.tenantId)
  })

  it("answers CORS preflights with Supabase's standard request headers", async () => {
    const headers = {
      origin: 'https://dash.example',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization,x-client-info,apikey,content-type',
    }
    for (const path of ['/functions/v1/tenants', '/api/api-keys', '/auth/v1/token?grant_type=password']) {
      const res = await tp.request(path, { method: 'OPTIONS', headers })
      expect(res.status).toBeLessThan(300)
      const allowed = (res.headers.get('access-control-allow-headers') ?? '').toLowerCase()
      for (const h of ['authorization', 'x-client-info', 'apikey', 'content-type'])
        expect(allowed).toContain(h)
      expect(res.headers.get('access-control-allow-origin')).toMatch(/^(\*|https:\/\/dash\.example)$/)
    }
  })
})
