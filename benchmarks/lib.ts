/**
 * Benchmark helpers. Every figure is reported next to a baseline measured in the same run,
 * as a ratio, so results compare across machines.
 */
import { readFileSync } from 'node:fs'
import type { Sql } from '@shared/infra/db.ts'

/**
 * CPU seconds the backends serving this database's clients used while `work` ran (PostgreSQL on
 * this machine): the pool's connections and the change feed's LISTEN, not autovacuum (an analyze
 * of freshly seeded tables landing in one side's round would be charged to that side). Per
 * backend: a connection opened meanwhile counts in full, one that closed meanwhile is lost (the
 * pool keeps its connections through a run).
 */
export async function backendCpuDuring<T>(
  sql: Sql,
  work: () => Promise<T>,
): Promise<{ result: T; seconds: number }> {
  const before = await backendCpu(sql)
  const result = await work()
  const after = await backendCpu(sql)
  let seconds = 0
  for (const [pid, used] of after) seconds += used - (before.get(pid) ?? 0)
  return { result, seconds }
}

async function backendCpu(sql: Sql): Promise<Map<number, number>> {
  const rows = await sql<{ pid: number }[]>`
    select pid from pg_stat_activity
    where datname = current_database() and backend_type = 'client backend' and pid <> pg_backend_pid()`
  return new Map(rows.map(({ pid }) => [pid, processCpuSeconds(pid)]))
}

/**
 * Rows this database has inserted, updated and deleted so far, as PostgreSQL counts them
 * (pg_stat_database): a check on the benchmark's own count of write statements. A backend reports
 * its counts when it has been idle 10 s at the latest, so this waits 11 s first.
 */
export async function rowsWrittenSettled(sql: Sql): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 11_000))
  const [row] = await sql<{ n: string }[]>`
    select (tup_inserted + tup_updated + tup_deleted)::text as n
    from pg_stat_database where datname = current_database()`
  return Number(row!.n)
}

/**
 * A process's CPU time so far: from /proc/<pid>/schedstat (nanoseconds on the CPU) where the
 * kernel has it, else utime + stime from /proc/<pid>/stat. The latter counts in ticks of 10 ms:
 * over a round of 1,000 reads at about 100 µs each, a tick per backend is an error of 10 µs a
 * read per backend, which made the backend-CPU ratios swing by a third between runs.
 */
function processCpuSeconds(pid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e9
  } catch {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
      return (Number(fields[11]) + Number(fields[12])) / 100 // utime, stime (fields 14 and 15)
    } catch {
      return 0 // the backend ended meanwhile
    }
  }
}

export interface Measurement {
  label: string
  count: number
  seconds: number
  perSecond: number
  p50ms: number
  p99ms: number
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

/**
 * Runs `op` with `concurrency` workers until `total` operations are done (after `warmup`
 * untimed ones) and returns throughput and latency percentiles.
 */
export async function measure(
  label: string,
  op: (i: number) => Promise<unknown>,
  opts: { total: number; concurrency?: number; warmup?: number },
): Promise<Measurement> {
  const concurrency = opts.concurrency ?? 8
  for (let i = 0; i < (opts.warmup ?? Math.min(50, opts.total)); i++) await op(i)
  const latencies: number[] = []
  let next = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < opts.total) {
        const i = next++
        const t0 = performance.now()
        await op(i)
        latencies.push(performance.now() - t0)
      }
    }),
  )
  const seconds = (performance.now() - started) / 1000
  latencies.sort((a, b) => a - b)
  return {
    label,
    count: opts.total,
    seconds,
    perSecond: opts.total / seconds,
    p50ms: percentile(latencies, 50),
    p99ms: percentile(latencies, 99),
  }
}

export function latencyStats(samplesMs: number[]): { p50ms: number; p99ms: number } {
  const sorted = [...samplesMs].sort((a, b) => a - b)
  return { p50ms: percentile(sorted, 50), p99ms: percentile(sorted, 99) }
}

/**
 * One figure from several rounds of the same measurement: throughput over all of them, and the
 * worse round's percentiles (never flatter).
 */
