/**
 * Work that continues after the response. On Supabase's edge runtime, EdgeRuntime.waitUntil keeps
 * the worker alive until the task settles; on Node (the local platform, tests) a pending promise
 * keeps running by itself. The task must not reject: handle its errors inside.
 */
export function runAfterResponse(task: Promise<void>): void {
  const runtime = (globalThis as { EdgeRuntime?: { waitUntil?: (p: Promise<unknown>) => void } }).EdgeRuntime
  runtime?.waitUntil?.(task)
}
