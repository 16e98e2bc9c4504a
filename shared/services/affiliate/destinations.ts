import { isPgError, pgErrors, privilegeErrorAs, type Queryable } from '@shared/infra/db.ts'
import type { FunctionDeps, ServiceContext } from '@shared/infra/deps.ts'
import { invalidField, notFound, ServiceError, validationError } from '@shared/infra/errors.ts'
import type { JobRow } from '@shared/infra/jobs/engine.ts'
import { keysetPage, type Page, type PageRequest } from '@shared/infra/pagination.ts'
import { queueDueRuns, queueOrJoin, type ScheduledResource } from '../jobs/scheduled.ts'
import { nextRunAt } from '../jobs/schedules.ts'
import type { ProgramRow } from './adapters/types.ts'
import {
  type Destination,
  type DestinationInput,
  type DestinationUpdate,
  type Program,
  type ProgramInput,
  programInput,
  type Schedule,
} from './schema.ts'

/** Destinations and their affiliate programs (the admin API /api/affiliate), and queueing syncs. */

export const SYNC_JOB_KIND = 'sync-affiliate.destination'

export interface DestinationRow {
  id: string
  tenant_id: string
  site_id: string
  name: string
  schedule: Schedule | null
  enabled: boolean
  next_run_at: Date | null
  last_run_at: Date | null
  last_job_id: string | null
  last_status: 'succeeded' | 'failed' | null
  last_error: string | null
  created_at: Date
  updated_at: Date
}

const iso = (d: Date | null) => d?.toISOString() ?? null

function presentProgram(row: ProgramRow): Program {
  return {
    id: row.id,
    destination_id: row.destination_id,
    network: row.network,
    name: row.name,
    merchant_ids: row.merchant_ids,
    config: row.config,
    tracking_id: row.tracking_id,
    credential_name: row.credential_name,
    currency: row.currency,
    created_at: row.created_at.toISOString(),
  }
}

function presentDestination(row: DestinationRow, programs: ProgramRow[]): Destination {
  return {
    id: row.id,
    site_id: row.site_id,
    name: row.name,
    schedule: row.schedule,
    enabled: row.enabled,
    next_run_at: iso(row.next_run_at),
    last_run_at: iso(row.last_run_at),
    last_status: row.last_status,
    last_error: row.last_error,
    last_job_id: row.last_job_id,
    programs: programs.filter((p) => p.destination_id === row.id).map(presentProgram),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  }
}

const MANAGE = 'Only owners and admins manage affiliate destinations'
const asPermissionError = privilegeErrorAs(MANAGE)
const refused = () => new ServiceError('INSUFFICIENT_PERMISSIONS', MANAGE)

function siteProblem(err: unknown): never {
  if (isPgError(err, pgErrors.foreignKeyViolation))
    throw invalidField('site_id', 'no such site in this tenant')
  if (isPgError(err, pgErrors.uniqueViolation))
    throw new ServiceError('CONFLICT', 'This site already has an affiliate destination')
  throw err
}

async function destinationRow(db: Queryable, tenantId: string, id: string): Promise<DestinationRow> {
  const [row] = await db<DestinationRow[]>`
    select * from public.affiliate_destinations where id = ${id} and tenant_id = ${tenantId}`
  if (!row) throw notFound('Destination')
  return row
}

const programsOf = (db: Queryable, tenantId: string, ids: string[]) =>
  ids.length === 0
    ? Promise.resolve([] as ProgramRow[])
    : db<ProgramRow[]>`
        select * from public.affiliate_programs where tenant_id = ${tenantId} and destination_id in ${db(ids)}
        order by created_at, id`

export async function createDestination(ctx: ServiceContext, input: DestinationInput): Promise<Destination> {
  const { caller } = ctx
  const now = ctx.clock.now()
  const row = await ctx
    .asTenant(async (tx) => {
      const [created] = await tx<DestinationRow[]>`
      insert into public.affiliate_destinations (tenant_id, site_id, name, schedule, enabled, next_run_at, created_by, created_at, updated_at)
      values (${caller.tenantId}, ${input.site_id}, ${input.name}, ${input.schedule}, ${input.enabled},
              ${nextRunAt(input.schedule, input.enabled, now)}, ${caller.userId}, ${now}, ${now})
      returning *`
      return created!
    })
    .catch(siteProblem)
    .catch(asPermissionError)
  return presentDestination(row, [])
}

export async function listDestinations(ctx: ServiceContext, page: PageRequest): Promise<Page<Destination>> {
  const { caller } = ctx
  let programs: Awaited<ReturnType<typeof programsOf>> = []
  return keysetPage(
    page,
    { at: 'created_at' },
    (r: DestinationRow) => presentDestination(r, programs),
    (keyset) =>
      ctx.asTenant(async (tx) => {
        const rows = await tx<DestinationRow[]>`
          select * from public.affiliate_destinations where tenant_id = ${caller.tenantId}
            ${keyset(tx)}`
        programs = await programsOf(
          tx,
          caller.tenantId,
          rows.map((r) => r.id),
        )
        return rows
      }),
  )
}

