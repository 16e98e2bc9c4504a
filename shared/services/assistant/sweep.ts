import type { FunctionDeps } from '@shared/infra/deps.ts'
import { engineFor } from '@shared/infra/jobs/engine.ts'
import { expireApprovals } from './approvals.ts'
import { runDueAutomations, runEventAutomations } from './automation-dispatch.ts'
import { deleteOldTurnEvents } from './turn/event-log.ts'
import { turnJobKind } from './turn/index.ts'

/** The assistant's engine (turn jobs nobody streams) and its sweep, beside the automations it starts. */
const assistantEngine = engineFor(turnJobKind())

/**
 * The sweep: due automations (scheduled and event-started) start, expired approvals count as
 * denied, turns whose instance stopped are resumed (the engine claims jobs whose lease ran out),
 * turns whose job failed for good are marked failed, and stream events past their retention are
 * deleted.
 */
export async function sweepTurns(deps: FunctionDeps) {
  // Automations first: their turns run now, and the engine then finds nothing of theirs left.
  const scheduled = (await runDueAutomations(deps)) + (await runEventAutomations(deps))
  // Expired approvals before the engine runs: their turns go on as denied in this same sweep.
  await expireApprovals(deps)
  const report = await assistantEngine(deps).runDue()
  const now = deps.clock.now()
  const failed = await deps.sql`
    update public.assistant_turns t
    set status = 'failed', error = coalesce(j.error, 'the turn stopped without finishing'),
        finished_at = ${now}, updated_at = ${now}
    from public.jobs j
    where j.id = t.job_id and t.status = 'running' and j.status in ('failed', 'succeeded')
    returning t.id`
  await deleteOldTurnEvents(deps, now)
  return { ...report, failed: report.failed + failed.length, scheduled }
}
