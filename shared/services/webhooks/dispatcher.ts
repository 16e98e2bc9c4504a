/**
 * The delivery engine. Deliveries are created by the outbox trigger (see the migration); this
 * module claims due ones, sends them and records the outcome.
 *
 * Exactly-once attempts across dispatchers: a claim is one statement that picks due rows with
 * FOR UPDATE SKIP LOCKED and stamps them with a lease (lease_id, locked_until), then commits.
 * The HTTP POST happens outside any transaction (the embedded database serialises them, and a
 * transaction held open for a 10 s time-out would stall every writer). The result is recorded
 * only while the lease is still ours. A dispatcher that dies mid-delivery leaves its lease to
 * expire, after which another dispatcher sends the same attempt again (at least once).
 *
 * In-flight attempts are independent, so one slow receiver cannot hold up others: each claimed attempt is sent and
 * recorded on its own, and a free slot is refilled by a new claim at once, so a receiver that
 * hangs until the time-out holds only its own attempts. Concurrency is capped in total per
 * process (WEBHOOK_MAX_IN_FLIGHT) and per endpoint, i.e. per subscription
 * (WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT), counted from the live leases in the database so the cap
 * holds across dispatchers (two claims racing may overshoot it by one claim's worth).
 * Outcomes are recorded in groups: while one record transaction runs, the next ones queue.
 */

import { newLease } from '@shared/infra/claim-lease.ts'
import { retryWhileUnavailable, type Tx } from '@shared/infra/db.ts'
import type { FunctionDeps } from '@shared/infra/deps.ts'
import { tenantAdminEmails } from '@shared/infra/notifier.ts'
import { OutboundBlockedError, OutboundError } from '@shared/infra/outbound.ts'
import { SECRET_PURPOSE } from './rows.ts'
import { signBody, signStandardWebhook, signTimestampedBody } from './signature.ts'

/** Delays before attempts 2..5 (the spec's retry policy); attempt 1 is immediate. */
const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 60 * 60_000] as const
const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1
const ATTEMPT_TIMEOUT_MS = 10_000
/** Longer than an attempt can take (10 s) plus recording it. */
const LEASE_MS = 60_000
/** How long an outcome's record is retried while the database is unavailable: inside the lease. */
const RECORD_RETRY_MS = LEASE_MS - ATTEMPT_TIMEOUT_MS - 5_000
/** Receivers should answer briefly; a longer body fails the attempt instead of filling memory. */
const MAX_RESPONSE_BYTES = 64 * 1024
/** The receiver's answer kept in the delivery log: its first 4 KB (docs/webhooks.md). */
export const RESPONSE_EXCERPT_BYTES = 4096
const ERROR_CHARS = 500
/** Most deliveries one claim statement takes. */
const CLAIM_SIZE = 50
/** Most outcomes one record transaction writes. */
const RECORD_SIZE = 200
/** Stay inside pg_cron's 60 s pg_net time-out; the next run picks up whatever is left. */
const RUN_BUDGET_MS = 45_000
const USER_AGENT = 'TenantPlatform-Webhooks/1.0'

interface ClaimedDelivery {
  id: string
  tenant_id: string
  subscription_id: string
  event_id: string
  event_type: string
  event_created_at: Date
  data: Record<string, unknown>
  is_test: boolean
  attempts: number
  schedule_base: number
  url: string
  secret_ciphertext: string
  previous_secret_ciphertext: string | null
  previous_secret_expires_at: Date | null
}

interface AttemptOutcome {
  id: string
  attempt: number
  success: boolean
  status_code: number | null
  duration_ms: number
  response_excerpt: string | null
  response_truncated: boolean
  request_headers: Record<string, string> | null
  error: string | null
  attempted_at: string
  next_attempt_at: string | null
  status: 'pending' | 'succeeded' | 'failed'
  /** The subscription is to be paused (the last attempt of its schedule failed). */
  exhausted: boolean
  /** The claim's lease: the outcome is recorded only while it still holds. */
  lease_id: string
}

export interface DispatchResult {
  claimed: number
  succeeded: number
  failed: number
  paused: number
}

/** The payload text. Built from stored values, so every attempt of an event sends the same bytes. */
export function payloadText(
  d: Pick<ClaimedDelivery, 'event_id' | 'event_type' | 'event_created_at' | 'data'>,
): string {
  return JSON.stringify({
    id: d.event_id,
    type: d.event_type,
    created_at: d.event_created_at.toISOString(),
    data: d.data,
  })
}

