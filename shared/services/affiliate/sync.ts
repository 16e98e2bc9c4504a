/**
 * The sync job: for each program of the destination, stream the network's catalog through its
 * adapter and upsert the products in batches (never the whole feed in memory). Only when every
 * program completed are the products no program listed this time marked unavailable; a failed
 * or partial sync removes nothing. Skipped rows are counted with their reasons in the result.
 */
import type { FunctionDeps, JobDeps } from '@shared/infra/deps.ts'
import { engineFor, isFinalAttempt, JobError, type JobRun, type Json } from '@shared/infra/jobs/engine.ts'
import { tenantAdminEmails } from '@shared/infra/notifier.ts'
import { CredentialUnavailableError, useCredential } from '../credentials/use-credential.ts'
import { adapters } from './adapters/index.ts'
import type { ProgramRow } from './adapters/types.ts'
import { type DestinationRow, SYNC_JOB_KIND } from './destinations.ts'
import type { NormalizedProduct } from './product.ts'
import { networkProvider } from './schema.ts'
import { CredentialRejectedError } from './streams.ts'

/** A job error whose message already names its program, so it is not prefixed again. */
class ProgramJobError extends JobError {}

const BATCH_SIZE = 500
/** Reasons kept in the result per program (the counts cover every skipped row). */
const MAX_REASONS = 20

interface ProgramResult {
  program_id: string
  network: string
  fetched: number
  upserted: number
  skipped: number
  skipped_reasons: { reason: string; count: number; example?: string }[]
}

interface SyncResult {
  destination_id: string
  programs: ProgramResult[]
  products: number
  marked_unavailable: number
}

/** Upserts one batch; a new price keeps the previous one (previous_price, price_changed_at). */
async function upsertBatch(
  deps: Pick<JobDeps, 'sql'>,
  program: ProgramRow,
  jobId: string,
  now: Date,
  batch: NormalizedProduct[],
): Promise<number> {
  if (batch.length === 0) return 0
  const { sql } = deps
  const rows = await sql`
    insert into public.affiliate_products as p (tenant_id, destination_id, program_id, network, external_id, merchant,
      title, description, category, price, sale_price, currency, availability, image_url, affiliate_url, gtin, raw,
      last_sync_job_id, last_synced_at, created_at)
    select ${program.tenant_id}, ${program.destination_id}, ${program.id}, ${program.network}, x.external_id, x.merchant,
      x.title, x.description, x.category, x.price::numeric, x.sale_price::numeric, x.currency, x.availability,
      x.image_url, x.affiliate_url, x.gtin, x.raw, ${jobId}, ${now}, ${now}
    from jsonb_to_recordset(${sql.json(batch as never)}) as x (external_id text, merchant text, title text,
      description text, category text, price text, sale_price text, currency text, availability text, image_url text,
      affiliate_url text, gtin text, raw jsonb)
    on conflict (program_id, external_id) do update set
      merchant = excluded.merchant, title = excluded.title, description = excluded.description,
      category = excluded.category, currency = excluded.currency, availability = excluded.availability,
      image_url = excluded.image_url, affiliate_url = excluded.affiliate_url, gtin = excluded.gtin, raw = excluded.raw,
      previous_price = case when (p.price, p.sale_price) is distinct from (excluded.price, excluded.sale_price)
        then p.price else p.previous_price end,
      previous_sale_price = case when (p.price, p.sale_price) is distinct from (excluded.price, excluded.sale_price)
        then p.sale_price else p.previous_sale_price end,
      price_changed_at = case when (p.price, p.sale_price) is distinct from (excluded.price, excluded.sale_price)
        then excluded.last_synced_at else p.price_changed_at end,
      price = excluded.price, sale_price = excluded.sale_price,
      last_sync_job_id = excluded.last_sync_job_id, last_synced_at = excluded.last_synced_at
    returning 1`
  return rows.length
}

/** Tells the tenant's owners and admins once per credential that the network refused it. */
async function notifyRejected(deps: FunctionDeps, program: ProgramRow, credentialId: string, reason: string) {
  const emails = await tenantAdminEmails(deps.sql, program.tenant_id)
  for (const recipient of emails) {
    await deps.notifier.enqueue(deps.sql, {
      tenantId: program.tenant_id,
      kind: 'affiliate.credential_rejected',
      recipient,
      subject: `Affiliate sync: the ${program.network} credential was rejected`,
      body:
        `The affiliate program "${program.name}" could not sync: ${reason}.\n` +
        'Replace the credential in the vault (category Affiliate); syncs fail until then.',
      dedupeKey: `affiliate.credential_rejected:${credentialId}:${recipient}`,
    })
  }
}

async function credentialFor(deps: FunctionDeps, program: ProgramRow) {
  const provider = networkProvider[program.network]
  if (!provider) return null
  try {
    return await useCredential(deps, {
      tenantId: program.tenant_id,
      provider,
      environment: 'production',
      callerKind: 'server_function',
      functionName: 'sync-affiliate',
      ...(program.credential_name && { name: program.credential_name }),
    })
  } catch (err) {
    if (err instanceof CredentialUnavailableError)
      throw new ProgramJobError(
        `program "${program.name}": no usable ${provider} credential (category Affiliate): ${err.message}`,
      )
    throw err
  }
}

