/**
 * GET /v1/content with a platform key (key lookup, rate limit, RLS transaction, query) against a
 * bare route that runs the same query as the database owner with no authentication, rate limit
 * or RLS, both over HTTP on loopback against the same database, in the same run.
 * Goal (issue 16): the authenticated route keeps at least 0.8 of the bare throughput, at 1 and at
 * 50 concurrent clients: its key check, rate limit, claims and read are one pipelined round trip.
 * The two alternate in rounds (measurePair); percentiles are the worse round's.
 */
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { paginate } from '../../shared/infra/pagination.ts'
import { presentContent, queryContent } from '../../shared/services/content/feed.ts'
import { startTestPlatform, TestClock } from '../../tests/support/platform.ts'
import { contentRequest, createContentKey, seedContentTenant } from '../content-fixture.ts'
import { measurePair, printComparison } from '../lib.ts'

export default async function contentApiBenchmark(): Promise<void> {
  const clock = new TestClock()
  const tp = await startTestPlatform({ clock, env: { METERING_ENABLED: 'false' } })
  const { tenant, key } = await seedContentTenant(tp, 'enterprise')

  const bare = new Hono().get('/bare', async (c) => {
    // The platform's own pool, so both sides have the same connections to work with.
    const rows = await queryContent(tp.instances[0]!.platform.deps.sql, tenant.tenantId, null, 20)
    const page = paginate(rows, 20, (r) => ({ at: r.created_at, id: r.id }))
    return c.json({ data: page.data.map(presentContent), next_cursor: page.next_cursor })
  })
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: bare.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s))
  })
  const bareUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/bare`

  // Issue 16: one round trip for key-authenticated reads; goal 0.8 at 1 and at 50 clients. One key
  // for all clients is the worst case: its requests queue on its rate-limit bucket's row. A key is
  // limited to 1000/min (17/s), so a real load of hundreds per second comes from many keys: the
  // second 50-client run spreads the same load over 50 keys of the tenant.
  const manyKeys = [
    key,
    ...(await Promise.all(Array.from({ length: 49 }, () => createContentKey(tp, tenant.token)))),
  ]
  for (const [concurrency, total, keys] of [
    [1, 2000, [key]],
    [50, 4000, [key]],
    [50, 4000, manyKeys],
  ] as const) {
    const using = keys.length === 1 ? 'one key' : `${keys.length} keys`
    const { subject, baseline } = await measurePair(
      {
        label: `GET /v1/content, ${using}, ${concurrency} client(s)`,
        op: contentRequest(tp, clock, [...keys]),
      },
      {
        label: `bare route, same query, ${concurrency} client(s)`,
        op: async () => {
          const res = await fetch(bareUrl)
          if (res.status !== 200) throw new Error(`status ${res.status}`)
          await res.arrayBuffer()
        },
      },
      { total, concurrency },
    )
    printComparison(
      `Content API at ${concurrency} client(s), ${using}: authenticated vs bare`,
      subject,
      baseline,
      0.8,
    )
  }
  server.close()
  await tp.close()
}