/**
 * Claims up to `limit` due deliveries of active subscriptions (test events go out even when
 * paused), at most `perEndpoint` in flight per subscription counting live leases anywhere.
 * The oldest due first; a subscription at its cap is skipped, not waited for.
 */
async function claimDueDeliveries(
  deps: Pick<FunctionDeps, 'sql'>,
  now: Date,
  limit: number,
  perEndpoint = Number.MAX_SAFE_INTEGER,
): Promise<{ leaseId: string; deliveries: ClaimedDelivery[] }> {
  // The lease is shared/infra/claim-lease.ts's; the claim statement is this one's own, because it
  // ranks due rows per subscription against the live leases (the per-endpoint cap), which the
  // generic claim does not (docs/adr/0006-job-engine.md).
  const { token: leaseId, until: lockedUntil } = newLease(
    'public.webhook_deliveries',
    { token: 'lease_id', until: 'locked_until' },
    now,
    LEASE_MS,
  )
  const deliveries = await deps.sql<ClaimedDelivery[]>`
    with busy as (
      select subscription_id, count(*)::int as n from public.webhook_deliveries
      where status = 'pending' and lease_id is not null and locked_until > ${now}
      group by subscription_id
    ), ranked as (
      select d2.id, d2.subscription_id, d2.next_attempt_at,
             row_number() over (partition by d2.subscription_id order by d2.next_attempt_at, d2.id) as rn
      from public.webhook_deliveries d2
      join public.webhook_subscriptions s2 on s2.id = d2.subscription_id
      where d2.status = 'pending' and d2.next_attempt_at <= ${now}
        and (d2.locked_until is null or d2.locked_until <= ${now})
        and (s2.status = 'active' or d2.is_test)
    ), picked as (
      select r.id, r.next_attempt_at from ranked r left join busy b on b.subscription_id = r.subscription_id
      where r.rn <= ${perEndpoint} - coalesce(b.n, 0)
      order by r.next_attempt_at
      limit ${limit}
    ), due as (
      -- Locked and checked again: another dispatcher may have claimed a row since the scan.
      select d3.id from public.webhook_deliveries d3
      where d3.id in (select id from picked) and d3.status = 'pending'
        and (d3.locked_until is null or d3.locked_until <= ${now})
      for update skip locked
    )
    update public.webhook_deliveries d
    set lease_id = ${leaseId}, locked_until = ${lockedUntil}
    from due, public.webhook_subscriptions s
    where d.id = due.id and s.id = d.subscription_id
    returning d.id, d.tenant_id, d.subscription_id, d.event_id, d.event_type, d.event_created_at, d.data, d.is_test,
              d.attempts, d.schedule_base, s.url, s.secret_ciphertext, s.previous_secret_ciphertext, s.previous_secret_expires_at`
  return { leaseId, deliveries }
}

const hostOf = (url: string) => {
  try {
    return new URL(url).host
  } catch {
    return '(invalid url)'
  }
}

function describeFailure(err: unknown): string {
  if (err instanceof OutboundBlockedError) return `blocked by the outbound policy: ${err.reason}`
  if (err instanceof OutboundError) {
    if (err.kind === 'timeout') return `timed out after ${ATTEMPT_TIMEOUT_MS / 1000} s`
    if (err.kind === 'too_large') return `response larger than ${MAX_RESPONSE_BYTES} bytes`
    return `connection failed: ${err.message}`
  }
  return `failed: ${String(err)}`
}

/** Header names whose values are secrets or proofs of one: the delivery log shows them masked. */
const SECRET_HEADER = /signature|secret|token|authorization|api[-_]?key|password|cookie/i
export const MASKED = '•••••• (masked)'

/** The headers as the delivery log shows them: signatures and secret-looking values masked. */
function maskHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name, SECRET_HEADER.test(name) ? MASKED : value]),
  )
}

/** The text's first `maxBytes` bytes of UTF-8, cut on a character boundary. */
function boundedText(text: string, maxBytes: number): { text: string; truncated: boolean } {
  const bytes = new TextEncoder().encode(text)
  if (bytes.length <= maxBytes) return { text, truncated: false }
  let end = maxBytes
  // Back up over continuation bytes (10xxxxxx) so no character is split.
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--
  return { text: new TextDecoder().decode(bytes.subarray(0, end)), truncated: true }
}

type SecretCache = Map<string, Promise<string>>

