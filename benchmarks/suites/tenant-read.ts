/**
 * The database side of the hot read alone (docs/adr/0004-rate-limits-in-postgres.md):
 * the content feed read as the tenant against the same query as the database owner, straight on
 * the pool (no HTTP, no authentication, no rate limit):
 *
 * - as the tenant: private.content_feed with the caller's claims sets role and claims and reads
 *   under RLS, in one statement (readContentAsTenant, what GET /v1/content does);
 * - bare: private.content_feed without claims, as the owner (the content-api bench's baseline).
 *
 * (Four pipelined statements, BEGIN; set_config; the read; COMMIT, as other tenant reads do, were
 * measured here too until the function stopped being callable by role authenticated: 2.2x the
 * bare read's backend CPU at 50 callers; docs/performance.md.)
 *
 * Backend CPU from /proc/<pid>/stat (PostgreSQL on this machine), Node CPU of this process, both
 * per read; rounds alternate so drift falls on every side alike.
 */
import type { TenantCaller } from '@shared/infra/caller.ts'
import { queryContent, readContentAsTenant } from '@shared/services/content/feed.ts'
import { startTestPlatform } from '@tests/support/platform.ts'
import { seedContentTenant } from '../content-fixture.ts'
import { backendCpuDuring, combineRounds, type Measurement, measure, printMeasurement } from '../lib.ts'

export default async function tenantReadBenchmark(): Promise<void> {
  const tp = await startTestPlatform()
  const { tenant } = await seedContentTenant(tp, 'enterprise')
  const sql = tp.instances[0]!.platform.deps.sql
  const onServer = Boolean(process.env.DATABASE_URL)
  const caller: TenantCaller = {
    kind: 'user',
    role: 'owner',
    tenantId: tenant.tenantId,
    userId: tenant.userId,
    claims: { sub: tenant.userId, role: 'authenticated', app_metadata: { tenant_id: tenant.tenantId } },
  }
  const sides = {
    'bare (owner)': () => queryContent(sql, null, tenant.tenantId, { limit: 20 }),
    'as the tenant': () => readContentAsTenant(sql, caller, { limit: 20 }),
  }
  for (const concurrency of [1, 50]) {
    const runs = new Map<string, { m: Measurement[]; backend: number; node: number; count: number }>()
    for (let round = 0; round < 4; round++) {
      const order = Object.entries(sides)
      if (round % 2 === 1) order.reverse()
      for (const [name, read] of order) {
        let node = 0
        const timed = async () => {
          const nodeBefore = process.cpuUsage()
          const m = await measure(`${name}, ${concurrency} caller(s)`, read, { total: 2000, concurrency })
          const used = process.cpuUsage(nodeBefore)
          node = (used.user + used.system) / 1e6
          return m
        }
        const { result: m, seconds } = onServer
          ? await backendCpuDuring(tp.db.sql, timed)
          : { result: await timed(), seconds: 0 }
        const run = runs.get(name) ?? { m: [], backend: 0, node: 0, count: 0 }
        run.m.push(m)
        run.node += node
        run.backend += seconds
        // measure() runs a warm-up of 50 before the timed ones; the CPU counts both.
        run.count += m.count + 50
        runs.set(name, run)
      }
    }
    console.log(`\nThe feed read as the tenant, ${concurrency} caller(s)`)
    const bare = runs.get('bare (owner)')!
    for (const run of runs.values()) {
      printMeasurement(combineRounds(run.m[0]!.label, run.m))
      const perRead = (seconds: number, count: number) => (seconds / count) * 1e6
      const node = `Node CPU ${perRead(run.node, run.count).toFixed(0)} µs (${(run.node / bare.node).toFixed(2)}x bare)`
      const backend = onServer
        ? `, backend CPU ${perRead(run.backend, run.count).toFixed(0)} µs (${(run.backend / bare.backend).toFixed(2)}x bare)`
        : ''
      console.log(`    ${node}${backend}`)
    }
  }
  await tp.close()
}