export function combineRounds(label: string, runs: Measurement[]): Measurement {
  const count = runs.reduce((n, r) => n + r.count, 0)
  const seconds = runs.reduce((n, r) => n + r.seconds, 0)
  return {
    label,
    count,
    seconds,
    perSecond: count / seconds,
    p50ms: Math.max(...runs.map((r) => r.p50ms)),
    p99ms: Math.max(...runs.map((r) => r.p99ms)),
  }
}

/**
 * Measures a subject and its baseline in alternating rounds (A B B A ...), so that drift over
 * the run (other load on the machine, caches, table growth) falls on both alike.
 */
export async function measurePair(
  subject: { label: string; op: (i: number) => Promise<unknown> },
  baseline: { label: string; op: (i: number) => Promise<unknown> },
  opts: { total: number; concurrency: number; rounds?: number },
): Promise<{ subject: Measurement; baseline: Measurement }> {
  const rounds = opts.rounds ?? 4
  const each = { total: Math.ceil(opts.total / rounds), concurrency: opts.concurrency }
  const a: Measurement[] = []
  const b: Measurement[] = []
  for (let round = 0; round < rounds; round++) {
    if (round % 2 === 0) {
      a.push(await measure(subject.label, subject.op, each))
      b.push(await measure(baseline.label, baseline.op, each))
    } else {
      b.push(await measure(baseline.label, baseline.op, each))
      a.push(await measure(subject.label, subject.op, each))
    }
  }
  return { subject: combineRounds(subject.label, a), baseline: combineRounds(baseline.label, b) }
}

const fmt = (n: number, digits = 1) => n.toFixed(digits)

export function printMeasurement(m: Measurement): void {
  console.log(
    `  ${m.label.padEnd(48)} ${fmt(m.perSecond).padStart(9)} ops/s   p50 ${fmt(m.p50ms, 2).padStart(7)} ms   p99 ${fmt(m.p99ms, 2).padStart(7)} ms`,
  )
}

/** Prints subject and baseline and the subject/baseline throughput ratio, with an optional goal. */
export function printComparison(
  title: string,
  subject: Measurement,
  baseline: Measurement,
  goalRatio?: number,
): number {
  const ratio = subject.perSecond / baseline.perSecond
  console.log(`\n${title}`)
  printMeasurement(subject)
  printMeasurement(baseline)
  const goal =
    goalRatio === undefined ? '' : `   (goal >= ${goalRatio}: ${ratio >= goalRatio ? 'met' : 'NOT met'})`
  console.log(`  ratio ${fmt(ratio, 2)}${goal}`)
  return ratio
}

/** What the database did for a side of a comparison, from pg_stat_statements. */
export interface StatementTotals {
  /** Statements clients sent (top level). */
  statements: number
  /** Times any statement was planned, nested ones (inside functions) included. */
  plans: number
  /** Planning and execution time of the statements clients sent, in seconds. */
  dbSeconds: number
}

/**
 * pg_stat_statements' totals for this database while `work` ran, when the server loads it with
 * track = all and track_planning = on (CI's server does: .ci/run); null otherwise (PGlite, or a
 * server without it). Counts, unlike timings, do not move with the machine's load.
 */
export async function statementsDuring<T>(
  sql: Sql,
  work: () => Promise<T>,
): Promise<{ result: T; totals: StatementTotals | null }> {
  if (!(await statementsAvailable(sql))) return { result: await work(), totals: null }
  const before = await statementTotals(sql)
  const result = await work()
  const after = await statementTotals(sql)
  return {
    result,
    totals: {
      statements: after.statements - before.statements,
      plans: after.plans - before.plans,
      dbSeconds: after.dbSeconds - before.dbSeconds,
    },
  }
}

const availability = new WeakMap<Sql, Promise<boolean>>()
function statementsAvailable(sql: Sql): Promise<boolean> {
  let known = availability.get(sql)
  if (!known) {
    known = (async () => {
      try {
        const [row] = await sql<{ planning: string | null; track: string | null }[]>`
          select current_setting('pg_stat_statements.track_planning', true) as planning,
                 current_setting('pg_stat_statements.track', true) as track`
        if (row?.planning !== 'on' || row.track !== 'all') return false
        await sql`create extension if not exists pg_stat_statements with schema public`
        return true
      } catch {
        return false
      }
    })()
    availability.set(sql, known)
  }
  return known
}

