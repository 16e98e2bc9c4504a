import type { Sql } from '@shared/infra/db.ts'
import { importJWK, SignJWT } from 'jose'
import type { LocalEnv } from './local-env.ts'

/**
 * Local stand-in for Supabase Auth: users, tenants and signed access tokens with the same
 * claims Supabase issues (sub, email, role, aud, app_metadata.tenant_id, exp).
 */
export async function ensureUserAndTenant(
  sql: Sql,
  email: string,
  tenantName?: string,
  role: 'owner' | 'admin' | 'member' = 'owner',
): Promise<{ userId: string; tenantId: string }> {
  return sql.begin(async (tx) => {
    // Supabase's auth.users has no default id and only a partial unique index on email (so no
    // ON CONFLICT (email)): look the user up, then insert with an id.
    const [found] = await tx<
      { id: string }[]
    >`select id from auth.users where email = ${email.toLowerCase()} limit 1`
    const [user] = found
      ? [found]
      : await tx<{ id: string }[]>`
          insert into auth.users (id, email, raw_app_meta_data) values (gen_random_uuid(), ${email.toLowerCase()}, '{}')
          returning id`
    const userId = user!.id
    const name = tenantName ?? `${email.split('@')[0]}'s team`
    // Without a name, reuse the user's active tenant (the one in their token), else their oldest
    // membership; with a name, a tenant of that name the user belongs to. Otherwise create it.
    const [existing] = tenantName
      ? await tx<{ id: string }[]>`
          select t.id from public.tenants t join public.tenant_members m on m.tenant_id = t.id
          where m.user_id = ${userId} and t.name = ${name} order by t.created_at limit 1`
      : await tx<{ id: string }[]>`
          select m.tenant_id as id from public.tenant_members m join auth.users u on u.id = m.user_id
          where m.user_id = ${userId}
          order by (m.tenant_id::text = u.raw_app_meta_data ->> 'tenant_id') is true desc, m.created_at limit 1`
    let tenantId = existing?.id
    if (!tenantId) {
      const [tenant] = await tx<
        { id: string }[]
      >`insert into public.tenants (name) values (${name}) returning id`
      tenantId = tenant!.id
      await tx`insert into public.tenant_members (tenant_id, user_id, role) values (${tenantId}, ${userId}, ${role})`
    }
    await tx`update auth.users set raw_app_meta_data = coalesce(raw_app_meta_data, '{}') || ${tx.json({ tenant_id: tenantId })} where id = ${userId}`
    return { userId, tenantId }
  })
}

export async function issueAccessToken(
  env: Pick<LocalEnv, 'jwtPrivateJwk' | 'jwtKid'>,
  user: { userId: string; email: string; tenantId?: string; sessionId?: string },
  opts: { issuer: string; expiresInSeconds?: number; now?: Date } = {
    issuer: 'http://127.0.0.1:54321/auth/v1',
  },
): Promise<string> {
  const key = await importJWK(env.jwtPrivateJwk, 'ES256')
  const iat = Math.floor((opts.now ?? new Date()).getTime() / 1000)
  return new SignJWT({
    email: user.email,
    role: 'authenticated',
    app_metadata: user.tenantId ? { tenant_id: user.tenantId, provider: 'email' } : { provider: 'email' },
    ...(user.sessionId && { session_id: user.sessionId }),
  })
    .setProtectedHeader({ alg: 'ES256', kid: env.jwtKid, typ: 'JWT' })
    .setSubject(user.userId)
    .setAudience('authenticated')
    .setIssuer(opts.issuer)
    .setIssuedAt(iat)
    .setExpirationTime(iat + (opts.expiresInSeconds ?? 3600))
    .sign(key)
}
