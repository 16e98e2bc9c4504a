import { randomBase62, sha256Hex } from '@shared/infra/crypto.ts'
import type { Sql } from '@shared/infra/db.ts'
import type { FunctionDeps } from '@shared/infra/deps.ts'
import { errorBody } from '@shared/infra/errors.ts'
import { rateLimits, takeRateLimit } from '@shared/infra/rate-limit.ts'
import { matchesPublishableKey, matchesServiceKey } from '@shared/infra/supabase-key-match.ts'
import bcrypt from 'bcryptjs'
import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { cors } from 'hono/cors'
import { importJWK, jwtVerify } from 'jose'
import { z } from 'zod'
import { issueAccessToken } from './dev-identity.ts'
import type { LocalEnv } from './local-env.ts'

/**
 * The local stand-in for Supabase Auth: the password endpoints supabase-js calls (sign-up,
 * sign-in, refresh, user, sign-out) under /auth/v1, answering with the request and response
 * shapes of Supabase Auth (GoTrue) so the dashboard, or any supabase-js app, runs unchanged
 * against `npm start`. Local only: Supabase Auth itself serves these paths in production.
 *
 * - Access tokens are the ones the platform already issues (dev-identity.ts: ES256, plus
 *   session_id), with app_metadata.tenant_id from public.custom_access_token_hook, which runs
 *   before every issue as Supabase Auth runs it: a refresh after POST /api/tenants/active
 *   carries the new tenant.
 * - Passwords are stored as bcrypt hashes in auth.users.encrypted_password, as Supabase Auth
 *   stores them. E-mail addresses count as confirmed at sign-up (Supabase's local default).
 * - Refresh tokens are random, stored as SHA-256 hashes, and rotate on every use. As in
 *   Supabase Auth, a rotated token presented again within REFRESH_TOKEN_REUSE_SECONDS (a client
 *   that lost the answer, two tabs refreshing at once) gets a fresh token in the same session;
 *   presented later, it is taken as stolen and the whole session is revoked: every token of the
 *   family, including the one it was rotated into. Sign-out deletes the session's tokens.
 * - GET /user and POST /logout check the access token's session, as Supabase Auth does: once
 *   the session has ended (sign-out, a revoked family), they answer 403 session_not_found.
 * - Sign-up never changes an existing user. A user that exists without a password (the seeded
 *   demo user, `npm run token` users) gets one only through `npm run set-password`, a local
 *   command that writes the database directly (scripts/set-password.ts).
 */

const ACCESS_TOKEN_SECONDS = 3600
export const BCRYPT_COST = 10
/** bcrypt reads at most 72 bytes; Supabase Auth refuses longer passwords. */
export const MAX_PASSWORD_BYTES = 72
export const MIN_PASSWORD_LENGTH = 6
/** Supabase Auth's default (GOTRUE_SECURITY_REFRESH_TOKEN_REUSE_INTERVAL): 10 seconds. */
const REFRESH_TOKEN_REUSE_SECONDS = 10
/** Auth requests are small: an e-mail, a password and a little user metadata. */
const MAX_BODY_BYTES = 16 * 1024
/** Compared against when the e-mail is unknown, so the answer takes as long either way. */
let dummyHash: Promise<string> | undefined
const dummy = () => (dummyHash ??= bcrypt.hash('not-a-password', BCRYPT_COST))

// Supabase Auth ignores fields it does not know and clients send some (captcha, PKCE), so these
// schemas strip unknown keys rather than refusing them.
const emailPassword = z.object({
  email: z.string().trim().toLowerCase().email().max(254),
  password: z.string().min(1).max(1000),
})
const signUpBody = emailPassword.extend({ data: z.record(z.string(), z.unknown()).optional() })
const refreshBody = z.object({ refresh_token: z.string().min(1).max(200) })

interface UserRow {
  id: string
  email: string
  encrypted_password: string | null
  raw_app_meta_data: Record<string, unknown>
  raw_user_meta_data: Record<string, unknown>
  email_confirmed_at: Date | null
  last_sign_in_at: Date | null
  created_at: Date
  updated_at: Date
}

const userColumns =
  'id, email, encrypted_password, raw_app_meta_data, raw_user_meta_data, email_confirmed_at, last_sign_in_at, created_at, updated_at'

