import { BatchFlusher, type BatchWriter } from '@shared/infra/hot-path/batch-flusher.ts'
import { createLogger } from '@shared/infra/logger.ts'
import { describe, expect, it } from 'vitest'

/**
 * The flushing the hot path's three buffers share (last_used_at, the request log, usage counts):
 * their own tests (hot-path, request-log, usage) write through it to the database; these pin what
 * no database test reaches on demand: a flush asked for during a write, a write that fails, close.
 * The writer here is a list in memory: what is under test is the flusher, not a statement.
 */

interface Buffer {
  pending: number[]
  written: number[][]
  writesUnderWay: number
  mostAtOnce: number
  failNext: boolean
  release: (() => void) | null
  nows: (number | undefined)[]
  warnings: string[]
}

function bufferWithFlusher(delayMs: number) {
  const b: Buffer = {
    pending: [],
    written: [],
    writesUnderWay: 0,
    mostAtOnce: 0,
    failNext: false,
    release: null,
    nows: [],
    warnings: [],
  }
  const writer: BatchWriter<number[]> = {
    take: (now) => {
      b.nows.push(now)
      if (b.pending.length === 0) return []
      const batch = b.pending
      b.pending = []
      return [batch]
    },
    write: async (batch) => {
      b.writesUnderWay++
      b.mostAtOnce = Math.max(b.mostAtOnce, b.writesUnderWay)
      try {
        await new Promise<void>((resolve) => {
          b.release = resolve
        })
        if (b.failNext) {
          b.failNext = false
          throw new Error('refused')
        }
        b.written.push(batch)
      } finally {
        b.writesUnderWay--
      }
    },
    restore: (batch) => {
      b.pending = batch.concat(b.pending)
    },
    failure: 'test flush failed',
    describe: (batch) => ({ items: batch.length }),
  }
  const logger = createLogger('warn', { write: (_level, line) => b.warnings.push(line) })
  return { b, flusher: new BatchFlusher(delayMs, writer, logger) }
}

/** Polls until `done` (bounded), releasing each write as it starts. */
async function until(b: Buffer, done: () => boolean): Promise<void> {
  const deadline = performance.now() + 2000
  while (!done()) {
    if (performance.now() > deadline) throw new Error('not reached within 2 s')
    b.release?.()
    b.release = null
    await new Promise((r) => setTimeout(r, 1))
  }
}

describe('batch flusher', () => {
  it('runs one write at a time: a flush asked for during one writes what came meanwhile, after it', async () => {
    const { b, flusher } = bufferWithFlusher(60_000)
    b.pending.push(1, 2)
    const first = flusher.flush()
    b.pending.push(3)
    const second = flusher.flush()
    await until(b, () => b.written.length === 2)
    await Promise.all([first, second])
    expect(b.written).toEqual([[1, 2], [3]])
    expect(b.mostAtOnce).toBe(1)
  })

  it('puts a failed batch back, says so, and writes it at the retry it schedules', async () => {
    const { b, flusher } = bufferWithFlusher(5)
    b.pending.push(1, 2)
    b.failNext = true
    const failed = flusher.flush()
    b.pending.push(3)
    await until(b, () => b.warnings.length === 1)
    await failed
    expect(b.warnings[0]).toContain('test flush failed')
    expect(b.warnings[0]).toContain('"items":2')
    // No flush is asked for: the retry comes from the flusher's own timer, older rows first.
    await until(b, () => b.written.length === 1)
    expect(b.written).toEqual([[1, 2, 3]])
    await flusher.close()
  })

  it('on close writes what is buffered at once, with the time it is given', async () => {
    const { b, flusher } = bufferWithFlusher(60_000)
    b.pending.push(7)
    flusher.schedule()
    const closed = flusher.close(Number.POSITIVE_INFINITY)
    await until(b, () => b.written.length === 1)
    await closed
    expect(b.nows).toEqual([Number.POSITIVE_INFINITY])
  })
})
