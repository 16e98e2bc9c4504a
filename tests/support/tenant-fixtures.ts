import { expect } from 'vitest'
import type { TestPlatform, TestTenant } from './platform.ts'

/**
 * One record of each tenant-owned resource, made through the API as `tenant`, for tests that
 * check another tenant cannot reach them (the security matrix). Returns their ids by name.
 */
export async function tenantFixtures(tp: TestPlatform, tenant: TestTenant): Promise<Record<string, string>> {
  const post = async (path: string, body: unknown) => {
    const res = await tp.json(path, { token: tenant.token, body })
    expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300)
    return res.body
  }
  const apiKey = await post('/api/api-keys', {
    name: 'fixture',
    environment: 'production',
    scopes: ['content:read'],
    rate_limit_per_minute: 10,
  })
  // Jobs are made by the server functions; one queued row is enough to be found (or not).
  const [job] = await tp.db.sql<{ id: string }[]>`
    insert into public.jobs (tenant_id, kind) values (${tenant.tenantId}, 'fixture.job') returning id`
  const [source] = await tp.db.sql<{ id: string }[]>`
    with site as (insert into public.sites (tenant_id, name) values (${tenant.tenantId}, 'Fixture site') returning id)
    insert into public.sources (tenant_id, site_id, name, kind, config)
    select ${tenant.tenantId}, id, 'Fixture source', 'feed', '{"url":"https://example.com/feed.xml"}' from site
    returning id`
  return { apiKey: apiKey.id, user: tenant.userId, job: job!.id, source: source!.id }
}