async function statementTotals(sql: Sql): Promise<StatementTotals> {
  const [row] = await sql<{ statements: string; plans: string; ms: number }[]>`
    select coalesce(sum(calls) filter (where toplevel), 0)::text as statements,
           coalesce(sum(plans), 0)::text as plans,
           coalesce(sum(total_plan_time + total_exec_time) filter (where toplevel), 0)::float8 as ms
    from public.pg_stat_statements
    where dbid = (select oid from pg_database where datname = current_database())
      and query not like '%pg_stat_statements%'`
  return { statements: Number(row!.statements), plans: Number(row!.plans), dbSeconds: row!.ms / 1000 }
}

/** Adds b to a (either may be null: no figures). */
export function addTotals(a: StatementTotals | null, b: StatementTotals | null): StatementTotals | null {
  if (!a || !b) return a ?? b
  return {
    statements: a.statements + b.statements,
    plans: a.plans + b.plans,
    dbSeconds: a.dbSeconds + b.dbSeconds,
  }
}

/** Statements, plans and database time per read, keyed against bare. */
export function printStatementTotals(
  subject: StatementTotals | null,
  subjectReads: number,
  baseline: StatementTotals | null,
  baselineReads: number,
): void {
  if (!subject || !baseline) return
  const per = (t: StatementTotals, n: number) =>
    `${(t.statements / n).toFixed(2)} statements, ${(t.plans / n).toFixed(2)} plans, ${((t.dbSeconds / n) * 1e6).toFixed(0)} µs in the database`
  const ratio = subject.dbSeconds / subjectReads / (baseline.dbSeconds / baselineReads)
  console.log(
    `  per read (pg_stat_statements): keyed ${per(subject, subjectReads)}; bare ${per(baseline, baselineReads)}; database time ratio ${ratio.toFixed(2)}`,
  )
}

/**
 * measurePair, with each side's backend CPU (PostgreSQL on this machine) and pg_stat_statements
 * totals (when loaded): printed per read beside the ratio.
 */
export async function measurePairCounted(
  sql: Sql,
  subject: { label: string; op: (i: number) => Promise<unknown> },
  baseline: { label: string; op: (i: number) => Promise<unknown> },
  opts: { total: number; concurrency: number; rounds?: number; onServer: boolean },
): Promise<{ subject: Measurement; baseline: Measurement; print: () => void }> {
  const rounds = opts.rounds ?? 4
  const each = { total: Math.ceil(opts.total / rounds), concurrency: opts.concurrency }
  const runs = { subject: [] as Measurement[], baseline: [] as Measurement[] }
  const cpu = { subject: 0, baseline: 0 }
  const counts: Record<'subject' | 'baseline', StatementTotals | null> = { subject: null, baseline: null }
  const reads = { subject: 0, baseline: 0 }
  const timed = async (side: 'subject' | 'baseline') => {
    const it = side === 'subject' ? subject : baseline
    const run = () => measure(it.label, it.op, each)
    const {
      result: { result: m, seconds },
      totals,
    } = await statementsDuring(sql, async () =>
      opts.onServer ? await backendCpuDuring(sql, run) : { result: await run(), seconds: 0 },
    )
    cpu[side] += seconds
    counts[side] = addTotals(counts[side], totals)
    reads[side] += m.count + Math.min(50, m.count) // the warm-up's reads count too
    runs[side].push(m)
  }
  for (let round = 0; round < rounds; round++) {
    if (round % 2 === 0) {
      await timed('subject')
      await timed('baseline')
    } else {
      await timed('baseline')
      await timed('subject')
    }
  }
  return {
    subject: combineRounds(subject.label, runs.subject),
    baseline: combineRounds(baseline.label, runs.baseline),
    print: () => {
      if (opts.onServer) {
        const k = (cpu.subject / reads.subject) * 1e6
        const b = (cpu.baseline / reads.baseline) * 1e6
        console.log(
          `  backend CPU per read: keyed ${k.toFixed(0)} µs, bare ${b.toFixed(0)} µs, ratio ${(k / b).toFixed(2)} (goal <= 1.25)`,
        )
      }
      printStatementTotals(counts.subject, reads.subject, counts.baseline, reads.baseline)
    },
  }
}
