/**
 * Work that continues after the response. On Supabase's edge runtime, EdgeRuntime.waitUntil keeps
 * the worker alive until the task settles; on Node (the local platform, tests) a pending promise
 * keeps running by itself. The task must not reject: handle its errors inside.
 */
export function runInBackground(task: Promise<unknown>): void {
  const runtime = (globalThis as { EdgeRuntime?: { waitUntil?: (p: Promise<unknown>) => void } }).EdgeRuntime
  if (typeof runtime?.waitUntil === 'function') runtime.waitUntil(task)
}

/**
 * Runs `flush` once, `delayMs` after the first schedule() since the last run (further calls meanwhile
 * change nothing): for writes buffered in memory. The timer does not keep a Node process alive; on
 * the edge runtime the worker stays alive until that flush has settled. `flush` must not reject.
 */
export class FlushTimer {
  private timer: ReturnType<typeof setTimeout> | null = null
  private settle: (() => void) | null = null

  constructor(
    private readonly delayMs: number,
    private readonly flush: () => Promise<void>,
  ) {}

  schedule(): void {
    if (this.timer) return
    const done = new Promise<void>((resolve) => {
      this.settle = resolve
    })
    this.timer = setTimeout(() => {
      this.timer = null
      const settle = this.settle
      this.settle = null
      void this.flush().finally(() => settle?.())
    }, this.delayMs)
    ;(this.timer as { unref?: () => void }).unref?.()
    runInBackground(done)
  }

  /** Drops a pending run (the caller flushes itself, at shutdown). */
  cancel(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    this.settle?.()
    this.settle = null
  }
}
