import type { TestClock, TestPlatform } from '../tests/support/platform.ts'

/**
 * The tenant both Content API suites measure: one site with 200 published articles and a
 * platform key (content:read, 1000/min), on the given plan.
 */
export async function seedContentTenant(tp: TestPlatform, plan: 'business' | 'enterprise') {
  const tenant = await tp.createTenant()
  await tp.db.sql`update public.tenants set plan = ${plan} where id = ${tenant.tenantId}`
  const [site] = await tp.db
    .sql`insert into public.sites (tenant_id, name) values (${tenant.tenantId}, 'Bench site') returning id`
  await tp.db.sql`
    insert into public.articles (tenant_id, site_id, title, status)
    select ${tenant.tenantId}, ${site!.id}, 'Article ' || g, 'published' from generate_series(1, 200) g`
  // Statistics now, so that autovacuum has no analyze of these rows to run during a measurement.
  await tp.db.sql`analyze public.sites, public.articles`
  return { tenant, key: await createContentKey(tp, tenant.token) }
}

/** A platform key of the tenant whose token is given (content:read, 1000/min). */
export async function createContentKey(tp: TestPlatform, token: string): Promise<string> {
  const created = await tp.json('/api/api-keys', {
    token,
    body: { name: 'bench', environment: 'production', scopes: ['content:read'], rate_limit_per_minute: 1000 },
  })
  return created.body.key as string
}

/**
 * One GET /v1/content with the key (or the keys, in turn); moves the clock a minute every 500
 * calls to stay under 1000/min.
 */
export function contentRequest(tp: TestPlatform, clock: TestClock, key: string | string[]) {
  const keys = typeof key === 'string' ? [key] : key
  let sent = 0
  return async () => {
    const current = keys[sent % keys.length]
    if (sent++ % 500 === 0) clock.advance(60_000)
    const res = await fetch(`${tp.baseUrl}/v1/content`, { headers: { authorization: `Bearer ${current}` } })
    if (res.status !== 200) throw new Error(`status ${res.status}: ${await res.text()}`)
    await res.arrayBuffer()
  }
}
