import { randomBase62, sha256Hex } from '@shared/infra/crypto.ts'
import type { Queryable } from '@shared/infra/db.ts'
import type { FunctionDeps, JobDeps } from '@shared/infra/deps.ts'
import { enqueueJob, isFinalAttempt, JobError, type JobRun, type Json } from '@shared/infra/jobs/engine.ts'
import type { HubLinks } from './websub-discovery.ts'

/**
 * WebSub push for feed sources (docs/adr/0042-websub-push-for-feeds.md): the subscription record,
 * and the job that asks the hub to subscribe (and later renew) or unsubscribe. The hub confirms
 * each request by calling the callback (websub-callback.ts), which is what changes the state.
 */

export const WEBSUB_JOB_KIND = 'scrape-social.websub'
export const SECRET_PURPOSE = 'source-push-secret'
const TOKEN_PURPOSE = 'source-push-token'
/** The lease asked of the hub (it may grant another); renewed at RENEW_AT of what it granted. */
const REQUESTED_LEASE_SECONDS = 10 * 24 * 3600
export const RENEW_AT = 0.8
/** A hub that refused is asked again at most this often (each fetch would otherwise ask). */
const DENIED_RETRY_MS = 24 * 3600 * 1000
const HUB_TIMEOUT_MS = 15_000

type PushState = 'pending' | 'active' | 'denied' | 'expired' | 'unsubscribing'

export interface PushSubscriptionRow {
  id: string
  tenant_id: string
  source_id: string | null
  hub_url: string
  topic_url: string
  state: PushState
  token_hash: string
  token_ciphertext: string
  secret_ciphertext: string
  lease_seconds: number | null
  lease_expires_at: Date | null
  renew_job_id: string | null
  last_error: string | null
  last_push_at: Date | null
  updated_at: Date
}

/** The callback's public address: the token is in the path, so only the hub that was given it can call. */
function callbackUrl(config: FunctionDeps['config'], id: string, token: string): string {
  return new URL(`/api/sources/websub/${id}/${token}`, config.PUBLIC_URL).toString()
}

function queueWebsub(
  db: Queryable,
  tenantId: string,
  id: string,
  action: 'subscribe' | 'unsubscribe',
  now: Date,
) {
  return enqueueJob(db, {
    tenantId,
    kind: WEBSUB_JOB_KIND,
    input: { subscription_id: id, action },
    maxAttempts: 5,
    now,
  })
}

/**
 * After a fetch of a feed source (the scrape job): a feed that names a hub gets a pending
 * subscription and a job that asks the hub; one whose hub or topic changed gets a new one and the
 * old is unsubscribed. Returns the jobs to kick.
 */
export async function notePushHub(
  deps: Pick<JobDeps, 'sql' | 'clock' | 'vault'>,
  source: { id: string; tenant_id: string; enabled: boolean },
  links: HubLinks | null,
): Promise<string[]> {
  if (!links || !source.enabled) return []
  const { sql } = deps
  const now = deps.clock.now()
  const [existing] = await sql<PushSubscriptionRow[]>`
    select * from public.source_push_subscriptions where source_id = ${source.id} and tenant_id = ${source.tenant_id}`
  const same = existing && existing.hub_url === links.hub && existing.topic_url === links.topic
  if (same) {
    const lapsed =
      existing.state === 'expired' ||
      (existing.state === 'active' &&
        existing.lease_expires_at !== null &&
        existing.lease_expires_at <= now) ||
      (existing.state === 'denied' && now.getTime() - existing.updated_at.getTime() > DENIED_RETRY_MS)
    if (!lapsed) return []
    return sql.begin(async (tx) => {
      await tx`update public.source_push_subscriptions set state = 'pending', updated_at = ${now}
        where id = ${existing.id}`
      return [(await queueWebsub(tx, source.tenant_id, existing.id, 'subscribe', now)).id]
    })
  }
  const token = randomBase62(43)
  const secret = randomBase62(40)
  const tokenCiphertext = await deps.vault.encrypt(source.tenant_id, token, TOKEN_PURPOSE)
  const secretCiphertext = await deps.vault.encrypt(source.tenant_id, secret, SECRET_PURPOSE)
  return sql.begin(async (tx) => {
    const jobs: string[] = []
    if (existing) {
      // The feed moved to another hub or topic: the old subscription lets go of the source.
      await tx`update public.source_push_subscriptions set source_id = null, state = 'unsubscribing',
        updated_at = ${now} where id = ${existing.id}`
      jobs.push((await queueWebsub(tx, source.tenant_id, existing.id, 'unsubscribe', now)).id)
    }
    const [created] = await tx<{ id: string }[]>`
      insert into public.source_push_subscriptions (tenant_id, source_id, hub_url, topic_url, token_hash,
        token_ciphertext, secret_ciphertext, created_at, updated_at)
      values (${source.tenant_id}, ${source.id}, ${links.hub}, ${links.topic}, ${sha256Hex(token)},
        ${tokenCiphertext}, ${secretCiphertext}, ${now}, ${now})
      on conflict (source_id) do nothing
      returning id`
    // Another fetch of the same source got there first: its subscription stands.
    if (created) jobs.push((await queueWebsub(tx, source.tenant_id, created.id, 'subscribe', now)).id)
    return jobs
  })
}

