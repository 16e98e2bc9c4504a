import { isPgError, pgErrors, privilegeErrorAs, type Queryable } from '@shared/infra/db.ts'
import type { FunctionDeps, ServiceContext } from '@shared/infra/deps.ts'
import { invalidField, notFound, ServiceError, validationError } from '@shared/infra/errors.ts'
import type { JobRow } from '@shared/infra/jobs/engine.ts'
import { keysetPage, type Page, type PageRequest } from '@shared/infra/pagination.ts'
import { queueDueRuns, queueOrJoin, type ScheduledResource } from '../jobs/scheduled.ts'
import { nextRunAt } from '../jobs/schedules.ts'
import {
  type CreateSourceInput,
  type Schedule,
  type Source,
  type SourceItem,
  sourceInput,
  type UpdateSourceInput,
} from './schema.ts'
import { queueUnsubscribe } from './websub.ts'

/** Sources (the admin API /api/sources) and the scrape jobs they start. */

export const SCRAPE_JOB_KIND = 'scrape-social.source'

export interface SourceRow {
  id: string
  tenant_id: string
  site_id: string
  name: string
  kind: 'feed' | 'apify'
  config: Record<string, unknown>
  schedule: Schedule | null
  enabled: boolean
  next_run_at: Date | null
  etag: string | null
  last_modified: string | null
  last_run_at: Date | null
  last_job_id: string | null
  last_status: 'succeeded' | 'failed' | null
  last_error: string | null
  created_at: Date
  updated_at: Date
  /** The WebSub subscription's visible state (selected with the row where it is shown). */
  push?: PushJson | null
}

interface PushJson {
  state: NonNullable<Source['push']>['state']
  hub_url: string
  lease_expires_at: string | null
  last_push_at: string | null
  last_error: string | null
}

/** The subscription's state beside each source (members read these columns, never the secrets). */
const withPush = (tx: Queryable) => tx`(select jsonb_build_object('state', p.state, 'hub_url', p.hub_url,
  'lease_expires_at', p.lease_expires_at, 'last_push_at', p.last_push_at, 'last_error', p.last_error)
  from public.source_push_subscriptions p where p.source_id = sources.id) as push`

const isoOf = (v: string | null) => (v ? new Date(v).toISOString() : null)

interface ItemRow {
  id: string
  source_id: string
  external_id: string
  url: string | null
  title: string | null
  text: string | null
  author: string | null
  media: { url: string; type: string | null }[]
  published_at: Date | null
  created_at: Date
}

const iso = (d: Date | null) => d?.toISOString() ?? null

function presentSource(row: SourceRow): Source {
  return {
    id: row.id,
    site_id: row.site_id,
    name: row.name,
    kind: row.kind,
    config: row.config,
    schedule: row.schedule,
    enabled: row.enabled,
    next_run_at: iso(row.next_run_at),
    last_run_at: iso(row.last_run_at),
    last_status: row.last_status,
    last_error: row.last_error,
    last_job_id: row.last_job_id,
    push: row.push
      ? {
          state: row.push.state,
          hub_url: row.push.hub_url,
          lease_expires_at: isoOf(row.push.lease_expires_at),
          last_push_at: isoOf(row.push.last_push_at),
          last_error: row.push.last_error,
        }
      : null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  }
}

function presentItem(row: ItemRow): SourceItem {
  return {
    id: row.id,
    source_id: row.source_id,
    external_id: row.external_id,
    url: row.url,
    title: row.title,
    text: row.text,
    author: row.author,
    media: row.media,
    published_at: iso(row.published_at),
    created_at: row.created_at.toISOString(),
  }
}

/** The kind's own schema decides the config (defaults filled in), reported under config.*. */
function checkedConfig(kind: 'feed' | 'apify', config: unknown): Record<string, unknown> {
  const parsed = sourceInput.safeParse({ kind, config })
  if (!parsed.success) throw validationError(parsed.error.issues, 'Invalid source')
  return parsed.data.config as Record<string, unknown>
}

