import type { Sql } from '@shared/infra/db.ts'
import { eventDataSchema } from '@shared/infra/event-catalog.ts'

/**
 * Every event the platform emitted during a test file, checked against the event catalog (the
 * schemas the OpenAPI documents publish). The test platform runs this when it closes, so each file
 * that makes the platform emit an event checks that event's `data`. Events a test wrote into the
 * outbox by hand (ids such as `evt_race12`, made-up data for load or isolation tests) are not the
 * platform's and are left out: the platform's ids are `evt_` and 24 base62 characters.
 */
const PLATFORM_EVENT_ID = /^evt_[A-Za-z0-9]{24}$/

export interface EventMismatch {
  id: string
  type: string
  problem: string
}

export async function emittedEventMismatches(sql: Sql): Promise<EventMismatch[]> {
  const rows = await sql<{ id: string; type: string; data: unknown }[]>`
    select id, type, data from public.event_outbox order by seq`
  const mismatches: EventMismatch[] = []
  for (const row of rows) {
    if (!PLATFORM_EVENT_ID.test(row.id)) continue
    const schema = eventDataSchema(row.type)
    if (!schema) {
      mismatches.push({ id: row.id, type: row.type, problem: 'not in the event catalog' })
      continue
    }
    const parsed = schema.safeParse(row.data)
    if (!parsed.success)
      mismatches.push({
        id: row.id,
        type: row.type,
        problem: parsed.error.issues.map((i) => `${i.path.join('.') || '(data)'}: ${i.message}`).join('; '),
      })
  }
  return mismatches
}

export async function assertEmittedEventsMatchCatalog(sql: Sql): Promise<void> {
  const mismatches = await emittedEventMismatches(sql)
  if (mismatches.length > 0)
    throw new Error(
      `events whose data does not match the event catalog (shared/infra/event-catalog.ts):\n${mismatches
        .slice(0, 20)
        .map((m) => `  ${m.type} ${m.id}: ${m.problem}`)
        .join('\n')}`,
    )
}
