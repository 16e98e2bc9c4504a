/**
 * PGlite served over the PostgreSQL wire protocol, for many concurrent clients (postgres.js pools,
 * psql). PGLiteSocketServer is not used: it interleaves connections one message at a time, so one
 * connection's Parse/Bind/Execute/Sync gets split by another's (`portal "" does not exist`).
 *
 * PGlite is a single backend, so here connections take turns owning it. A connection owns the
 * database from its first message until it reaches a Sync or simple Query with no transaction
 * open; the others wait in FIFO order. Ownership therefore spans Flush round trips (postgres.js
 * sends Parse/Describe/Flush, waits for the parameter types, then Bind/Execute/Sync) and whole
 * BEGIN ... COMMIT transactions. While a client owns the database the `db` handle returned here is
 * locked as well (db.query waits like any other connection). A client that stalls mid-transaction
 * stalls everyone, and a transaction that waits on another connection deadlocks: keep them short.
 *
 * Session state is SHARED by every connection (one backend): `set`, `set role`, temp tables,
 * advisory locks and startup parameters leak between clients. Callers must use `set local` /
 * `set_config(name, value, true)` inside a transaction. Named prepared statements are fine
 * (postgres.js names them randomly per connection); they are closed when their connection ends.
 */
import { createServer, type Socket } from 'node:net'
import { PGlite } from '@electric-sql/pglite'

const SSL_REQUEST = 80877103
const GSSENC_REQUEST = 80877104
const CANCEL_REQUEST = 80877102

interface Job {
  bytes: Buffer
  /** Ends at Sync or Query: ownership may be released afterwards. Flush-ended batches keep it. */
  boundary: boolean
  /** The connection is gone: clean up after it instead of running bytes. */
  end?: boolean
}

interface Conn {
  socket: Socket
  buf: Buffer
  started: boolean
  ended: boolean
  pending: Buffer[]
  jobs: Job[]
  atBoundary: boolean
  statements: Set<string>
}

function message(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(5)
  head.write(type, 0, 'latin1')
  head.writeInt32BE(4 + body.length, 1)
  return Buffer.concat([head, body])
}
const cstring = (s: string) => Buffer.from(`${s}\0`)
const query = (sql: string) => message('Q', cstring(sql))
const SYNC = message('S', Buffer.alloc(0))

// PGlite cannot do COPY FROM STDIN over the wire: it answers CopyInResponse, finds no CopyData in
// the batch, treats that as the client hanging up and exits the backend (the whole instance then
// hangs). Such statements are swapped for one that fails with a clear error.
const COPY_FROM_STDIN = /\bcopy\b[\s\S]*?\bfrom\s+stdin\b/i
const COPY_REFUSAL = `do $$ begin raise exception 'COPY FROM STDIN is not supported by the embedded PGlite server'; end $$`

export interface EmbeddedPostgres {
  db: PGlite
  port: number
  url: string
  /** Hangs up on every client (open transactions roll back), then shuts PGlite down cleanly. */
  stop(): Promise<void>
}

