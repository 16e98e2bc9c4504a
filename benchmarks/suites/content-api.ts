/**
 * GET /v1/content with a platform key (key lookup, rate limit, RLS transaction, query) against a
 * bare route that runs the same query as the database owner with no authentication, rate limit
 * or RLS, both over HTTP on loopback against the same database, in the same run.
 * Goal (issue 2): the authenticated route keeps at least half the bare throughput.
 */
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { paginate } from '../../shared/infra/pagination.ts'
import { presentContent, queryContent } from '../../shared/services/content/feed.ts'
import { startTestPlatform, TestClock } from '../../tests/support/platform.ts'
import { contentRequest, seedContentTenant } from '../content-fixture.ts'
import { measure, printComparison } from '../lib.ts'

export default async function contentApiBenchmark(): Promise<void> {
  const clock = new TestClock()
  const tp = await startTestPlatform({ clock, env: { METERING_ENABLED: 'false' } })
  const { tenant, key } = await seedContentTenant(tp, 'enterprise')

  const bare = new Hono().get('/bare', async (c) => {
    const rows = await queryContent(tp.db.sql, tenant.tenantId, null, 20)
    const page = paginate(rows, 20, (r) => ({ at: r.created_at, id: r.id }))
    return c.json({ data: page.data.map(presentContent), next_cursor: page.next_cursor })
  })
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: bare.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s))
  })
  const bareUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/bare`

  const total = 3000
  const authed = await measure('GET /v1/content (platform key, limit, RLS)', contentRequest(tp, clock, key), {
    total,
    concurrency: 8,
  })
  const baseline = await measure(
    'bare route, same query (no auth, limit, RLS)',
    async () => {
      const res = await fetch(bareUrl)
      if (res.status !== 200) throw new Error(`status ${res.status}`)
      await res.arrayBuffer()
    },
    { total, concurrency: 8 },
  )
  printComparison('Content API: authenticated vs bare', authed, baseline, 0.5)
  server.close()
  await tp.close()
}
