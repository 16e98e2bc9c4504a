import { z } from '@hono/zod-openapi'
import { sha256Hex, timingSafeEqual } from '@shared/infra/crypto.ts'
import type { FunctionDeps } from '@shared/infra/deps.ts'
import { enqueueJob, JobError, type JobRow, type JobRun, type Json } from '@shared/infra/jobs/engine.ts'
import { parseFeedItems } from './feed.ts'
import type { SourceRow } from './sources.ts'
import { storeItems } from './store-items.ts'
import { type PushSubscriptionRow, RENEW_AT, SECRET_PURPOSE, WEBSUB_JOB_KIND } from './websub.ts'

/**
 * The hub's side of a source's push subscription, at its callback (docs/adr/0042-websub-push-for-feeds.md):
 * verification of intent (GET) and content distribution (POST). The hub has no credentials: the
 * callback's address carries an unguessable token whose SHA-256 the row keeps, compared in constant
 * time; a pushed body must carry the subscription secret's HMAC. The callback runs on the owner pool
 * before any tenant is known (the token is the only key to the row), then acts for the row's tenant.
 */

export const PUSH_JOB_KIND = 'scrape-social.push'
/** A pushed feed larger than this is refused (413) before it is read into memory whole. */
export const MAX_PUSH_BYTES = 1024 * 1024
/** Leases a hub may grant: at least a minute, at most a year. */
const LEASE_RANGE = { min: 60, max: 365 * 24 * 3600 }
const ZERO_HASH = '0'.repeat(64)

/** The callback's address: malformed ids and tokens answer the same 404 as unknown ones. */
export const callbackParams = z.object({
  subscription_id: z
    .string()
    .max(64)
    .openapi({ param: { name: 'subscription_id', in: 'path' } }),
  token: z
    .string()
    .max(100)
    .openapi({ param: { name: 'token', in: 'path' } }),
})

/** The subscription the callback's address names, or null for an unknown id or a wrong token. */
async function subscriptionAt(
  deps: FunctionDeps,
  id: string,
  token: string,
): Promise<PushSubscriptionRow | null> {
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)
  const rows = uuid
    ? await deps.sql<PushSubscriptionRow[]>`select * from public.source_push_subscriptions where id = ${id}`
    : []
  // Compared even when nothing was found, so an unknown id costs what a wrong token does.
  const matches = timingSafeEqual(sha256Hex(token), rows[0]?.token_hash ?? ZERO_HASH)
  return rows[0] && matches ? rows[0] : null
}

export interface IntentQuery {
  mode: 'subscribe' | 'unsubscribe' | 'denied'
  topic: string
  challenge?: string
  leaseSeconds?: number
  reason?: string
}

/**
 * A hub confirms a request we made (or says it was denied). Answers the challenge to echo, '' for
 * a denial noted, and null (404) when the address, topic or mode does not match a request we made:
 * then nothing changes. A confirmed subscription becomes active with its lease, and its renewal is
 * queued for RENEW_AT of the lease (the one queued before is moved, never doubled).
 */
export async function verifyIntent(
  deps: FunctionDeps,
  id: string,
  token: string,
  q: IntentQuery,
): Promise<{ echo: string; renewJob?: string } | null> {
  const sub = await subscriptionAt(deps, id, token)
  if (!sub || q.topic !== sub.topic_url) return null
  const now = deps.clock.now()
  if (q.mode === 'denied') {
    if (sub.state !== 'pending' && sub.state !== 'active') return null
    await deps.sql`update public.source_push_subscriptions set state = 'denied',
      last_error = ${`the hub denied the subscription${q.reason ? `: ${q.reason.slice(0, 500)}` : ''}`},
      updated_at = ${now} where id = ${sub.id}`
    return { echo: '' }
  }
  if (q.mode === 'unsubscribe') {
    if (sub.state !== 'unsubscribing' || !q.challenge) return null
    await deps.sql`delete from public.source_push_subscriptions where id = ${sub.id} and state = 'unsubscribing'`
    return { echo: q.challenge }
  }
  if ((sub.state !== 'pending' && sub.state !== 'active') || sub.source_id === null || !q.challenge)
    return null
  const lease = Math.min(Math.max(q.leaseSeconds ?? LEASE_RANGE.max, LEASE_RANGE.min), LEASE_RANGE.max)
  const renewAt = new Date(now.getTime() + Math.floor(lease * RENEW_AT) * 1000)
  const renewJob = await deps.sql.begin(async (tx) => {
    const [moved] = await tx<{ id: string }[]>`
      update public.jobs set run_after = ${renewAt}, updated_at = ${now}
      where id = ${sub.renew_job_id} and tenant_id = ${sub.tenant_id} and status = 'queued' returning id`
    const job =
      moved ??
      (await enqueueJob(tx, {
        tenantId: sub.tenant_id,
        kind: WEBSUB_JOB_KIND,
        input: { subscription_id: sub.id, action: 'subscribe' },
        maxAttempts: 5,
        runAfter: renewAt,
        now,
      }))
    await tx`update public.source_push_subscriptions set state = 'active', lease_seconds = ${lease},
      lease_expires_at = ${new Date(now.getTime() + lease * 1000)}, renew_job_id = ${job.id}, last_error = null,
      updated_at = ${now} where id = ${sub.id}`
    return job.id
  })
  return { echo: q.challenge, renewJob }
}

