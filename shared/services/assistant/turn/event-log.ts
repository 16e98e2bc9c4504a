import type { Queryable } from '@shared/infra/db.ts'
import type { FunctionDeps, JobDeps, ServiceContext } from '@shared/infra/deps.ts'
import { notFound } from '@shared/infra/errors.ts'
import type { Json } from '@shared/infra/jobs/engine.ts'
import { type MessageRow, presentMessage } from '../records.ts'
import type { TurnEvent, TurnEvents } from './events.ts'
import { shapeTurnResult } from './shaping.ts'
import { turnResult } from './start.ts'
import { turnRecords } from './store.ts'

/**
 * A turn's events, numbered and stored (public.assistant_turn_events), so that a client that lost
 * its stream re-attaches on any instance and reads the rest (docs/adr/0024-resumable-turn-streams.md).
 *
 * The writer is the turn job: one runs a turn at a time (the job's lease), so it numbers events
 * itself from the last stored number, hands each to the live stream at once and stores them in
 * order behind it, several to a statement. A reader follows the table by polling, which works the
 * same on PGlite, on a direct connection and through a transaction pooler.
 */

/** How long events stay after their turn ended (the assistant sweep deletes older ones). */
const EVENT_RETENTION_HOURS = 24
/** How often a follower looks for new events. */
const FOLLOW_POLL_MS = 100
/** How long one resumed stream follows a turn before it ends; the client resumes from its last id. */
export const FOLLOW_MS = 120_000
/** A turn no longer running whose `turn.ended` is not stored after this long gets one made from its rows. */
const END_GRACE_MS = 2_000
/** Events read at once. */
const PAGE = 500

type Row = { seq: number; event: string; data: unknown }

/**
 * Runs a turn job with its events numbered and stored: `turn.started` first when the turn has no
 * events yet, `turn.ended` (the turn result) once the run ends. A turn that is not running (another
 * instance ran it, or it was deleted) is run without a log: the run does nothing.
 */
export async function withTurnEventLog(
  deps: JobDeps,
  turnId: string,
  live: TurnEvents,
  run: (events: TurnEvents) => Promise<Json>,
): Promise<Json> {
  const [opened] = await deps.sql<
    { tenant_id: string; status: string; last: number; started: boolean; user_message: MessageRow | null }[]
  >`
    select t.tenant_id, t.status,
           coalesce((select max(seq) from public.assistant_turn_events e where e.turn_id = t.id), 0)::int as last,
           exists (select 1 from public.assistant_turn_events e where e.turn_id = t.id and e.event = 'turn.started') as started,
           (select to_jsonb(m) from (
              select id, conversation_id, turn_id, role, content, created_at from public.assistant_messages
              where tenant_id = t.tenant_id and turn_id = t.id and role = 'user' order by seq limit 1) m) as user_message
    from public.assistant_turns t where t.id = ${turnId}`
  if (opened?.status !== 'running') return run(live)
  const log = new EventWriter(deps, opened.tenant_id, turnId, opened.last, live)
  if (!opened.started && opened.user_message) {
    const message = { ...opened.user_message, created_at: new Date(opened.user_message.created_at) }
    log.emit({
      event: 'turn.started',
      data: {
        turn_id: turnId,
        conversation_id: message.conversation_id,
        message: presentMessage(message, []),
      },
    })
  }
  try {
    return await run(log)
  } finally {
    try {
      const { turn, messages, calls, quota } = await turnRecords(
        deps.sql,
        opened.tenant_id,
        turnId,
        deps.clock.now(),
      )
      log.emit({ event: 'turn.ended', data: shapeTurnResult(turn, messages, calls, quota) })
    } catch (err) {
      deps.logger.warn('assistant turn: no turn.ended stored', { turn_id: turnId, error: String(err) })
    }
    await log.flush()
  }
}

/** Numbers events, passes each on at once, and stores them in order, batching what piles up. */
class EventWriter implements TurnEvents {
  private pending: Row[] = []
  private writing: Promise<void> = Promise.resolve()

  constructor(
    private deps: JobDeps,
    private tenantId: string,
    private turnId: string,
    private last: number,
    private live: TurnEvents,
  ) {}

  emit(e: TurnEvent): void {
    const id = ++this.last
    this.pending.push({ seq: id, event: e.event, data: e.data })
    if (this.pending.length === 1) this.writing = this.writing.then(() => this.store())
    try {
      this.live.emit({ ...e, id })
    } catch {
      // A client that went away: the events are stored all the same.
    }
  }

  async flush(): Promise<void> {
    await this.writing
  }