const asPermissionError = privilegeErrorAs('Only owners and admins manage sources')
/** Row-level security let the read through but not the write: a member. */
const refused = () => new ServiceError('INSUFFICIENT_PERMISSIONS', 'Only owners and admins manage sources')

/** A site of another tenant (or none) is a foreign-key failure: name the field. */
function siteMissing(err: unknown): never {
  if (isPgError(err, pgErrors.foreignKeyViolation))
    throw invalidField('site_id', 'no such site in this tenant')
  throw err
}

/** Sources as scheduled resources: a request and the schedule join one scrape job. */
const scrapes: ScheduledResource = {
  table: 'public.sources',
  kind: SCRAPE_JOB_KIND,
  resource: 'source_id',
  maxAttempts: 3,
}

/**
 * Whether a new source is fetched at once: an enabled feed always (a conditional GET costs little,
 * and a wrong address shows its error now, not a schedule later); an Apify actor only when it has
 * a schedule, since each run costs the workspace and "only when asked" means what it says.
 */
const fetchesOnCreate = (input: CreateSourceInput) =>
  input.enabled && (input.kind === 'feed' || input.schedule !== null)

/**
 * Adds a source and, when it fetches on creation, queues its first scrape in the same transaction
 * (a job through the engine: exactly once, whichever instance runs it). The source's last_job_id
 * names that job; `firstScrape` is the job the caller should kick.
 */
export async function createSource(
  ctx: ServiceContext,
  input: CreateSourceInput,
): Promise<{ source: Source; firstScrape: JobRow | null }> {
  const { caller } = ctx
  const now = ctx.clock.now()
  const config = checkedConfig(input.kind, input.config)
  const { row, firstScrape } = await ctx
    .asTenant(async (tx) => {
      // The job is queued first so the row is written once, naming it (the API role may not
      // update last_job_id); the job only runs after this transaction commits.
      const id = crypto.randomUUID()
      const firstScrape = fetchesOnCreate(input)
        ? (await queueOrJoin(scrapes, tx, caller.tenantId, id, 'request', now, { trigger: 'created' })).job
        : null
      const [created] = await tx<SourceRow[]>`
      insert into public.sources (id, tenant_id, site_id, name, kind, config, schedule, enabled, next_run_at, last_job_id, created_by, created_at, updated_at)
      values (${id}, ${caller.tenantId}, ${input.site_id}, ${input.name}, ${input.kind}, ${tx.json(config as never)},
              ${input.schedule}, ${input.enabled}, ${nextRunAt(input.schedule, input.enabled, now)}, ${firstScrape?.id ?? null},
              ${caller.userId}, ${now}, ${now})
      returning *`
      return { row: created!, firstScrape }
    })
    .catch(siteMissing)
    .catch(asPermissionError)
  return { source: presentSource(row), firstScrape }
}

export async function listSources(ctx: ServiceContext, page: PageRequest): Promise<Page<Source>> {
  const { caller } = ctx
  return keysetPage(page, { at: 'created_at' }, presentSource, (keyset) =>
    ctx.asTenant(
      (tx) => tx<SourceRow[]>`
      select *, ${withPush(tx)} from public.sources where tenant_id = ${caller.tenantId}
        ${keyset(tx)}`,
    ),
  )
}

async function sourceRow(db: Queryable, tenantId: string, id: string): Promise<SourceRow> {
  const [row] = await db<
    SourceRow[]
  >`select *, ${withPush(db)} from public.sources where id = ${id} and tenant_id = ${tenantId}`
  if (!row) throw notFound('Source')
  return row
}

export async function getSource(ctx: ServiceContext, id: string): Promise<Source> {
  const row = await ctx.asTenant((tx) => sourceRow(tx, ctx.caller.tenantId, id))
  return presentSource(row)
}