export async function getDestination(ctx: ServiceContext, id: string): Promise<Destination> {
  const { caller } = ctx
  return ctx.asTenant(async (tx) => {
    const row = await destinationRow(tx, caller.tenantId, id)
    return presentDestination(row, await programsOf(tx, caller.tenantId, [id]))
  })
}

export async function updateDestination(
  ctx: ServiceContext,
  id: string,
  input: DestinationUpdate,
): Promise<Destination> {
  const { caller } = ctx
  const now = ctx.clock.now()
  return ctx
    .asTenant(async (tx) => {
      const before = await destinationRow(tx, caller.tenantId, id)
      const schedule = input.schedule === undefined ? before.schedule : input.schedule
      const enabled = input.enabled ?? before.enabled
      const next =
        schedule === before.schedule && enabled === before.enabled
          ? before.next_run_at
          : nextRunAt(schedule, enabled, now)
      const [updated] = await tx<DestinationRow[]>`
      update public.affiliate_destinations set name = ${input.name ?? before.name}, schedule = ${schedule},
        enabled = ${enabled}, next_run_at = ${next}, updated_at = ${now}
      where id = ${id} and tenant_id = ${caller.tenantId} returning *`
      if (!updated) throw refused()
      return presentDestination(updated, await programsOf(tx, caller.tenantId, [id]))
    })
    .catch(asPermissionError)
}

export async function deleteDestination(ctx: ServiceContext, id: string): Promise<void> {
  const { caller } = ctx
  await ctx
    .asTenant(async (tx) => {
      await destinationRow(tx, caller.tenantId, id)
      const gone = await tx`
      delete from public.affiliate_destinations where id = ${id} and tenant_id = ${caller.tenantId} returning id`
      if (gone.length === 0) throw refused()
    })
    .catch(asPermissionError)
}

export async function addProgram(
  ctx: ServiceContext,
  destinationId: string,
  input: ProgramInput,
): Promise<Program> {
  const parsed = programInput.safeParse(input)
  if (!parsed.success) throw validationError(parsed.error.issues, 'Invalid program')
  const p = parsed.data
  const { caller } = ctx
  const now = ctx.clock.now()
  const row = await ctx
    .asTenant(async (tx) => {
      await destinationRow(tx, caller.tenantId, destinationId)
      const [created] = await tx<ProgramRow[]>`
      insert into public.affiliate_programs (tenant_id, destination_id, network, name, merchant_ids, config, tracking_id,
        credential_name, currency, created_by, created_at, updated_at)
      values (${caller.tenantId}, ${destinationId}, ${p.network}, ${p.name}, ${p.merchant_ids}, ${tx.json(p.config as never)},
        ${p.tracking_id}, ${p.credential_name}, ${p.currency}, ${caller.userId}, ${now}, ${now})
      returning *`
      return created!
    })
    .catch(asPermissionError)
  return presentProgram(row)
}

export async function deleteProgram(
  ctx: ServiceContext,
  destinationId: string,
  programId: string,
): Promise<void> {
  const { caller } = ctx
  await ctx
    .asTenant(async (tx) => {
      const [found] = await tx`
      select 1 from public.affiliate_programs
      where id = ${programId} and destination_id = ${destinationId} and tenant_id = ${caller.tenantId}`
      if (!found) throw notFound('Program')
      const gone = await tx`
      delete from public.affiliate_programs where id = ${programId} and tenant_id = ${caller.tenantId} returning id`
      if (gone.length === 0) throw refused()
    })
    .catch(asPermissionError)
}

/**
 * Destinations as scheduled resources: two requests (on two instances), or a request and the
 * schedule, join one sync job.
 */
const syncs: ScheduledResource = {
  table: 'public.affiliate_destinations',
  kind: SYNC_JOB_KIND,
  resource: 'destination_id',
  maxAttempts: 3,
}

export async function queueSync(
  ctx: ServiceContext,
  destinationId: string,
): Promise<{ job: JobRow; created: boolean }> {
  const { caller } = ctx
  const now = ctx.clock.now()
  return ctx.asTenant(async (tx) => {
    await destinationRow(tx, caller.tenantId, destinationId)
    return queueOrJoin(syncs, tx, caller.tenantId, destinationId, 'request', now)
  })
}

/** Queues the syncs of scheduled destinations that are due (the sweep job; all tenants). */
export function queueDueSyncs(deps: Pick<FunctionDeps, 'sql' | 'clock'>, limit = 50): Promise<string[]> {
  return queueDueRuns(syncs, deps, limit)
}
