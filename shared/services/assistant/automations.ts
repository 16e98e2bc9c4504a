import { isPgError, privilegeErrorAs } from '@shared/infra/db.ts'
import type { ServiceContext } from '@shared/infra/deps.ts'
import { invalidField, notFound, ServiceError } from '@shared/infra/errors.ts'
import { Cron } from 'croner'
import type {
  Automation,
  AutomationInput,
  AutomationPatch,
  AutomationRun,
  AutomationTrigger,
  automationEvents,
} from './automation-schema.ts'
import { managerRoles } from './turn/index.ts'

/**
 * Automations: an instruction the assistant runs on a schedule (5-field cron, UTC), as an assistant
 * turn in a conversation of its own, as the member who saved it, with triggered_by = 'automation'.
 * The assistant sweep (every minute on any number of instances) claims due automations with
 * FOR UPDATE SKIP LOCKED and records one run per (automation, slot) under a unique key, so a slot
 * runs exactly once. Missed slots (the platform was down) are not caught up: the next run is the
 * next slot after now. A tool that needs approval is not run unattended: the turn waits
 * (awaiting_approval) and an owner or admin approves it from the conversation.
 *
 * An automation runs as its creator only while they are an owner or admin of the tenant: when they
 * are removed or demoted it is disabled at once (a trigger on tenant_members) with the reason, and
 * the sweep checks again before each run, so it never runs as anyone else. A tenant has at most
 * MAX_AUTOMATIONS, and the sweep takes due automations in turns across tenants.
 *
 * Here: saving, changing and listing automations; starting their runs is automation-dispatch.ts.
 */

/** Automations a tenant may have (enforced in the database: private.limit_automations). */
export const MAX_AUTOMATIONS = 20

export interface AutomationRow {
  id: string
  tenant_id: string
  name: string
  instruction: string
  schedule: string | null
  trigger_event: (typeof automationEvents)[number] | null
  enabled: boolean
  disabled_reason: 'creator_removed' | 'creator_demoted' | null
  next_run_at: Date | null
  last_run_at: Date | null
  unattended_tools: string[]
  created_by: string | null
  created_at: Date
  updated_at: Date
}

interface RunRow {
  id: string
  automation_id: string
  slot: Date
  event_id: string | null
  event_type: string | null
  conversation_id: string | null
  turn_id: string | null
  status: 'pending' | 'started' | 'failed'
  error: string | null
  turn_status: string | null
  created_at: Date
}

/** The next slot strictly after `after`, or null for an expression that never fires again. */
export function nextSlot(schedule: string, after: Date): Date | null {
  return new Cron(schedule, { timezone: 'UTC', paused: true }).nextRun(after)
}

function checkSchedule(schedule: string, now: Date): Date {
  let next: Date | null
  try {
    if (schedule.trim().split(/\s+/).length !== 5) throw new Error('five fields')
    next = nextSlot(schedule, now)
  } catch {
    throw invalidField('schedule', 'must be a 5-field cron expression in UTC, e.g. "0 8 * * 1-5"')
  }
  if (!next) throw invalidField('schedule', 'never fires')
  return next
}

/** What the columns become for a trigger: a schedule (with its next slot) or an event. */
interface TriggerColumns {
  schedule: string | null
  event: AutomationRow['trigger_event']
  next: Date | null
}

function triggerColumns(
  input: { schedule?: string; trigger?: AutomationTrigger },
  now: Date,
): TriggerColumns | null {
  const trigger: AutomationTrigger | undefined =
    input.trigger ?? (input.schedule ? { type: 'schedule', schedule: input.schedule } : undefined)
  if (!trigger) return null
  if (trigger.type === 'event') return { schedule: null, event: trigger.event, next: null }
  return { schedule: trigger.schedule.trim(), event: null, next: checkSchedule(trigger.schedule, now) }
}

const presentRun = (r: RunRow): AutomationRun => ({
  id: r.id,
  slot: r.slot.toISOString(),
  event_id: r.event_id,
  event_type: r.event_type,
  conversation_id: r.conversation_id,
  turn_id: r.turn_id,
  status: r.status,
  turn_status: r.turn_status,
  error: r.error,
  created_at: r.created_at.toISOString(),
})

function present(row: AutomationRow, last: RunRow | undefined): Automation {
  return {
    id: row.id,
    name: row.name,
    instruction: row.instruction,
    schedule: row.schedule,
    trigger: row.trigger_event
      ? { type: 'event', event: row.trigger_event }
      : { type: 'schedule', schedule: row.schedule ?? '' },
    enabled: row.enabled,
    disabled_reason: row.enabled ? null : row.disabled_reason,
    next_run_at: row.enabled ? (row.next_run_at?.toISOString() ?? null) : null,
    last_run_at: row.last_run_at?.toISOString() ?? null,
    last_run: last ? presentRun(last) : null,
    unattended_tools: row.unattended_tools,
    created_by: row.created_by,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  }
}

const runsQuery = `
  select r.id, r.automation_id, r.slot, r.event_id, r.event_type, r.conversation_id, r.turn_id, r.status, r.error, r.created_at,
         t.status as turn_status
  from public.assistant_automation_runs r
  left join public.assistant_turns t on t.id = r.turn_id`