/**
 * When a source is deleted or paused (its own transaction, as the caller): its subscription, if
 * any, is let go of by a job. Returns the job, for the route to kick.
 */
export async function queueUnsubscribe(
  tx: Queryable,
  tenantId: string,
  sourceId: string,
  now: Date,
): Promise<string | null> {
  const [sub] = await tx<{ id: string }[]>`
    select id from public.source_push_subscriptions
    where source_id = ${sourceId} and tenant_id = ${tenantId} and state <> 'unsubscribing'`
  if (!sub) return null
  return (await queueWebsub(tx, tenantId, sub.id, 'unsubscribe', now)).id
}

/** The hub's answer to a (un)subscription request: 202 Accepted (or any 2xx) means it will verify. */
async function askHub(deps: JobDeps, sub: PushSubscriptionRow, action: 'subscribe' | 'unsubscribe') {
  const token = await deps.vault.decrypt(sub.tenant_id, sub.token_ciphertext, TOKEN_PURPOSE)
  const form = new URLSearchParams({
    'hub.mode': action,
    'hub.topic': sub.topic_url,
    'hub.callback': callbackUrl(deps.config, sub.id, token),
  })
  if (action === 'subscribe') {
    form.set('hub.lease_seconds', String(REQUESTED_LEASE_SECONDS))
    form.set('hub.secret', await deps.vault.decrypt(sub.tenant_id, sub.secret_ciphertext, SECRET_PURPOSE))
  }
  // Through the platform's guarded fetch: a hub on a private address is refused like any outbound call.
  const res = await deps.fetch(sub.hub_url, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'user-agent': 'TenantPlatform-WebSub/1.0',
    },
    body: form.toString(),
    timeoutMs: HUB_TIMEOUT_MS,
    maxResponseBytes: 64 * 1024,
  })
  const text = (await res.text()).slice(0, 300)
  if (!res.ok) {
    throw new JobError(`the hub answered ${res.status}${text ? `: ${text}` : ''}`, {
      transient: res.status === 429 || res.status >= 500,
    })
  }
  return res.status
}

/** The subscribe (and renew) or unsubscribe request to the hub, as a job with retries. */
async function websubJob({ deps, job }: JobRun): Promise<Json> {
  const id = String(job.input.subscription_id ?? '')
  const action = job.input.action === 'unsubscribe' ? 'unsubscribe' : 'subscribe'
  const now = deps.clock.now()
  const [sub] = await deps.sql<PushSubscriptionRow[]>`
    select * from public.source_push_subscriptions where id = ${id} and tenant_id = ${job.tenant_id}`
  if (!sub) return { subscription_id: id, action, skipped: 'the subscription no longer exists' }
  if (action === 'subscribe' && (sub.source_id === null || sub.state === 'unsubscribing'))
    return { subscription_id: id, action, skipped: 'the source was deleted or paused' }
  if (action === 'unsubscribe' && sub.state !== 'unsubscribing')
    await deps.sql`update public.source_push_subscriptions set state = 'unsubscribing', updated_at = ${now}
      where id = ${id} and tenant_id = ${job.tenant_id}`
  try {
    const status = await askHub(deps, sub, action)
    return { subscription_id: id, action, hub_status: status }
  } catch (err) {
    // A hub that will not let go (gone, or refusing) after every attempt: the record goes anyway.
    if (action === 'unsubscribe' && isFinalAttempt(err, job))
      await deps.sql`delete from public.source_push_subscriptions where id = ${id} and tenant_id = ${job.tenant_id}
        and state = 'unsubscribing'`.catch(() => {})
    if (action === 'subscribe' && isFinalAttempt(err, job)) {
      const reason = (err instanceof Error ? err.message : String(err)).slice(0, 2000)
      // A renewal that never got through leaves the lease to run out: the next fetch asks again.
      await deps.sql`update public.source_push_subscriptions set last_error = ${reason},
        state = case when state = 'pending' then 'denied' else state end, updated_at = ${now}
        where id = ${id} and tenant_id = ${job.tenant_id}`.catch(() => {})
    }
    throw err
  }
}

export const websubJobKind = { handler: websubJob, maxAttempts: 5, leaseSeconds: 60 }