function secretOf(
  deps: FunctionDeps,
  cache: SecretCache,
  tenantId: string,
  ciphertext: string,
): Promise<string> {
  let secret = cache.get(ciphertext)
  if (!secret) {
    secret = deps.vault.decrypt(tenantId, ciphertext, SECRET_PURPOSE)
    cache.set(ciphertext, secret)
  }
  return secret
}

/** Sends one attempt and decides what happens next. Never throws. */
async function sendAttempt(
  deps: FunctionDeps,
  d: ClaimedDelivery,
  leaseId: string,
  cache: SecretCache,
): Promise<AttemptOutcome> {
  const attempt = d.attempts + 1
  const started = deps.clock.now()
  const t0 = performance.now()
  let statusCode: number | null = null
  let excerpt: string | null = null
  let truncated = false
  let sentHeaders: Record<string, string> | null = null
  let error: string | null = null
  try {
    const current = await secretOf(deps, cache, d.tenant_id, d.secret_ciphertext)
    const inOverlap =
      d.previous_secret_ciphertext && d.previous_secret_expires_at && d.previous_secret_expires_at > started
    const previous = inOverlap
      ? await secretOf(deps, cache, d.tenant_id, d.previous_secret_ciphertext!)
      : null
    const body = payloadText(d)
    const timestamp = Math.floor(started.getTime() / 1000)
    // Every active secret signs both timestamped schemes, the current one first.
    const activeSecrets = previous ? [current, previous] : [current]
    const timestamped = await Promise.all(activeSecrets.map((s) => signTimestampedBody(s, timestamp, body)))
    const standard = await Promise.all(
      activeSecrets.map((s) => signStandardWebhook(s, d.event_id, timestamp, body)),
    )
    const headers = {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      // During a rotation overlap the previous secret keeps this header, so a receiver that
      // checks only x-service-signature with its old secret keeps working until it switches.
      'x-service-signature': await signBody(previous ?? current, body),
      'x-service-timestamp': String(timestamp),
      'x-service-timestamp-signature': timestamped.join(','),
      'x-service-event-id': d.event_id,
      'x-service-event-type': d.event_type,
      'x-service-delivery-id': d.id,
      'x-service-delivery-attempt': String(attempt),
      'webhook-id': d.event_id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': standard.join(' '),
    }
    sentHeaders = maskHeaders(headers)
    const res = await deps.fetch(d.url, {
      method: 'POST',
      // 3xx is a failure, not something to follow: the subscriber must register the final URL.
      redirect: 'manual',
      timeoutMs: ATTEMPT_TIMEOUT_MS,
      maxResponseBytes: MAX_RESPONSE_BYTES,
      headers,
      body,
    })
    statusCode = res.status
    ;({ text: excerpt, truncated } = boundedText(await res.text(), RESPONSE_EXCERPT_BYTES))
    if (statusCode < 200 || statusCode > 299) error = `HTTP ${statusCode}`
  } catch (err) {
    error = describeFailure(err).slice(0, ERROR_CHARS)
  }
  const finished = deps.clock.now()
  const success = error === null
  const attemptsInRun = attempt - d.schedule_base
  const exhausted = !success && !d.is_test && attemptsInRun >= MAX_ATTEMPTS
  const retryAt =
    success || d.is_test || exhausted
      ? null
      : new Date(finished.getTime() + RETRY_DELAYS_MS[Math.max(0, attemptsInRun - 1)]!)
  // One line per failed attempt (the receiver's host only: a URL's path or query may hold a token).
  if (!success)
    deps.logger.warn(retryAt ? 'webhook attempt failed; retrying' : 'webhook delivery failed', {
      tenant_id: d.tenant_id,
      subscription_id: d.subscription_id,
      delivery_id: d.id,
      event_type: d.event_type,
      attempt,
      host: hostOf(d.url),
      reason: error,
      ...(retryAt && { next_attempt_at: retryAt.toISOString() }),
      ...(exhausted && { subscription: 'paused (its retries are used up)' }),
    })
  return {
    id: d.id,
    attempt,
    success,
    status_code: statusCode,
    duration_ms: Math.round(performance.now() - t0),
    response_excerpt: excerpt || null,
    response_truncated: truncated,
    request_headers: sentHeaders,
    error,
    attempted_at: started.toISOString(),
    next_attempt_at: retryAt?.toISOString() ?? null,
    status: success ? 'succeeded' : retryAt ? 'pending' : 'failed',
    exhausted,
    lease_id: leaseId,
  }
}

