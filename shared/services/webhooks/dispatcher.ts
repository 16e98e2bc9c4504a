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
 */
import type { Tx } from '../../infra/db.ts'
import type { FunctionDeps } from '../../infra/deps.ts'
import { tenantAdminEmails } from '../../infra/notifier.ts'
import { OutboundBlockedError, OutboundError } from '../../infra/outbound.ts'
import { SECRET_PURPOSE } from './rows.ts'
import { signBody, signTimestampedBody } from './signature.ts'

/** Delays before attempts 2..5 (the spec's retry policy); attempt 1 is immediate. */
export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 60 * 60_000] as const
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1
export const ATTEMPT_TIMEOUT_MS = 10_000
/** Longer than a whole batch can take (all its POSTs run in parallel, each at most 10 s). */
export const LEASE_MS = 60_000
/** Receivers should answer briefly; a longer body fails the attempt instead of filling memory. */
export const MAX_RESPONSE_BYTES = 64 * 1024
const EXCERPT_CHARS = 1024
const ERROR_CHARS = 500
const BATCH_SIZE = 25
const WORKERS = 4
/** Stay inside pg_cron's 60 s pg_net time-out; the next run picks up whatever is left. */
const RUN_BUDGET_MS = 45_000
export const USER_AGENT = 'TenantPlatform-Webhooks/1.0'

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
  error: string | null
  attempted_at: string
  next_attempt_at: string | null
  status: 'pending' | 'succeeded' | 'failed'
  /** The subscription is to be paused (the last attempt of its schedule failed). */
  exhausted: boolean
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

/** Claims up to `limit` due deliveries of active subscriptions (test events go out even when paused). */
export async function claimDueDeliveries(
  deps: Pick<FunctionDeps, 'sql'>,
  now: Date,
  limit: number,
): Promise<{ leaseId: string; deliveries: ClaimedDelivery[] }> {
  const leaseId = crypto.randomUUID()
  const lockedUntil = new Date(now.getTime() + LEASE_MS)
  const deliveries = await deps.sql<ClaimedDelivery[]>`
    update public.webhook_deliveries d
    set lease_id = ${leaseId}, locked_until = ${lockedUntil}
    from (
      select d2.id from public.webhook_deliveries d2
      join public.webhook_subscriptions s2 on s2.id = d2.subscription_id
      where d2.status = 'pending' and d2.next_attempt_at <= ${now}
        and (d2.locked_until is null or d2.locked_until <= ${now})
        and (s2.status = 'active' or d2.is_test)
      order by d2.next_attempt_at
      limit ${limit}
      for update of d2 skip locked
    ) due, public.webhook_subscriptions s
    where d.id = due.id and s.id = d.subscription_id
    returning d.id, d.tenant_id, d.subscription_id, d.event_id, d.event_type, d.event_created_at, d.data, d.is_test,
              d.attempts, d.schedule_base, s.url, s.secret_ciphertext, s.previous_secret_ciphertext, s.previous_secret_expires_at`
  return { leaseId, deliveries }
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
  cache: SecretCache,
): Promise<AttemptOutcome> {
  const attempt = d.attempts + 1
  const started = deps.clock.now()
  const t0 = performance.now()
  let statusCode: number | null = null
  let excerpt: string | null = null
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
    const timestamped = [await signTimestampedBody(current, timestamp, body)]
    if (previous) timestamped.push(await signTimestampedBody(previous, timestamp, body))
    const res = await deps.fetch(d.url, {
      method: 'POST',
      // 3xx is a failure, not something to follow: the subscriber must register the final URL.
      redirect: 'manual',
      timeoutMs: ATTEMPT_TIMEOUT_MS,
      maxResponseBytes: MAX_RESPONSE_BYTES,
      headers: {
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
      },
      body,
    })
    statusCode = res.status
    excerpt = (await res.text()).slice(0, EXCERPT_CHARS)
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
  return {
    id: d.id,
    attempt,
    success,
    status_code: statusCode,
    duration_ms: Math.round(performance.now() - t0),
    response_excerpt: excerpt || null,
    error,
    attempted_at: started.toISOString(),
    next_attempt_at: retryAt?.toISOString() ?? null,
    status: success ? 'succeeded' : retryAt ? 'pending' : 'failed',
    exhausted,
  }
}