export async function listAutomations(ctx: ServiceContext): Promise<{ data: Automation[] }> {
  const { caller } = ctx
  return ctx.asTenant(async (tx) => {
    const rows = await tx<AutomationRow[]>`
      select * from public.assistant_automations where tenant_id = ${caller.tenantId}
      order by created_at desc, id desc limit 200`
    const last = await tx.unsafe<RunRow[]>(
      `select distinct on (r.automation_id) * from (${runsQuery} where r.tenant_id = $1) r
       order by r.automation_id, r.slot desc`,
      [caller.tenantId],
    )
    return {
      data: rows.map((r) =>
        present(
          r,
          last.find((l) => l.automation_id === r.id),
        ),
      ),
    }
  })
}

export async function listAutomationRuns(
  ctx: ServiceContext,
  id: string,
): Promise<{ data: AutomationRun[] }> {
  const { caller } = ctx
  return ctx.asTenant(async (tx) => {
    const [found] =
      await tx`select 1 from public.assistant_automations where id = ${id} and tenant_id = ${caller.tenantId}`
    if (!found) throw notFound('Automation')
    const runs = await tx.unsafe<RunRow[]>(
      `${runsQuery} where r.tenant_id = $1 and r.automation_id = $2 order by r.slot desc limit 100`,
      [caller.tenantId, id],
    )
    return { data: runs.map(presentRun) }
  })
}

/** The tool names once each, in the order given. */
const uniqueTools = (tools: readonly string[] | undefined): string[] => [...new Set(tools ?? [])]

function asAutomationLimit(err: unknown): never {
  if (isPgError(err, 'P0001') && String((err as Error).message).includes('automations'))
    throw new ServiceError(
      'CONFLICT',
      `A tenant has at most ${MAX_AUTOMATIONS} automations: delete one before adding another`,
    )
  throw err
}

export async function createAutomation(ctx: ServiceContext, input: AutomationInput): Promise<Automation> {
  const { caller } = ctx
  const now = ctx.clock.now()
  const t = triggerColumns(input, now)!
  const [row] = await ctx
    .asTenant(
      (tx) => tx<AutomationRow[]>`
      insert into public.assistant_automations
        (tenant_id, name, instruction, schedule, trigger_event, enabled, next_run_at, unattended_tools,
         created_by, created_at, updated_at)
      values (${caller.tenantId}, ${input.name}, ${input.instruction}, ${t.schedule}, ${t.event}, ${input.enabled ?? true},
              ${t.next}, ${uniqueTools(input.unattended_tools)}, ${caller.userId}, ${now}, ${now})
      returning *`,
    )
    .catch(asAutomationLimit)
    .catch(privilegeErrorAs('Only owners and admins manage automations'))
  return present(row!, undefined)
}

export async function updateAutomation(
  ctx: ServiceContext,
  id: string,
  input: AutomationPatch,
): Promise<Automation> {
  const { caller } = ctx
  const now = ctx.clock.now()
  const t = triggerColumns(input, now)
  const [row] = await ctx
    .asTenant(async (tx) => {
      if (input.enabled) {
        // It runs as its creator: turned on only while they may run it.
        const [creator] = await tx<{ role: string | null }[]>`
          select (select role from public.tenant_members m
                  where m.tenant_id = a.tenant_id and m.user_id = a.created_by) as role
          from public.assistant_automations a where a.id = ${id} and a.tenant_id = ${caller.tenantId}`
        if (creator && !managerRoles.some((r) => r === creator.role))
          throw new ServiceError(
            'CONFLICT',
            'This automation runs as the member who created it, who is no longer an owner or admin: create a new one',
          )
      }
      return tx<AutomationRow[]>`
      update public.assistant_automations set
        name = coalesce(${input.name ?? null}, name),
        instruction = coalesce(${input.instruction ?? null}, instruction),
        schedule = case when ${t !== null} then ${t?.schedule ?? null} else schedule end,
        trigger_event = case when ${t !== null} then ${t?.event ?? null} else trigger_event end,
        enabled = coalesce(${input.enabled ?? null}::boolean, enabled),
        unattended_tools = coalesce(${input.unattended_tools ? uniqueTools(input.unattended_tools) : null}::text[], unattended_tools),
        disabled_reason = case when ${input.enabled ?? null}::boolean then null else disabled_reason end,
        next_run_at = case when ${t !== null} then ${t?.next ?? null}::timestamptz else next_run_at end,
        updated_at = ${now}
      where id = ${id} and tenant_id = ${caller.tenantId}
      returning *`
    })
    .catch(privilegeErrorAs('Only owners and admins manage automations'))
  if (!row) throw notFound('Automation')
  // Turned on again after a pause: the next slot from now, not one that passed meanwhile.
  if (input.enabled && row.schedule && row.next_run_at && row.next_run_at < now) {
    const fresh = nextSlot(row.schedule, now)
    await ctx.asTenant(
      (tx) =>
        tx`update public.assistant_automations set next_run_at = ${fresh} where id = ${id} and tenant_id = ${caller.tenantId}`,
    )
    row.next_run_at = fresh
  }
  return present(row, undefined)
}

export async function deleteAutomation(ctx: ServiceContext, id: string): Promise<void> {
  const { caller } = ctx
  const rows = await ctx
    .asTenant(
      (tx) =>
        tx`delete from public.assistant_automations where id = ${id} and tenant_id = ${caller.tenantId} returning id`,
    )
    .catch(privilegeErrorAs('Only owners and admins manage automations'))
  if (rows.length === 0) throw notFound('Automation')
}
