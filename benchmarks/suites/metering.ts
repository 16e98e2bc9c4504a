/**
 * Metered GET /v1/content against the same request with metering off, on one platform and one
 * database in the same run (the switch is the METERING_ENABLED setting, flipped on the running
 * instance). Rounds alternate so that drift (cache warmth, table growth) hits both sides alike.
 * Goal: metering costs under 20% of throughput, i.e. ratio >= 0.8.
 */

import { startTestPlatform, TestClock } from '@tests/support/platform.ts'
import { contentRequest, seedContentTenant } from '../content-fixture.ts'
import { combineRounds, type Measurement, measure, printComparison } from '../lib.ts'

export default async function meteringBenchmark(): Promise<void> {
  const clock = new TestClock()
  const tp = await startTestPlatform({ clock })
  const config = tp.instances[0]!.platform.deps.config
  // A paid plan with room: every metered call takes the normal path (upsert, quota compare).
  const { tenant, key } = await seedContentTenant(tp, 'business')

  const op = contentRequest(tp, clock, key)

  const total = 1500
  const on: Measurement[] = []
  const off: Measurement[] = []
  for (let round = 0; round < 2; round++) {
    config.METERING_ENABLED = false
    off.push(await measure('off', op, { total, concurrency: 8 }))
    config.METERING_ENABLED = true
    on.push(await measure('on', op, { total, concurrency: 8 }))
  }
  const [counted] = await tp.db.sql<{ units: string }[]>`
    select coalesce(sum(units), 0)::text as units from public.usage_counters where tenant_id = ${tenant.tenantId}`
  printComparison(
    'Usage metering on GET /v1/content (one upsert per request)',
    combineRounds('GET /v1/content, metered', on),
    combineRounds('GET /v1/content, metering off', off),
    0.8,
  )
  // Warm-up calls of the metered rounds are counted too.
  console.log(`  counted ${counted!.units} metered calls (expected ${2 * total + 2 * 50})`)
  await tp.close()
}