/**
 * Records outcomes (only where our lease still holds), pauses subscriptions whose schedule ran
 * out and queues one notification per pause, all in one transaction.
 */
async function recordOutcomes(
  deps: FunctionDeps,
  leaseId: string,
  outcomes: AttemptOutcome[],
): Promise<number> {
  return deps.sql.begin(async (tx: Tx) => {
    const recorded = await tx<{ delivery_id: string; subscription_id: string }[]>`
      with r as (
        select * from jsonb_to_recordset(${tx.json(outcomes as never)}) as r(
          id uuid, attempt int, success boolean, status_code int, duration_ms int, response_excerpt text,
          error text, attempted_at timestamptz, next_attempt_at timestamptz, status text, exhausted boolean)
      ), updated as (
        update public.webhook_deliveries d
        set attempts = r.attempt, status = r.status, next_attempt_at = r.next_attempt_at, last_attempt_at = r.attempted_at,
            lease_id = null, locked_until = null, updated_at = r.attempted_at
        from r
        where d.id = r.id and d.lease_id = ${leaseId} and d.attempts = r.attempt - 1
        returning d.id, d.tenant_id, d.subscription_id, d.event_id, d.event_type
      )
      insert into public.webhook_delivery_attempts
        (tenant_id, subscription_id, delivery_id, event_id, event_type, attempt, success, status_code, duration_ms,
         response_excerpt, error, attempted_at, next_attempt_at)
      select u.tenant_id, u.subscription_id, u.id, u.event_id, u.event_type, r.attempt, r.success, r.status_code,
             r.duration_ms, r.response_excerpt, r.error, r.attempted_at, r.next_attempt_at
      from updated u join r on r.id = u.id
      on conflict (delivery_id, attempt) do nothing
      returning delivery_id, subscription_id`
    const exhaustedIds = new Set(outcomes.filter((o) => o.exhausted).map((o) => o.id))
    const toPause = [
      ...new Set(recorded.filter((r) => exhaustedIds.has(r.delivery_id)).map((r) => r.subscription_id)),
    ]
    if (toPause.length === 0) return 0
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
    return paused.length
  }) as Promise<number>
}

/**
 * Sends every due delivery: a few workers, each claiming a batch, sending it in parallel and
 * recording it, until nothing is due or the run's time budget is spent.
 */
export async function dispatchDue(
  deps: FunctionDeps,
  opts: { budgetMs?: number } = {},
): Promise<DispatchResult> {
  const result: DispatchResult = { claimed: 0, succeeded: 0, failed: 0, paused: 0 }
  const deadline = performance.now() + (opts.budgetMs ?? RUN_BUDGET_MS)
  const cache: SecretCache = new Map()
  const worker = async () => {
    while (performance.now() < deadline) {
      const { leaseId, deliveries } = await claimDueDeliveries(deps, deps.clock.now(), BATCH_SIZE)
      if (deliveries.length === 0) return
      result.claimed += deliveries.length
      const outcomes = await Promise.all(deliveries.map((d) => sendAttempt(deps, d, cache)))
      for (const o of outcomes) o.success ? result.succeeded++ : result.failed++
      result.paused += await recordOutcomes(deps, leaseId, outcomes)
    }
  }
  await Promise.all(Array.from({ length: WORKERS }, worker))
  return result
}

/**
 * One run in flight per process and at most one queued behind it: a burst of triggers (every
 * outbox commit, the 1 s poll, a cron call) costs at most two runs, and every caller's wait ends
 * with a run that started after its call, so nothing due at call time is left behind.
 */
export function coalescing<T>(run: () => Promise<T>): () => Promise<T> {
  let current: Promise<T> | undefined
  let queued: Promise<T> | undefined
  const start = (): Promise<T> => {
    const p: Promise<T> = run().finally(() => {
      if (current === p) current = undefined
    })
    current = p
    return p
  }
  const ignore = () => {}
  return () => {
    if (queued) return queued
    if (!current) return start()
    queued = current.then(ignore, ignore).then(() => {
      queued = undefined
      return start()
    })
    return queued
  }
}
