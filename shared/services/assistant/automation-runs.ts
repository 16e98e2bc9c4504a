import type { TenantCaller } from '@shared/infra/caller.ts'
import type { Queryable } from '@shared/infra/db.ts'
import type { ToolEntry } from '@shared/services/tools/tool-set.ts'

/**
 * What a turn needs to know about the automation run it belongs to (docs/adr/0030): the run, so the
 * events its tool calls record carry it as their cause, and for a run an event started, which
 * write tools its automation's owner lets run without approval.
 */
export interface AutomationRunOfTurn {
  id: string
  automationId: string
  /** Started by an event (its data came from whoever made the change), not by the schedule. */
  eventStarted: boolean
  /** Write tools (REST names) that run unattended in this automation's event-started runs. */
  unattendedTools: ReadonlySet<string>
}

/**
 * The run whose turn this is (each run has a conversation of its own, recorded before its turn
 * starts), or null for a conversation's turn. Through the owner pool (the job's side).
 */
export async function automationRunOfTurn(
  db: Queryable,
  turn: { conversation_id: string; tenant_id: string },
): Promise<AutomationRunOfTurn | null> {
  const [row] = await db<
    { id: string; automation_id: string; event_id: string | null; unattended_tools: string[] }[]
  >`
    select r.id, r.automation_id, r.event_id, a.unattended_tools
    from public.assistant_automation_runs r
    join public.assistant_automations a on a.id = r.automation_id
    where r.conversation_id = ${turn.conversation_id} and r.tenant_id = ${turn.tenant_id}`
  if (!row) return null
  return {
    id: row.id,
    automationId: row.automation_id,
    eventStarted: row.event_id !== null,
    unattendedTools: new Set(row.unattended_tools),
  }
}

/** The caller for the run's tool calls: the same person, with the run named in the claims. */
export function callerForRun(caller: TenantCaller, run: AutomationRunOfTurn | null): TenantCaller {
  if (!run) return caller
  return { ...caller, claims: { ...caller.claims, automation_run_id: run.id } }
}

/** A tool that changes something: anything not marked read-only (an MCP server's unmarked tool included). */
const isWriteTool = (entry: ToolEntry): boolean => entry.annotations?.readOnlyHint !== true

/**
 * Whether a call waits for approval because its run was started by an event: the event's data may
 * carry text anyone with write access wrote, and the run acts as an owner or admin, so its write
 * tools wait unless the automation's owner turned that off for the tool.
 */
export function waitsInEventRun(run: AutomationRunOfTurn | null, entry: ToolEntry | undefined): boolean {
  return Boolean(run?.eventStarted && entry && isWriteTool(entry) && !run.unattendedTools.has(entry.name))
}