const SIGNATURE_ALGORITHMS: Record<string, string> = {
  sha1: 'SHA-1',
  sha256: 'SHA-256',
  sha384: 'SHA-384',
  sha512: 'SHA-512',
}

/** Whether `header` (X-Hub-Signature: method=hex) is the HMAC of `body` under `secret`. */
async function signatureValid(
  secret: string,
  body: Uint8Array,
  header: string | undefined,
): Promise<boolean> {
  const match = /^(sha1|sha256|sha384|sha512)=([0-9a-f]{40,128})$/i.exec(header?.trim() ?? '')
  if (!match) return false
  const key = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    { name: 'HMAC', hash: SIGNATURE_ALGORITHMS[match[1]!.toLowerCase()]! },
    false,
    ['sign'],
  )
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, body as Uint8Array<ArrayBuffer>))
  const expected = Array.from(mac, (b) => b.toString(16).padStart(2, '0')).join('')
  return timingSafeEqual(expected, match[2]!.toLowerCase())
}

export type PushOutcome = { status: 'accepted'; job: JobRow } | { status: 'ignored'; reason: string }

/**
 * A hub's distribution: null (404) for a wrong address. Otherwise the hub is answered 2xx whatever
 * happens (WebSub §7: a bad signature is ignored, not refused, so a forger learns nothing), and a
 * correctly signed body of an active subscription is queued for ingestion as the push job.
 */
export async function receivePush(
  deps: FunctionDeps,
  id: string,
  token: string,
  body: Uint8Array,
  signature: string | undefined,
): Promise<PushOutcome | null> {
  const sub = await subscriptionAt(deps, id, token)
  if (!sub) return null
  if (sub.state !== 'active' || sub.source_id === null) return { status: 'ignored', reason: 'not subscribed' }
  const secret = await deps.vault.decrypt(sub.tenant_id, sub.secret_ciphertext, SECRET_PURPOSE)
  if (!(await signatureValid(secret, body, signature))) {
    deps.logger.warn('websub push with a bad signature ignored', { subscription_id: sub.id })
    return { status: 'ignored', reason: 'bad signature' }
  }
  const now = deps.clock.now()
  const job = await deps.sql.begin(async (tx) => {
    await tx`update public.source_push_subscriptions set last_push_at = ${now} where id = ${sub.id}`
    return enqueueJob(tx, {
      tenantId: sub.tenant_id,
      kind: PUSH_JOB_KIND,
      input: { source_id: sub.source_id, body: new TextDecoder().decode(body) },
      maxAttempts: 3,
      now,
    })
  })
  return { status: 'accepted', job }
}

/** Ingests a pushed feed body as a fetch would: parsed, deduplicated, one event for what is new. */
async function pushJob({ deps, job }: JobRun): Promise<Json> {
  const sourceId = String(job.input.source_id ?? '')
  const [source] = await deps.sql<SourceRow[]>`
    select * from public.sources where id = ${sourceId} and tenant_id = ${job.tenant_id}`
  if (!source) return { source_id: sourceId, skipped: 'the source no longer exists' }
  let parsed: ReturnType<typeof parseFeedItems>
  try {
    parsed = parseFeedItems(String(job.input.body ?? ''))
  } catch (err) {
    throw new JobError(
      `the pushed body is not an RSS, Atom or JSON feed (${err instanceof Error ? err.message : err})`,
    )
  }
  const added = await storeItems(deps, source, parsed.items)
  return {
    source_id: source.id,
    kind: 'push',
    format: parsed.format,
    fetched: parsed.items.length,
    new_items: added,
  }
}

export const pushJobKind = { handler: pushJob, maxAttempts: 3, leaseSeconds: 120 }