/** dataDir undefined: in memory. port 0: an ephemeral port. host defaults to 127.0.0.1. */
export async function startEmbeddedPostgres(
  opts: { dataDir?: string; port?: number; host?: string } = {},
): Promise<EmbeddedPostgres> {
  const host = opts.host ?? '127.0.0.1'
  const db = await PGlite.create(opts.dataDir ?? 'memory://')

  // Scheduler state. `owner` holds db's own mutex for its whole turn (see lock()).
  let owner: Conn | null = null
  const ready: Conn[] = []
  let pumping = false
  let unlock = () => {}
  const lock = () =>
    new Promise<void>((locked) => {
      void db.runExclusive(
        () =>
          new Promise<void>((release) => {
            unlock = release
            locked()
          }),
      )
    })

  // execProtocolRawStream keeps its onRawData callback after it returns, so always pass this one
  // and point it at the current connection; stray output never reaches a stale socket.
  let sink: ((data: Buffer) => void) | null = null
  const onRawData = (data: Uint8Array) => sink?.(Buffer.from(data)) // copy: data views wasm memory
  const exec = (bytes: Buffer) => db.execProtocolRawStream(bytes, { onRawData })

  async function run(conn: Conn, job: Job) {
    if (!db.ready) return // stop() has begun closing PGlite: nothing more runs
    try {
      if (!job.end) {
        sink = (data) => conn.socket.writable && conn.socket.write(data)
        // PGlite hands its output over a message or a few at a time: corked, the batch's answer
        // leaves in one write instead of a system call per piece.
        conn.socket.cork()
        try {
          await exec(job.bytes)
        } finally {
          conn.socket.uncork()
        }
        conn.atBoundary = job.boundary
        return
      }
      sink = null // the client is gone: discard everything below
      // Abort whatever it left behind. Mid extended-protocol, PGlite may be skipping to Sync and
      // ignore the first ROLLBACK; the Sync ends that, the second ROLLBACK then gets through.
      if (!conn.atBoundary || db.isInTransaction()) await exec(Buffer.concat([query('rollback'), SYNC]))
      if (db.isInTransaction()) await exec(query('rollback'))
      const closes = [...conn.statements].map((name) =>
        message('C', Buffer.concat([Buffer.from('S'), cstring(name)])),
      )
      if (closes.length) await exec(Buffer.concat([...closes, SYNC]))
    } catch (err) {
      console.error('embedded-postgres: PGlite failed on a client batch', err)
      conn.socket.destroy()
    } finally {
      sink = null
    }
  }

  // The owner's queued batches run as one: a pipelining client (BEGIN; statements; COMMIT sent
  // at once) then costs one call into PGlite rather than one per statement. A disconnect runs alone.
  function nextBatch(conn: Conn): Job | undefined {
    const first = conn.jobs.shift()
    if (!first || first.end) return first
    const batch = [first]
    while (conn.jobs[0] && !conn.jobs[0].end) batch.push(conn.jobs.shift()!)
    return { bytes: Buffer.concat(batch.map((j) => j.bytes)), boundary: batch.at(-1)!.boundary }
  }

  // One loop runs batches: the owner's while it has any, otherwise the next waiting connection.
  async function pump() {
    if (pumping) return
    pumping = true
    try {
      for (;;) {
        if (!owner) {
          const next = ready.shift()
          if (!next) break
          owner = next
          await lock()
        }
        const job = nextBatch(owner)
        if (!job) break // the owner's client has not sent its next batch yet; others keep waiting
        await run(owner, job)
        if (job.end || (job.boundary && (!db.ready || !db.isInTransaction()))) {
          const done = owner
          owner = null
          unlock()
          if (done.jobs.length) ready.push(done)
        }
      }
    } finally {
      pumping = false
    }
  }

  function enqueue(conn: Conn, job: Job) {
    conn.jobs.push(job)
    if (conn !== owner && !ready.includes(conn)) ready.push(conn)
    void pump()
  }

  function end(conn: Conn) {
    if (conn.ended) return
    conn.ended = true
    conn.pending = [] // an unfinished batch is dropped, as a server drops it on disconnect
    enqueue(conn, { bytes: Buffer.alloc(0), boundary: true, end: true })
  }

  // Frames the client's byte stream into startup packets and typed messages, batched up to each
  // Sync, Query or Flush (the points where a client waits for an answer).
  function onData(conn: Conn, chunk: Buffer) {
    const buf = conn.buf.length ? Buffer.concat([conn.buf, chunk]) : chunk
    let off = 0
    while (!conn.ended) {
      if (!conn.started) {
        if (buf.length - off < 8) break
        const len = buf.readInt32BE(off)
        const code = buf.readInt32BE(off + 4)
        if (len < 8 || len > 10_000) return void conn.socket.destroy()
        if (buf.length - off < len) break
        const packet = buf.subarray(off, off + len)
        off += len
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
          conn.socket.write('N') // no encryption; the client carries on in plain text
          continue
        }
        // Protocol 3.x startup: PGlite answers it itself. A CancelRequest (unsupported) or anything
        // else: hang up, which is what a canceller expects anyway.
        if (code >> 16 !== 3 || code === CANCEL_REQUEST) return void conn.socket.destroy()
        conn.started = true
        enqueue(conn, { bytes: Buffer.from(packet), boundary: true })
        continue
      }
      if (buf.length - off < 5) break
      const type = String.fromCharCode(buf[off] ?? 0)
      const len = buf.readInt32BE(off + 1)
      if (len < 4) return void conn.socket.destroy()
      if (buf.length - off < 1 + len) break
      let msg = buf.subarray(off, off + 1 + len)
      off += 1 + len
      if (type === 'X') {
        end(conn)
        conn.socket.end()
        break
      }
      if (type === 'P' || type === 'Q') {
        const nameEnd = type === 'P' ? msg.indexOf(0, 5) : 4
        const sql = msg.subarray(nameEnd + 1, msg.indexOf(0, nameEnd + 1)).toString()
        if (type === 'P' && nameEnd > 5) conn.statements.add(msg.subarray(5, nameEnd).toString())
        if (COPY_FROM_STDIN.test(sql)) {
          msg =
            type === 'Q'
              ? query(COPY_REFUSAL)
              : message(
                  'P',
                  Buffer.concat([msg.subarray(5, nameEnd + 1), cstring(COPY_REFUSAL), Buffer.alloc(2)]),
                )
        }
      }
      if (type === 'C' && msg[5] === 0x53) conn.statements.delete(msg.subarray(6, msg.length - 1).toString())
      conn.pending.push(msg)
      if (type === 'S' || type === 'Q' || type === 'H') {
        enqueue(conn, { bytes: Buffer.concat(conn.pending), boundary: type !== 'H' })
        conn.pending = []
      }
    }
    // Keep only the unparsed tail (copied, so the big chunk it came from can be freed).
    conn.buf = Buffer.from(buf.subarray(off))
  }

  const conns = new Set<Conn>()
  const server = createServer((socket) => {
    const conn: Conn = {
      socket,
      buf: Buffer.alloc(0),
      started: false,
      ended: false,
      pending: [],
      jobs: [],
      atBoundary: true,
      statements: new Set(),
    }
    conns.add(conn)
    socket.setNoDelay(true)
    socket.on('data', (chunk) => onData(conn, chunk as Buffer)) // no encoding set: always a Buffer
    socket.on('error', () => {}) // 'close' follows and does the cleanup
    socket.on('close', () => {
      conns.delete(conn)
      end(conn)
    })
  })

  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject)
    server.listen(opts.port ?? 0, host, () => resolve((server.address() as { port: number }).port))
  }).catch(async (err) => {
    await db.close()
    throw err
  })

  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host
  let stopping: Promise<void> | undefined
  return {
    db,
    port,
    url: `postgres://postgres@${urlHost}:${port}/postgres`,
    stop() {
      stopping ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()))
        for (const conn of conns) conn.socket.destroy()
        await closed
        // db.close() takes db's mutex, so it waits for the current owner's rollback to finish;
        // batches still queued after that are skipped (run() checks db.ready).
        await db.close()
      })()
      return stopping
    },
  }
}
