import { runInBackground } from '@shared/infra/background.ts'
import type { FunctionDeps } from '@shared/infra/deps.ts'
import { runEventAutomations } from './automation-dispatch.ts'

/**
 * An event's automation runs start at once, not at the next sweep (issue 47, docs/adr/0038).
 *
 * The fan-out trigger writes a pending run per (automation, event) in the event's transaction.
 * After that commits, something must claim it: on Supabase the database does, through a pg_net
 * trigger that calls the assistant's `jobs/start-event-runs` (pg_net sends after commit); locally
 * and on any server without pg_net, the process that wrote the event does, through
 * `onOutboxCommitted` (local-platform/server.ts). The claim is runEventAutomations' (pending to
 * started under FOR UPDATE SKIP LOCKED), so a kick, the sweep and other instances racing for the
 * same run start it once; a kick that is lost (the instance stopped) leaves the run to the sweep.
 */
export async function startEventRuns(deps: FunctionDeps): Promise<number> {
  let started = 0
  // A run's turn may write events that queue further runs (chains are bounded by ADR 0030):
  // keep claiming while a pass found something, at most a few passes per kick.
  for (let pass = 0; pass < 5; pass++) {
    const n = await runEventAutomations(deps)
    started += n
    if (n === 0) break
  }
  return started
}

/** Whether any committed event waits for its run: one index probe, so an idle kick costs little. */
async function pendingEventRuns(deps: Pick<FunctionDeps, 'sql'>): Promise<boolean> {
  const [row] = await deps.sql<{ pending: boolean }[]>`
    select exists (select 1 from public.assistant_automation_runs where status = 'pending') as pending`
  return row?.pending ?? false
}

/** Kick passes one process runs at once: each waits for the turns it started (runTurnNow). */
const MAX_PASSES = 4

/**
 * The in-process kick: starts pending event runs without waiting. A pass runs the turns it
 * starts before it ends, so a kick while passes run starts another (up to MAX_PASSES, the
 * claim keeps them apart); past that, the last pass to end looks again. Never throws; errors
 * are logged, and the sweep starts what a failed kick left.
 */
export function eventRunsKicker(deps: FunctionDeps): () => void {
  let passes = 0
  let again = false
  const pass = async (): Promise<void> => {
    passes++
    try {
      do {
        again = false
        if (await pendingEventRuns(deps)) await startEventRuns(deps)
      } while (again && passes === 1)
    } catch (err) {
      deps.logger.warn('automation run kick failed; the sweep will start the runs', { error: String(err) })
    } finally {
      passes--
    }
  }
  return () => {
    if (passes >= MAX_PASSES) {
      again = true
      return
    }
    runInBackground(pass())
  }
}