/** Updates a source; pausing one returns the job that unsubscribes its push (for the route to kick). */
export async function updateSource(
  ctx: ServiceContext,
  id: string,
  input: UpdateSourceInput,
): Promise<{ source: Source; unsubscribe: string | null }> {
  const { caller } = ctx
  const now = ctx.clock.now()
  const { row, unsubscribe } = await ctx
    .asTenant(async (tx) => {
      const before = await sourceRow(tx, caller.tenantId, id)
      const config = input.config ? checkedConfig(before.kind, input.config) : before.config
      const schedule = input.schedule === undefined ? before.schedule : input.schedule
      const enabled = input.enabled ?? before.enabled
      // A new schedule (or re-enabling) starts counting now; an unchanged one keeps its next run.
      const next =
        schedule === before.schedule && enabled === before.enabled
          ? before.next_run_at
          : nextRunAt(schedule, enabled, now)
      // A new address invalidates the conditional GET validators of the old one.
      const sameFeed = JSON.stringify(config) === JSON.stringify(before.config)
      const [updated] = await tx<SourceRow[]>`
      update public.sources set name = ${input.name ?? before.name}, site_id = ${input.site_id ?? before.site_id},
        config = ${tx.json(config as never)}, schedule = ${schedule}, enabled = ${enabled}, next_run_at = ${next},
        etag = ${sameFeed ? before.etag : null}, last_modified = ${sameFeed ? before.last_modified : null},
        updated_at = ${now}
      where id = ${id} and tenant_id = ${caller.tenantId}
      returning *, ${withPush(tx)}`
      if (!updated) throw refused()
      // A paused source stops taking pushes too (its next fetch after resuming subscribes again).
      const unsubscribe =
        before.enabled && !enabled ? await queueUnsubscribe(tx, caller.tenantId, id, now) : null
      return { row: updated, unsubscribe }
    })
    .catch(siteMissing)
    .catch(asPermissionError)
  return { source: presentSource(row), unsubscribe }
}

/** Deletes a source; its WebSub subscription, if any, is let go of by the job returned (to kick). */
export async function deleteSource(ctx: ServiceContext, id: string): Promise<{ unsubscribe: string | null }> {
  const { caller } = ctx
  return ctx
    .asTenant(async (tx) => {
      await sourceRow(tx, caller.tenantId, id)
      const unsubscribe = await queueUnsubscribe(tx, caller.tenantId, id, ctx.clock.now())
      const deleted =
        await tx`delete from public.sources where id = ${id} and tenant_id = ${caller.tenantId} returning id`
      if (deleted.length === 0) throw refused()
      return { unsubscribe }
    })
    .catch(asPermissionError)
}

export async function listSourceItems(
  ctx: ServiceContext,
  sourceId: string,
  page: PageRequest,
): Promise<Page<SourceItem>> {
  const { caller } = ctx
  return keysetPage(page, { at: 'created_at' }, presentItem, (keyset) =>
    ctx.asTenant(async (tx) => {
      await sourceRow(tx, caller.tenantId, sourceId)
      return tx<ItemRow[]>`
      select id, source_id, external_id, url, title, text, author, media, published_at, created_at
      from public.source_items where tenant_id = ${caller.tenantId} and source_id = ${sourceId}
        ${keyset(tx)}`
    }),
  )
}

/** Queues a scrape of one source of the caller's tenant (in the same transaction as the check). */
export async function queueScrape(
  ctx: ServiceContext,
  sourceId: string,
): Promise<{ job: JobRow; created: boolean }> {
  const { caller } = ctx
  const now = ctx.clock.now()
  return ctx.asTenant(async (tx) => {
    await sourceRow(tx, caller.tenantId, sourceId)
    // A requested scrape's input names only the source: it carries no schedule slot to join on.
    return queueOrJoin(scrapes, tx, caller.tenantId, sourceId, 'request', now, {})
  })
}

/**
 * Queues a scrape for every scheduled source that is due, and moves its next run on; a source
 * whose previous scrape is still queued or running joins it (no second job). Runs as the service
 * over all tenants (the sweep job); safe on several instances (SKIP LOCKED).
 */
export function queueDueScrapes(deps: Pick<FunctionDeps, 'sql' | 'clock'>, limit = 100): Promise<string[]> {
  return queueDueRuns(scrapes, deps, limit)
}
