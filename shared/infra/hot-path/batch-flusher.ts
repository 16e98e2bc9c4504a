import { FlushTimer } from '../background.ts'
import type { Logger } from '../logger.ts'

/** The longest a buffered write (request log, last_used_at) waits in memory. */
export const FLUSH_MS = 1000

/**
 * What a buffer of the hot path says about its own writes; the flusher does the rest.
 * `take` empties the buffer into batches (one statement each; none when nothing is due),
 * `write` sends one, `restore` puts back a batch whose write failed, for the next flush.
 */
export interface BatchWriter<B> {
  take(now: number | undefined): B[]
  write(batch: B): Promise<void>
  restore(batch: B): void
  /** The warning logged when a write fails, with what the batch held (never its rows). */
  failure: string
  describe?: (batch: B) => Record<string, unknown>
}

/**
 * The one way the hot path's buffers (last_used_at, the request log, usage counts) reach the
 * database: a flush `delayMs` after the first thing buffered since the last one, one flush under
 * way at a time (a flush asked for meanwhile runs after it, so what arrived since is not lost or
 * written twice), a failed batch put back and a flush scheduled to retry it, and on close the timer
 * dropped and everything written. `now` is passed through to `take` (the request log closes the
 * refusal windows of minutes that are over).
 */
export class BatchFlusher<B> {
  private readonly timer: FlushTimer
  private flushing: Promise<void> | null = null

  constructor(
    delayMs: number,
    private readonly writer: BatchWriter<B>,
    private readonly logger: Logger,
  ) {
    this.timer = new FlushTimer(delayMs, () => this.flush())
  }

  /** Something was buffered: flush within the delay. */
  schedule(): void {
    this.timer.schedule()
  }

  flush(now?: number): Promise<void> {
    if (this.flushing) return this.flushing.then(() => this.flush(now))
    const batches = this.writer.take(now)
    if (batches.length === 0) return Promise.resolve()
    this.flushing = (async () => {
      for (const batch of batches) {
        try {
          await this.writer.write(batch)
        } catch (err) {
          this.writer.restore(batch)
          this.logger.warn(this.writer.failure, { ...this.writer.describe?.(batch), error: String(err) })
          this.timer.schedule()
        }
      }
    })().finally(() => {
      this.flushing = null
    })
    return this.flushing
  }

  /** Writes what is buffered and stops the timer (shutdown). */
  async close(now?: number): Promise<void> {
    this.timer.cancel()
    await this.flush(now)
  }
}
