import type { TestPlatform } from './platform.ts'

/** A signed-in user who belongs to no tenant yet, with an access token without tenant_id. */
export async function createLoneUser(
  tp: TestPlatform,
  email = `lone-${Math.random().toString(36).slice(2, 10)}@example.com`,
) {
  const [user] = await tp.db.sql<
    { id: string }[]
  >`insert into auth.users (id, email) values (gen_random_uuid(), ${email}) returning id`
  return { userId: user!.id, email, token: await tp.tokenFor({ userId: user!.id, email }) }
}

/** What Supabase's custom access token hook puts into app_metadata.tenant_id for the user. */
export async function hookTenantId(tp: TestPlatform, userId: string): Promise<string | undefined> {
  const event = {
    user_id: userId,
    claims: { sub: userId, role: 'authenticated', app_metadata: { provider: 'email' } },
  }
  const [row] = await tp.db.sql<{ out: { claims: { app_metadata: { tenant_id?: string } } } }[]>`
    select public.custom_access_token_hook(${tp.db.sql.json(event)}) as out`
  return row!.out.claims.app_metadata.tenant_id
}

/** An access token as Supabase would issue it after the hook ran (the session refresh). */
export async function refreshedToken(tp: TestPlatform, user: { userId: string; email: string }) {
  const tenantId = await hookTenantId(tp, user.userId)
  return { tenantId, token: await tp.tokenFor({ ...user, tenantId }) }
}

export async function outbox(tp: TestPlatform, tenantId: string) {
  return tp.db.sql<{ id: string; type: string; data: Record<string, unknown> }[]>`
    select id, type, data from public.event_outbox where tenant_id = ${tenantId} order by seq`
}
