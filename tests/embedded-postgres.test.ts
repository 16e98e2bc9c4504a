import { mkdtempSync, rmSync } from 'node:fs'
import { connect, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import postgres from 'postgres'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type EmbeddedPostgres, startEmbeddedPostgres } from '../local-platform/embedded-postgres.ts'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const client = (url: string, max: number, prepare = true) =>
  postgres(url, { max, prepare, onnotice: () => {} })

/** A bare protocol client, to hang up at moments postgres.js never would. */
async function rawClient(port: number) {
  const socket: Socket = connect(port, '127.0.0.1')
  let received = Buffer.alloc(0)
  socket.on('data', (d: Buffer) => (received = Buffer.concat([received, d])))
  const message = (type: string, body: Buffer) => {
    const head = Buffer.alloc(5)
    head.write(type, 0, 'latin1')
    head.writeInt32BE(4 + body.length, 1)
    return Buffer.concat([head, body])
  }
  const untilReady = async () => {
    // Wait for a ReadyForQuery ('Z') at the end of what has arrived so far.
    while (!(received.length >= 6 && received[received.length - 6] === 0x5a)) await sleep(5)
    received = Buffer.alloc(0)
  }
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()))
  const params = Buffer.from('user\0postgres\0database\0postgres\0\0')
  const startup = Buffer.alloc(8)
  startup.writeInt32BE(8 + params.length, 0)
  startup.writeInt32BE(196608, 4)
  socket.write(Buffer.concat([startup, params]))
  await untilReady()
  return {
    socket,
    query: async (sql: string) => {
      socket.write(message('Q', Buffer.from(`${sql}\0`)))
      await untilReady()
    },
    /** Parse + Flush only: leaves the connection mid extended-protocol sequence. */
    parseAndFlush: async (sql: string) => {
      received = Buffer.alloc(0)
      socket.write(
        Buffer.concat([message('P', Buffer.from(`\0${sql}\0\0\0`)), message('H', Buffer.alloc(0))]),
      )
      while (received.length === 0) await sleep(5)
    },
  }
}

describe('embedded postgres (in memory)', () => {
  let pg: EmbeddedPostgres

  beforeAll(async () => {
    pg = await startEmbeddedPostgres({ port: 0 })
    expect(pg.url).toBe(`postgres://postgres@127.0.0.1:${pg.port}/postgres`)
    await pg.db.exec('create table t (id serial primary key, v int not null)')
  })
  afterAll(async () => {
    await pg.stop()
  })

  it('serves many concurrent pooled connections without interleaving their messages', async () => {
    await pg.db.exec('truncate t')
    // Unprepared queries use the unnamed statement across a Parse/Describe/Flush round trip.
    const clients = [true, false, true].map((prepare) => client(pg.url, 5, prepare))
    const errors: unknown[] = []
    let mismatches = 0
    let inserts = 0
    await Promise.all(
      clients.flatMap((sql, c) =>
        Array.from({ length: 300 }, async (_, i) => {
          try {
            if (i % 3 === 0) {
              inserts++
              const seen = await sql.begin(async (tx) => {
                await tx`select set_config('request.x', ${`${c}:${i}`}, true)`
                await tx`insert into t (v) values (${i})`
                const [row] = await tx`select current_setting('request.x') as x`
                return row?.x
              })
              if (seen !== `${c}:${i}`) mismatches++
            } else if (i % 7 === 0) {
              await sql`select 1/0`.then(
                () => mismatches++,
                (err: { code?: string }) => err.code === '22012' || errors.push(err),
              )
              const [row] = await sql`select ${i}::int as n`
              if (row?.n !== i) mismatches++
            } else {
              const [row] =
                await sql`select ${i}::int + ${c}::int as n, current_setting('request.x', true) as x`
              if (row?.n !== i + c) mismatches++
              // A transaction-local setting never leaks out of its transaction.
              if (row?.x) mismatches++
            }
          } catch (err) {
            errors.push(err)
          }
        }),
      ),
    )
    const [count] = await clients[0]!`select count(*)::int as n from t`
    await Promise.all(clients.map((sql) => sql.end()))
    expect(errors).toEqual([])
    expect(mismatches).toBe(0)
    expect(count?.n).toBe(inserts)
  })

  it('never interleaves another connection into an open transaction', async () => {
    await pg.db.exec('truncate t')
    const a = client(pg.url, 1)
    const b = client(pg.url, 1)
    await Promise.all([a`select 1`, b`select 1`]) // both connected before the race starts
    let committed = false
    const txA = a.begin(async (tx) => {
      await tx`insert into t (v) values (1)`
      await sleep(50)
      committed = true
    })
    await sleep(10) // A is inside its transaction now
    const [row] = await b`select count(*)::int as n from t`
    await txA
    expect([0, 1]).toContain(row?.n)
    // B had to wait for A's turn to end, so it ran after the commit.
    expect(committed).toBe(true)
    await Promise.all([a.end(), b.end()])
  })

  it('rolls back and releases a client that disconnects mid-transaction', async () => {
    await pg.db.exec('truncate t')
    const raw = await rawClient(pg.port)
    await raw.query('begin; insert into t (v) values (42)')
    const sql = client(pg.url, 2)
    const counting = sql`select count(*)::int as n from t` // queued behind the open transaction
    await sleep(20)
    raw.socket.destroy()
    const [row] = await counting
    expect(row?.n).toBe(0)
    expect(pg.db.isInTransaction()).toBe(false)
    await sql.end()
  })

  it('recovers from a client that hangs up mid extended-protocol sequence after an error', async () => {
    const raw = await rawClient(pg.port)
    await raw.parseAndFlush('select from nowhere_at_all') // error: PGlite now skips until Sync
    raw.socket.destroy()
    const sql = client(pg.url, 1)
    const [row] = await sql`select ${7}::int as n`
    expect(row?.n).toBe(7)
    await sql.end()
  })

  it('refuses COPY FROM STDIN instead of crashing PGlite', async () => {
    const sql = client(pg.url, 1)
    await expect(sql.unsafe('copy t (v) from stdin')).rejects.toThrow(/COPY FROM STDIN is not supported/)
    const [row] = await sql`select 1 as n`
    expect(row?.n).toBe(1)
    await sql.end()
  })
})

describe('embedded postgres (data directory)', () => {
  it('keeps data across stop and start', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'embedded-pg-'))
    try {
      const first = await startEmbeddedPostgres({ dataDir, port: 0 })
      const sql = client(first.url, 2)
      await sql`create table kept (v text)`
      await sql`insert into kept values ('survives')`
      await sql.end()
      await first.stop()

      const second = await startEmbeddedPostgres({ dataDir, port: 0 })
      const again = client(second.url, 1)
      const rows = await again`select v from kept`
      await again.end()
      await second.stop()
      expect(rows.map((r) => r.v)).toEqual(['survives'])
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