class AuthError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 413 | 422 | 429,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message)
  }
}

/** A user as Supabase Auth returns it (GET /user, and `user` in a session). */
function userJson(u: UserRow) {
  const iso = (d: Date | null) => (d ? d.toISOString() : null)
  return {
    id: u.id,
    aud: 'authenticated',
    role: 'authenticated',
    email: u.email,
    email_confirmed_at: iso(u.email_confirmed_at),
    phone: '',
    confirmed_at: iso(u.email_confirmed_at),
    last_sign_in_at: iso(u.last_sign_in_at),
    app_metadata: { provider: 'email', providers: ['email'], ...u.raw_app_meta_data },
    user_metadata: u.raw_user_meta_data,
    identities: [],
    created_at: u.created_at.toISOString(),
    updated_at: u.updated_at.toISOString(),
    is_anonymous: false,
  }
}

export function createLocalAuth(
  deps: FunctionDeps,
  localEnv: Pick<LocalEnv, 'jwtPrivateJwk' | 'jwtPublicJwk' | 'jwtKid'>,
): Hono {
  const sql: Sql = deps.sql
  const app = new Hono()
  const publicKey = importJWK(localEnv.jwtPublicJwk, 'ES256')

  // Any origin may call, as with Supabase Auth: the credentials are in the body and the
  // Authorization header, never in cookies.
  app.use(
    '*',
    cors({
      origin: '*',
      allowHeaders: ['authorization', 'x-client-info', 'apikey', 'content-type', 'x-supabase-api-version'],
      exposeHeaders: ['x-supabase-api-version', 'x-request-id'],
      maxAge: 600,
    }),
  )

  app.onError((err, c) => {
    c.header('x-supabase-api-version', '2024-01-01')
    // Supabase Auth's {code, message} (supabase-js reads code, given the version header), which is
    // also the spec's error body once `error` is added; the codes stay Supabase Auth's.
    if (err instanceof AuthError) {
      return c.json({ ...errorBody(err.status, err.code, err.message), ...err.extra }, err.status)
    }
    deps.logger.error('local auth error', { error: String(err) })
    return c.json(errorBody(500, 'unexpected_failure', 'Unexpected failure'), 500)
  })

  app.use(
    '*',
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw new AuthError(413, 'request_too_large', `Request body exceeds ${MAX_BODY_BYTES} bytes`)
      },
    }),
  )

  // Supabase's gateway refuses requests without the project's anon or service-role key.
  app.use('*', async (c, next) => {
    if (c.req.method === 'OPTIONS') return next()
    const key = c.req.header('apikey')
    if (!key || !(matchesPublishableKey(deps.config, key) || matchesServiceKey(deps.config, key))) {
      throw new AuthError(401, 'no_api_key', 'No valid API key found in the apikey header')
    }
    await next()
  })

  const limitByAddress = async (address: string) => {
    const rl = await takeRateLimit(sql, `ip:${address}`, rateLimits.unauthenticated, deps.clock.now())
    if (!rl.allowed) {
      throw new AuthError(429, 'over_request_rate_limit', 'Request rate limit reached', {
        retryAfter: rl.retryAfter,
      })
    }
  }
  // The socket peer, as the local platform hands it to every app (see Platform.fetch).
  const clientAddress = (c: { env: unknown }) =>
    (c.env as { remoteAddr?: string } | undefined)?.remoteAddr || 'unknown'

  const parse = async <T extends z.ZodType>(schema: T, raw: () => Promise<unknown>): Promise<z.infer<T>> => {
    const result = schema.safeParse(await raw().catch(() => undefined))
    if (!result.success) {
      const issue = result.error.issues[0]
      throw new AuthError(400, 'validation_failed', `${issue?.path.join('.') || 'body'}: ${issue?.message}`)
    }
    return result.data
  }

  /** Opens a session (or continues one on refresh): a new refresh token and an access token. */
  const session = async (user: UserRow, issuer: string, sessionId: string = crypto.randomUUID()) => {
    const refreshToken = randomBase62(40)
    await sql`insert into auth.local_refresh_tokens (token_hash, user_id, session_id, created_at)
              values (${sha256Hex(refreshToken)}, ${user.id}, ${sessionId}, ${deps.clock.now()})`
    // As Supabase Auth does before every token: the custom access token hook sets the tenant.
    const [hooked] = await sql<{ tenant_id: string | null }[]>`
      select public.custom_access_token_hook(${sql.json({
        user_id: user.id,
        claims: { sub: user.id, app_metadata: { provider: 'email' } },
        authentication_method: 'password',
      })}) -> 'claims' -> 'app_metadata' ->> 'tenant_id' as tenant_id`
    const tenantId = hooked?.tenant_id
    const now = deps.clock.now()
    const accessToken = await issueAccessToken(
      localEnv,
      {
        userId: user.id,
        email: user.email,
        tenantId: tenantId ?? undefined,
        sessionId,
      },
      { issuer, expiresInSeconds: ACCESS_TOKEN_SECONDS, now },
    )
    return {
      access_token: accessToken,
      token_type: 'bearer',
      expires_in: ACCESS_TOKEN_SECONDS,
      expires_at: Math.floor(now.getTime() / 1000) + ACCESS_TOKEN_SECONDS,
      refresh_token: refreshToken,
      user: userJson(user),
    }
  }

  const issuerOf = (url: string) => `${new URL(url).origin}/auth/v1`

  const checkPassword = (password: string) => {
    if (password.length < MIN_PASSWORD_LENGTH) {
      throw new AuthError(
        422,
        'weak_password',
        `Password should be at least ${MIN_PASSWORD_LENGTH} characters.`,
        {
          weak_password: { reasons: ['length'] },
        },
      )
    }
    if (new TextEncoder().encode(password).length > MAX_PASSWORD_BYTES) {
      throw new AuthError(
        422,
        'validation_failed',
        `Password cannot be longer than ${MAX_PASSWORD_BYTES} bytes`,
      )
    }
  }

  app.post('/signup', async (c) => {
    await limitByAddress(clientAddress(c))
    const body = await parse(signUpBody, () => c.req.json())
    checkPassword(body.password)
    const hash = await bcrypt.hash(body.password, BCRYPT_COST)
    const now = deps.clock.now()
    const [user] = await sql<UserRow[]>`
      insert into auth.users (email, encrypted_password, raw_app_meta_data, raw_user_meta_data, email_confirmed_at, last_sign_in_at, created_at, updated_at)
      values (${body.email}, ${hash}, ${sql.json({ provider: 'email', providers: ['email'] })},
              ${sql.json((body.data ?? {}) as never)}, ${now}, ${now}, ${now}, ${now})
      on conflict (email) do nothing
      returning ${sql.unsafe(userColumns)}`
    // An existing user is never changed here, with or without a password: whoever knows an
    // address could otherwise set the password of a user made by `npm run token`.
    // (npm run set-password gives such a user a password, locally and explicitly.)
    if (!user) throw new AuthError(422, 'user_already_exists', 'User already registered')
    return c.json(await session(user, issuerOf(c.req.url)), 200)
  })

  app.post('/token', async (c) => {
    const grant = c.req.query('grant_type')
    if (grant === 'password') {
      await limitByAddress(clientAddress(c))
      const body = await parse(emailPassword, () => c.req.json())
      const [user] = await sql<UserRow[]>`
        select ${sql.unsafe(userColumns)} from auth.users where email = ${body.email}`
      const ok = await bcrypt.compare(body.password, user?.encrypted_password ?? (await dummy()))
      if (!user?.encrypted_password || !ok)
        throw new AuthError(400, 'invalid_credentials', 'Invalid login credentials')
      const [signedIn] = await sql<UserRow[]>`
        update auth.users set last_sign_in_at = ${deps.clock.now()} where id = ${user.id}
        returning ${sql.unsafe(userColumns)}`
      return c.json(await session(signedIn!, issuerOf(c.req.url)), 200)
    }
    if (grant === 'refresh_token') {
      const body = await parse(refreshBody, () => c.req.json())
      const now = deps.clock.now()
      // Rotation: the presented token is used up in the transaction that finds it (the row lock
      // serialises two refreshes with one token).
      const outcome = await sql.begin(async (tx) => {
        const [found] = await tx<{ user_id: string; session_id: string; revoked_at: Date | null }[]>`
          select user_id, session_id, revoked_at from auth.local_refresh_tokens
          where token_hash = ${sha256Hex(body.refresh_token)}
          for update`
        if (!found) return { kind: 'not_found' } as const
        if (!found.revoked_at) {
          await tx`update auth.local_refresh_tokens set revoked_at = ${now}
                   where token_hash = ${sha256Hex(body.refresh_token)}`
          return { kind: 'rotated', ...found } as const
        }
        if (now.getTime() - found.revoked_at.getTime() <= REFRESH_TOKEN_REUSE_SECONDS * 1000)
          return { kind: 'reused_in_interval', ...found } as const
        // Reuse after the interval: someone else may hold the session. Revoke the whole family.
        await tx`delete from auth.local_refresh_tokens where session_id = ${found.session_id}`
        return { kind: 'family_revoked' } as const
      })
      if (outcome.kind === 'not_found')
        throw new AuthError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found')
      if (outcome.kind === 'family_revoked')
        throw new AuthError(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used')
      const [user] = await sql<
        UserRow[]
      >`select ${sql.unsafe(userColumns)} from auth.users where id = ${outcome.user_id}`
      if (!user) throw new AuthError(404, 'user_not_found', 'User not found')
      return c.json(await session(user, issuerOf(c.req.url), outcome.session_id), 200)
    }
    throw new AuthError(400, 'validation_failed', 'Unsupported grant_type: use password or refresh_token')
  })

  /** The signed-in user's claims from the Authorization header. */
  const verified = async (header: string | undefined) => {
    const token = header?.match(/^Bearer\s+(\S+)$/i)?.[1]
    if (!token) throw new AuthError(401, 'no_authorization', 'This endpoint requires a Bearer token')
    try {
      const { payload } = await jwtVerify(token, await publicKey, {
        audience: 'authenticated',
        currentDate: deps.clock.now(),
      })
      if (typeof payload.sub !== 'string') throw new Error('no sub')
      return {
        sub: payload.sub,
        sessionId: typeof payload.session_id === 'string' ? payload.session_id : null,
      }
    } catch {
      throw new AuthError(403, 'bad_jwt', 'invalid JWT: unable to parse or verify signature')
    }
  }

  /**
   * As Supabase Auth checks every authenticated request: the token's user must exist and its
   * session must still be open. A session lives while any of its refresh tokens is stored (used
   * ones stay until sign-out or a reuse revokes the family), so a signed-out session's access
   * token is refused here although its signature holds until it expires. A token without a
   * session (`npm run token`) has no session to check, as in Supabase Auth.
   */
  const signedIn = async (header: string | undefined) => {
    const claims = await verified(header)
    const [user] = await sql<
      UserRow[]
    >`select ${sql.unsafe(userColumns)} from auth.users where id = ${claims.sub}`
    if (!user) throw new AuthError(403, 'user_not_found', 'User from sub claim in JWT does not exist')
    if (claims.sessionId) {
      // Sessions are UUIDs; any other value names no session (and is never sent to a uuid column).
      const [open] = z.uuid().safeParse(claims.sessionId).success
        ? await sql`select 1 from auth.local_refresh_tokens where session_id = ${claims.sessionId} limit 1`
        : []
      if (!open)
        throw new AuthError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist')
    }
    return { ...claims, user }
  }

  app.get('/user', async (c) => {
    const { user } = await signedIn(c.req.header('authorization'))
    return c.json(userJson(user), 200)
  })

  app.post('/logout', async (c) => {
    const { sub, sessionId } = await signedIn(c.req.header('authorization'))
    const scope = c.req.query('scope') ?? 'global'
    if (!['global', 'local', 'others'].includes(scope)) {
      throw new AuthError(400, 'validation_failed', 'scope must be global, local or others')
    }
    // The sessions end: their tokens, used or not, are deleted (as Supabase Auth deletes the
    // session), so no token of theirs can be reused within the reuse interval either.
    await sql`
      delete from auth.local_refresh_tokens
      where user_id = ${sub}
        ${scope === 'local' ? sql`and session_id = ${sessionId}` : sql``}
        ${scope === 'others' ? sql`and session_id is distinct from ${sessionId}` : sql``}`
    return c.body(null, 204)
  })

  app.notFound((c) =>
    c.json({ code: 'not_found', message: `No route for ${c.req.method} ${c.req.path}` }, 404),
  )
  return app
}
