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
  const created = await tp.json('/api/api-keys', {
    token: tenant.token,
    body: { name: 'bench', environment: 'production', scopes: ['content:read'], rate_limit_per_minute: 1000 },
  })
  return { tenant, key: created.body.key as string }
}

/** One GET /v1/content with the key; moves the clock a minute every 500 calls to stay under 1000/min. */
export function contentRequest(tp: TestPlatform, clock: TestClock, key: string) {
  let sent = 0
  return async () => {
    if (sent++ % 500 === 0) clock.advance(60_000)
    const res = await fetch(`${tp.baseUrl}/v1/content`, { headers: { authorization: `Bearer ${key}` } })
    if (res.status !== 200) throw new Error(`status ${res.status}: ${await res.text()}`)
    await res.arrayBuffer()
  }
}