/**
 * Records outcomes (only where our lease still holds), pauses subscriptions whose schedule ran
 * out and queues one notification per pause, all in one transaction.
 */
async function recordOutcomes(deps: FunctionDeps, outcomes: AttemptOutcome[]): Promise<string[]> {
  return deps.sql.begin(async (tx: Tx) => {
    const recorded = await tx<{ delivery_id: string; subscription_id: string }[]>`
      with r as (
        select * from jsonb_to_recordset(${tx.json(outcomes as never)}) as r(
          id uuid, attempt int, success boolean, status_code int, duration_ms int, response_excerpt text,
          response_truncated boolean, request_headers jsonb, error text, attempted_at timestamptz, next_attempt_at timestamptz, status text, exhausted boolean,
          lease_id uuid)
      ), updated as (
        update public.webhook_deliveries d
        set attempts = r.attempt, status = r.status, next_attempt_at = r.next_attempt_at, last_attempt_at = r.attempted_at,
            lease_id = null, locked_until = null, updated_at = r.attempted_at
        from r
        where d.id = r.id and d.lease_id = r.lease_id and d.attempts = r.attempt - 1
        returning d.id, d.tenant_id, d.subscription_id, d.event_id, d.event_type
      )
      insert into public.webhook_delivery_attempts
        (tenant_id, subscription_id, delivery_id, event_id, event_type, attempt, success, status_code, duration_ms,
         response_excerpt, response_truncated, request_headers, error, attempted_at, next_attempt_at)
      select u.tenant_id, u.subscription_id, u.id, u.event_id, u.event_type, r.attempt, r.success, r.status_code,
             r.duration_ms, r.response_excerpt, r.response_truncated, r.request_headers, r.error, r.attempted_at,
             r.next_attempt_at
      from updated u join r on r.id = u.id
      on conflict (delivery_id, attempt) do nothing
      returning delivery_id, subscription_id`
    const exhaustedIds = new Set(outcomes.filter((o) => o.exhausted).map((o) => o.id))
    const toPause = [
      ...new Set(recorded.filter((r) => exhaustedIds.has(r.delivery_id)).map((r) => r.subscription_id)),
    ]
    if (toPause.length === 0) return []
    const now = deps.clock.now()
    // Only the transition active -> paused notifies, so concurrent exhaustions notify once.
    const paused = await tx<{ id: string; tenant_id: string; url: string; pause_count: number }[]>`
      update public.webhook_subscriptions
      set status = 'paused', paused_at = ${now}, paused_reason = 'failures', pause_count = pause_count + 1, updated_at = ${now}
      where id = any (${toPause}::uuid[]) and status = 'active'
      returning id, tenant_id, url, pause_count`
    for (const sub of paused) {
      for (const recipient of await tenantAdminEmails(tx, sub.tenant_id)) {
        await deps.notifier.enqueue(tx, {
          tenantId: sub.tenant_id,
          kind: 'webhook.paused',
          recipient,
          subject: 'A webhook subscription was paused after 5 failed attempts',
          body:
            `The webhook subscription ${sub.id} (${sub.url}) failed ${MAX_ATTEMPTS} delivery attempts in a row and was paused. ` +
            'Events keep being recorded and are delivered when you resume it (POST /api/webhooks/:id/resume). ' +
            'See GET /api/webhooks/:id/deliveries for the errors.',
          dedupeKey: `webhook.paused:${sub.id}:${sub.pause_count}:${recipient}`,
        })
      }
    }
    return paused.map((p) => p.id)
  }) as Promise<string[]>
}

/** What one finished attempt reports to the runs waiting on it. */
interface AttemptDone {
  success: boolean
  /** The subscription this attempt's record paused, if it did. */
  paused: string | null
}