/** Streams one program's catalog into the products table. */
async function syncProgram(
  deps: JobDeps,
  program: ProgramRow,
  jobId: string,
  now: Date,
): Promise<ProgramResult> {
  const credential = await credentialFor(deps, program)
  const result: ProgramResult = {
    program_id: program.id,
    network: program.network,
    fetched: 0,
    upserted: 0,
    skipped: 0,
    skipped_reasons: [],
  }
  const reasons = new Map<string, { count: number; example?: string }>()
  const skip = (message: string) => {
    result.skipped++
    // "line 12: ..." -> grouped by the reason without the line; the first line kept as the example.
    const reason = message.replace(/^(line|item) \d+: /, '')
    const seen = reasons.get(reason)
    if (seen) seen.count++
    else if (reasons.size < MAX_REASONS)
      reasons.set(reason, { count: 1, example: message !== reason ? message : undefined })
  }
  // Duplicates within a batch would hit the same row twice in one statement: the last one wins.
  let batch = new Map<string, NormalizedProduct>()
  // One batch is written while the next is parsed: at most two batches are held at once, and
  // batches reach the database in feed order (each waits for the one before).
  let inFlight: Promise<{ n: number } | { error: unknown }> | null = null
  const settle = async () => {
    if (!inFlight) return
    const done = await inFlight
    inFlight = null
    if ('error' in done) throw done.error
    result.upserted += done.n
  }
  const flush = async () => {
    await settle()
    const rows = [...batch.values()]
    batch = new Map()
    inFlight = upsertBatch(deps, program, jobId, now, rows).then(
      (n) => ({ n }),
      (error: unknown) => ({ error }),
    )
  }
  try {
    for await (const e of adapters[program.network]({ deps, program, secret: credential?.secret ?? null })) {
      if ('skipped' in e) {
        skip(e.skipped)
        continue
      }
      result.fetched++
      if (program.currency && e.product.currency !== program.currency) {
        throw new ProgramJobError(
          `program "${program.name}": the feed prices products in ${e.product.currency}, the program expects ${program.currency}`,
        )
      }
      batch.set(e.product.external_id, e.product)
      if (batch.size >= BATCH_SIZE) await flush()
    }
    await flush()
    await settle()
  } catch (err) {
    // A write still under way finishes (or fails) before the job reports.
    await inFlight
    inFlight = null
    if (err instanceof CredentialRejectedError && credential) {
      await notifyRejected(deps, program, credential.id, err.message).catch((e) =>
        deps.logger.warn('affiliate: could not queue the rejected-credential notice', { error: String(e) }),
      )
      throw new ProgramJobError(`program "${program.name}": ${err.message}`)
    }
    if (err instanceof JobError && !(err instanceof ProgramJobError))
      throw new ProgramJobError(`program "${program.name}": ${err.message}`, {
        transient: err.transient,
        retryAfterMs: err.retryAfterMs,
        cause: err,
      })
    throw err
  }
  result.skipped_reasons = [...reasons].map(([reason, v]) => ({ reason, ...v }))
  return result
}

/** The sync job: runs as the service, every statement scoped by the job's tenant. */
async function syncDestinationJob({ deps, job }: JobRun): Promise<Json> {
  const destinationId = String(job.input.destination_id ?? '')
  const [destination] = await deps.sql<DestinationRow[]>`
    select * from public.affiliate_destinations where id = ${destinationId} and tenant_id = ${job.tenant_id}`
  if (!destination) throw new JobError('the destination no longer exists')
  const record = async (status: 'succeeded' | 'failed', error: string | null) => {
    await deps.sql`
      update public.affiliate_destinations set last_run_at = ${deps.clock.now()}, last_job_id = ${job.id},
        last_status = ${status}, last_error = ${error}
      where id = ${destination.id} and tenant_id = ${job.tenant_id}`
  }
  try {
    const programs = await deps.sql<ProgramRow[]>`
      select * from public.affiliate_programs where destination_id = ${destination.id} and tenant_id = ${job.tenant_id}
      order by created_at, id`
    const now = deps.clock.now()
    const results: ProgramResult[] = []
    for (const program of programs) results.push(await syncProgram(deps, program, job.id, now))
    // Every program completed: what none of them listed this time is no longer offered.
    const stale = await deps.sql`
      update public.affiliate_products set availability = 'unavailable'
      where tenant_id = ${job.tenant_id} and destination_id = ${destination.id}
        and last_sync_job_id <> ${job.id} and availability <> 'unavailable'
      returning 1`
    const [{ count }] = (await deps.sql`
      select count(*)::int as count from public.affiliate_products
      where tenant_id = ${job.tenant_id} and destination_id = ${destination.id} and last_sync_job_id = ${job.id}`) as unknown as [
      { count: number },
    ]
    const result: SyncResult = {
      destination_id: destination.id,
      programs: results,
      products: count,
      marked_unavailable: stale.length,
    }
    await record('succeeded', null)
    return result as unknown as Json
  } catch (err) {
    if (isFinalAttempt(err, job))
      await record('failed', (err instanceof Error ? err.message : String(err)).slice(0, 2000)).catch(
        () => {},
      )
    throw err
  }
}

/** sync-affiliate's engine (one per function instance): its one kind, the destination sync. */
export const syncEngine = engineFor({
  [SYNC_JOB_KIND]: { handler: syncDestinationJob, maxAttempts: 3, leaseSeconds: 1800 },
})