  private async store(): Promise<void> {
    const rows = this.pending
    this.pending = []
    try {
      await this.deps.sql`
        insert into public.assistant_turn_events (tenant_id, turn_id, seq, event, data)
        select ${this.tenantId}, ${this.turnId}, r.seq, r.event, r.data
        from jsonb_to_recordset(${JSON.stringify(rows)}::text::jsonb) as r(seq integer, event text, data jsonb)`
    } catch (err) {
      // The turn goes on; a client resuming it misses these events (logged, never silently).
      this.deps.logger.warn('assistant turn: events not stored', {
        turn_id: this.turnId,
        from: rows[0]?.seq,
        to: rows.at(-1)?.seq,
        error: String(err),
      })
    }
  }
}

interface Page {
  status: string
  rows: Row[]
  last: { seq: number; event: string } | null
}

async function readPage(
  db: Queryable,
  tenantId: string,
  conversationId: string | undefined,
  turnId: string,
  after: number,
): Promise<Page | null> {
  const [turn] = await db<{ status: string; conversation_id: string }[]>`
    select status, conversation_id from public.assistant_turns where id = ${turnId} and tenant_id = ${tenantId}`
  if (!turn || (conversationId && turn.conversation_id !== conversationId)) return null
  const rows = await db<Row[]>`
    select seq, event, data from public.assistant_turn_events
    where turn_id = ${turnId} and seq > ${after} order by seq limit ${PAGE}`
  const [last] = rows.length
    ? [null]
    : await db<{ seq: number; event: string }[]>`
        select seq, event from public.assistant_turn_events where turn_id = ${turnId} order by seq desc limit 1`
  return { status: turn.status, rows, last: last ?? null }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * The turn's events after `after`, as the caller (RLS: a turn the caller may not see is 404), as
 * they are stored, until `turn.ended`. A turn that is not running and whose stored events end
 * with `turn.ended` the client has seen gives nothing more; one whose events are gone (past their
 * retention) gives its result as `turn.ended`, without an id. Ends after FOLLOW_MS, or when
 * `stopped()` says the client went away.
 */
export async function* followTurn(
  ctx: ServiceContext,
  turnId: string,
  after: number,
  opts: { conversationId?: string; stopped?: () => boolean; followMs?: number } = {},
): AsyncGenerator<TurnEvent> {
  const deadline = Date.now() + (opts.followMs ?? FOLLOW_MS)
  let quietSince: number | null = null
  for (;;) {
    const page = await ctx.readAsTenant((q) =>
      readPage(q, ctx.caller.tenantId, opts.conversationId, turnId, after),
    )
    if (!page) throw notFound('Turn')
    for (const row of page.rows) {
      yield { id: row.seq, event: row.event as TurnEvent['event'], data: row.data }
      after = row.seq
      if (row.event === 'turn.ended') return
    }
    if (page.rows.length === PAGE) continue
    if (page.rows.length === 0 && page.status !== 'running') {
      if (page.last?.event === 'turn.ended') return
      quietSince ??= Date.now()
      if (!page.last || Date.now() - quietSince >= END_GRACE_MS) {
        yield { event: 'turn.ended', data: await turnResult(ctx, turnId) }
        return
      }
    } else quietSince = null
    if (Date.now() >= deadline || opts.stopped?.()) return
    await sleep(FOLLOW_POLL_MS)
  }
}

/** The number of the turn's last stored event (0: none yet), as the caller; 404 for a turn they may not see. */
export async function lastTurnEvent(
  ctx: ServiceContext,
  turnId: string,
  conversationId?: string,
): Promise<number> {
  const [row] = await ctx.readAsTenant(
    (q) => q<{ conversation_id: string; last: number }[]>`
      select t.conversation_id,
             coalesce((select max(seq) from public.assistant_turn_events e where e.turn_id = t.id), 0)::int as last
      from public.assistant_turns t where t.id = ${turnId} and t.tenant_id = ${ctx.caller.tenantId}`,
  )
  if (!row || (conversationId && row.conversation_id !== conversationId)) throw notFound('Turn')
  return row.last
}

/** Deletes the events of turns that ended more than EVENT_RETENTION_HOURS ago, a bounded batch a sweep. */
export async function deleteOldTurnEvents(deps: Pick<FunctionDeps, 'sql'>, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - EVENT_RETENTION_HOURS * 3_600_000)
  const deleted = await deps.sql`
    delete from public.assistant_turn_events e
    where (e.turn_id, e.seq) in (
      select e2.turn_id, e2.seq from public.assistant_turn_events e2
      join public.assistant_turns t on t.id = e2.turn_id
      where e2.created_at < ${cutoff} and t.status not in ('running', 'awaiting_approval')
      limit 10000)`
  return deleted.count
}