/** Records outcomes in groups: one transaction at a time, the ones arriving meanwhile go next. */
function groupRecorder(
  deps: FunctionDeps,
): (o: AttemptOutcome, subscriptionId: string) => Promise<AttemptDone> {
  type Entry = {
    o: AttemptOutcome
    sub: string
    resolve: (d: AttemptDone) => void
    reject: (e: unknown) => void
  }
  let queue: Entry[] = []
  let flushing = false
  const flush = async () => {
    flushing = true
    while (queue.length > 0) {
      const batch = queue.slice(0, RECORD_SIZE)
      queue = queue.slice(RECORD_SIZE)
      try {
        // Sent already: a database restart must not lose the outcome (the lease would run out
        // and the receiver get the event again), so the record waits for the database, while
        // the lease holds.
        const outcomes = batch.map((e) => e.o)
        const paused = new Set(
          await retryWhileUnavailable(() => recordOutcomes(deps, outcomes), RECORD_RETRY_MS),
        )
        const reported = new Set<string>()
        for (const e of batch) {
          const pausedNow = paused.has(e.sub) && !reported.has(e.sub)
          if (pausedNow) reported.add(e.sub)
          e.resolve({ success: e.o.success, paused: pausedNow ? e.sub : null })
        }
      } catch (err) {
        for (const e of batch) e.reject(err)
      }
    }
    flushing = false
  }
  return (o, sub) =>
    new Promise<AttemptDone>((resolve, reject) => {
      queue.push({ o, sub, resolve, reject })
      if (!flushing) void flush()
    })
}

/** One call of the dispatch job: what it waits for and what it reports. */
interface Run {
  deadline: number
  attempts: Promise<AttemptDone>[]
}

export interface Dispatcher {
  /**
   * Sends every due delivery: claims into free slots until nothing claimable is due, then waits
   * for the attempts claimed while it ran (refilling slots as they free), until nothing is left
   * or the time budget is spent. Concurrent runs share the slots and never queue behind each
   * other, so a hanging receiver delays only its own attempts.
   */
  run(opts?: { budgetMs?: number }): Promise<DispatchResult>
}

/** The dispatcher of one process (one per function app: its slots must outlive a request). */
export function createDispatcher(deps: FunctionDeps): Dispatcher {
  const maxInFlight = deps.config.WEBHOOK_MAX_IN_FLIGHT
  const perEndpoint = deps.config.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT
  const cache: SecretCache = new Map()
  const record = groupRecorder(deps)
  const runs = new Set<Run>()
  let inFlight = 0
  let claiming: Promise<void> | undefined
  let claimAgain = false

  const launch = (d: ClaimedDelivery, leaseId: string) => {
    inFlight++
    const done = sendAttempt(deps, d, leaseId, cache)
      .then((o) => record(o, d.subscription_id))
      .finally(() => {
        inFlight--
        // A freed slot is refilled at once while some run still wants work.
        if (liveRuns())
          void fill().catch((err) => deps.logger.warn('webhook claim failed', { error: String(err) }))
      })
    done.catch(() => {}) // reported to the runs that wait on it
    for (const r of runs) r.attempts.push(done)
  }

  const liveRuns = () => [...runs].some((r) => performance.now() < r.deadline)

  // One claim statement at a time per process; a request for more while one runs claims again after it.
  const fill = (): Promise<void> => {
    if (claiming) {
      claimAgain = true
      return claiming
    }
    claiming = (async () => {
      do {
        claimAgain = false
        while (inFlight < maxInFlight) {
          const want = Math.min(CLAIM_SIZE, maxInFlight - inFlight)
          const { leaseId, deliveries } = await claimDueDeliveries(deps, deps.clock.now(), want, perEndpoint)
          for (const d of deliveries) launch(d, leaseId)
          if (deliveries.length < want) break
        }
      } while (claimAgain && inFlight < maxInFlight)
    })().finally(() => {
      claiming = undefined
    })
    return claiming
  }

  return {
    async run(opts = {}) {
      const run: Run = { deadline: performance.now() + (opts.budgetMs ?? RUN_BUDGET_MS), attempts: [] }
      runs.add(run)
      try {
        await fill()
        let seen = 0
        // Wait for this run's attempts; each one's slot is refilled (more attempts for this run)
        // until the budget is spent. Then it waits only for what it already has.
        while (seen < run.attempts.length) {
          seen = run.attempts.length
          await Promise.allSettled(run.attempts)
          if (performance.now() < run.deadline) await fill()
        }
      } finally {
        runs.delete(run)
      }
      const result: DispatchResult = { claimed: run.attempts.length, succeeded: 0, failed: 0, paused: 0 }
      for (const settled of await Promise.allSettled(run.attempts)) {
        if (settled.status === 'rejected') throw settled.reason
        settled.value.success ? result.succeeded++ : result.failed++
        if (settled.value.paused) result.paused++
      }
      return result
    },
  }
}

/** One run of a dispatcher of its own (a process that dispatches once, e.g. a test's). */
export function dispatchDue(deps: FunctionDeps, opts: { budgetMs?: number } = {}): Promise<DispatchResult> {
  return createDispatcher(deps).run(opts)
}
