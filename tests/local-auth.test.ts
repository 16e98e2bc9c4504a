import { execFile } from 'node:child_process'
import { request as httpRequest } from 'node:http'
import { promisify } from 'node:util'
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { functionModules } from '../local-platform/functions.ts'
import { startTestPlatform, TestClock, type TestPlatform } from './support/platform.ts'

/**
 * The local Supabase Auth endpoints, driven by supabase-js itself, as a user's own app would.
 */
const run = promisify(execFile)
let tp: TestPlatform
// Starts at the real time (supabase-js judges token expiry by it); tests move it past intervals.
const clock = new TestClock(new Date())

const client = (): SupabaseClient =>
  createClient(tp.baseUrl, tp.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    // Node 20 has no WebSocket; realtime is never used here, so any constructor will do.
    realtime: { transport: class {} as never },
  })

beforeAll(async () => {
  tp = await startTestPlatform({ clock, env: { CORS_ORIGINS: 'https://dash.example' } })
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

    // The old refresh token is used up (once the reuse interval is over).
    clock.advance(11_000)
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

  it('never changes an existing user at sign-up, not even one without a password', async () => {
    // As `npm run token` makes users: no password.
    const seeded = await tp.createTenant({ email: 'seeded@example.com' })
    const userRow = async () =>
      (
        await tp.db.sql<{ encrypted_password: string | null; updated_at: Date }[]>`
          select encrypted_password, updated_at from auth.users where id = ${seeded.userId}`
      )[0]!
    const before = await userRow()
    const up = await client().auth.signUp({ email: 'Seeded@example.com', password: 'taken over' })
    expect(up.error?.code).toBe('user_already_exists')
    expect(up.data.session).toBeNull()
    expect(await userRow()).toEqual(before)
    expect(before.encrypted_password).toBeNull()
    const signIn = await client().auth.signInWithPassword({
      email: 'seeded@example.com',
      password: 'taken over',
    })
    expect(signIn.error?.code).toBe('invalid_credentials')
  })

  it('gives a password-less local user a password only through npm run set-password', async () => {
    const seeded = await tp.createTenant({ email: 'claimed@example.com' })
    const script = ['--import', 'tsx', 'scripts/set-password.ts', '--email', 'claimed@example.com']
    const env = { ...process.env, DATABASE_URL: tp.db.url }
    const short = await run(process.execPath, [...script, '--password', '123'], { env }).catch((e) => e)
    expect(short.code).toBe(2)
    await run(process.execPath, [...script, '--password', 'set locally'], { env })
    const signIn = await client().auth.signInWithPassword({
      email: 'claimed@example.com',
      password: 'set locally',
    })
    expect(signIn.error).toBeNull()
    expect(signIn.data.user?.id).toBe(seeded.userId)
    // Only for a database on this machine.
    const remote = await run(process.execPath, [...script, '--password', 'set locally'], {
      env: { ...env, DATABASE_URL: 'postgres://postgres@db.example.com:5432/postgres' },
    }).catch((e) => e)
    expect(remote.code).toBe(2)
    expect(remote.stderr).toContain('local platform only')
  }, 60_000)

  it('revokes the whole session when a rotated refresh token is reused after the reuse interval', async () => {
    await client().auth.signUp({ email: 'rotate@example.com', password: 'correct horse' })
    const refresh = (token: string) =>
      tp.json('/auth/v1/token?grant_type=refresh_token', {
        headers: { apikey: tp.anonKey },
        body: { refresh_token: token },
      })
    const signIn = () =>
      tp.json('/auth/v1/token?grant_type=password', {
        headers: { apikey: tp.anonKey },
        body: { email: 'rotate@example.com', password: 'correct horse' },
      })
    const first = await signIn()
    const other = await signIn() // another device: its own session
    const stolen = first.body.refresh_token as string
    const rotated = await refresh(stolen)
    expect(rotated.status).toBe(200)

    // Within the interval (a client that lost the answer, or two tabs at once): served again.
    clock.advance(5_000)
    const again = await refresh(stolen)
    expect(again.status).toBe(200)
    expect(again.body.refresh_token).not.toBe(rotated.body.refresh_token)

    // After it: refused, and every token of that session with it.
    clock.advance(6_000)
    const reuse = await refresh(stolen)
    expect(reuse.status).toBe(400)
    expect(reuse.body.code).toBe('refresh_token_already_used')
    for (const token of [rotated.body.refresh_token, again.body.refresh_token]) {
      const res = await refresh(token)
      expect(res.status).toBe(400)
      expect(res.body.code).toBe('refresh_token_not_found')
    }
    // The user's other session is not touched.
    expect((await refresh(other.body.refresh_token)).status).toBe(200)
  })

  it('ends a session at sign-out so that none of its tokens can be reused, in the interval or not', async () => {
    const sb = client()
    const ok = await sb.auth.signInWithPassword({ email: 'rotate@example.com', password: 'correct horse' })
    const used = ok.data.session!.refresh_token
    const rotated = await sb.auth.refreshSession()
    expect(rotated.error).toBeNull()
    expect((await sb.auth.signOut()).error).toBeNull()
    const res = await tp.json('/auth/v1/token?grant_type=refresh_token', {
      headers: { apikey: tp.anonKey },
      body: { refresh_token: used },
    })
    expect(res.status).toBe(400)
    expect(res.body.code).toBe('refresh_token_not_found')
  })

  it("refuses a signed-out session's access token as Supabase Auth does (403 session_not_found)", async () => {
    await client().auth.signUp({ email: 'session@example.com', password: 'correct horse' })
    const signIn = () =>
      tp.json('/auth/v1/token?grant_type=password', {
        headers: { apikey: tp.anonKey },
        body: { email: 'session@example.com', password: 'correct horse' },
      })
    const user = (token: string) =>
      tp.json('/auth/v1/user', { headers: { apikey: tp.anonKey, authorization: `Bearer ${token}` } })
    const logout = (token: string, scope = 'global') =>
      tp.json(`/auth/v1/logout?scope=${scope}`, {
        method: 'POST',
        headers: { apikey: tp.anonKey, authorization: `Bearer ${token}` },
      })
    const laptop = (await signIn()).body.access_token as string
    const phone = (await signIn()).body.access_token as string
    expect((await user(laptop)).status).toBe(200)

    // Signing out here (scope local) ends this session only.
    expect((await logout(laptop, 'local')).status).toBe(204)
    const after = await user(laptop)
    expect(after.status).toBe(403)
    expect(after.body).toMatchObject({
      code: 'session_not_found',
      message: 'Session from session_id claim in JWT does not exist',
    })
    expect((await user(phone)).status).toBe(200)
    // Signing out again with the ended session's token is refused the same way.
    expect((await logout(laptop)).body.code).toBe('session_not_found')

    // supabase-js: after signOut(), getUser() with the old token fails as against Supabase
    // (supabase-js turns session_not_found into its AuthSessionMissingError).
    const sb = client()
    const { data } = await sb.auth.signInWithPassword({
      email: 'session@example.com',
      password: 'correct horse',
    })
    const old = data.session!.access_token
    expect((await sb.auth.signOut()).error).toBeNull()
    const gone = await client().auth.getUser(old)
    expect(gone.data.user).toBeNull()
    expect(gone.error?.name).toBe('AuthSessionMissingError')
    // The default scope is global: the phone's session ended with it.
    expect((await user(phone)).body.code).toBe('session_not_found')

    // A session that a reused refresh token revoked is ended too.
    const fresh = (await signIn()).body
    const refresh = (token: string) =>
      tp.json('/auth/v1/token?grant_type=refresh_token', {
        headers: { apikey: tp.anonKey },
        body: { refresh_token: token },
      })
    expect((await refresh(fresh.refresh_token)).status).toBe(200)
    clock.advance(11_000)
    expect((await refresh(fresh.refresh_token)).body.code).toBe('refresh_token_already_used')
    expect((await user(fresh.access_token)).body.code).toBe('session_not_found')

    // A token made without a session (npm run token) names none to check.
    const [row] = await tp.db.sql<
      { id: string }[]
    >`select id from auth.users where email = 'session@example.com'`
    const sessionless = await tp.tokenFor({ userId: row!.id, email: 'session@example.com' })
    expect((await user(sessionless)).status).toBe(200)
  })

  it('serves the dev mailbox on the local platform only, and only to this machine', async () => {
    const mailbox = (opts: { host?: string; client?: string } = {}) =>
      new Promise<number>((resolve, reject) => {
        const req = httpRequest(new URL('/_dev/mailbox', tp.baseUrl), {
          headers: {
            ...(opts.host && { host: opts.host }),
            ...(opts.client && { 'x-test-client': opts.client }),
          },
        })
        req.on('response', (res) => {
          res.resume()
          resolve(res.statusCode!)
        })
        req.on('error', reject)
        req.end()
      })
    expect(await mailbox()).toBe(200)
    expect(await mailbox({ host: `localhost:${new URL(tp.baseUrl).port}` })).toBe(200)
    // A page elsewhere whose name was rebound to 127.0.0.1, and a client from elsewhere.
    expect(await mailbox({ host: 'attacker.example' })).toBe(404)
    expect(await mailbox({ client: '203.0.113.7' })).toBe(404)
    // No function serves it, at its own path or the mailbox's.
    for (const m of functionModules) {
      const res = await tp.request(`/functions/v1/${m.functionName}/_dev/mailbox`)
      expect(res.status, m.functionName).toBe(404)
      expect(await res.text()).not.toContain('"recipient"')
    }
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
