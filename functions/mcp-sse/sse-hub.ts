import { isTransactionPooler, type Sql } from '@shared/infra/db.ts'
import type { FunctionDeps } from '@shared/infra/deps.ts'
import { ServiceError } from '@shared/infra/errors.ts'
import postgres from 'postgres'

/**
 * The HTTP+SSE transport across instances. The instance serving a session's GET /sse stream
 * holds it here; a POST on any instance stores its JSON-RPC answer in private.mcp_sse_messages
 * and calls pg_notify('mcp_sse', '<session id>'). The holder LISTENs on one session-mode
 * connection per instance (shared by all its streams) and drains the session's rows with one
 * DELETE ... RETURNING, so each message is written to its stream exactly once. A poll of the
 * held sessions backs LISTEN up: every 2 s while LISTEN works (proved by a probe notification),
 * every 100 ms where it cannot (the transaction pooler, embedded PGlite).
 */

const SSE_CHANNEL = 'mcp_sse'
const POLL_HEALTHY_MS = 2000
const POLL_FALLBACK_MS = 100

export interface HeldStream {
  tenantId: string
  /** Writes one JSON-RPC message as an SSE `message` event. */
  send(payload: unknown): void
}

export class SseHub {
  readonly instanceId = crypto.randomUUID()
  private readonly streams = new Map<string, HeldStream>()
  private listening: Promise<void> | null = null
  private listenSql: Sql | null = null
  private listenHealthy = false
  private probe = crypto.randomUUID()
  private pollTimer: ReturnType<typeof setTimeout> | null = null
  private draining = new Set<string>()
  private redo = new Set<string>()

  constructor(private readonly deps: FunctionDeps) {}

  get held(): number {
    return this.streams.size
  }

  hold(sessionId: string, stream: HeldStream): void {
    this.streams.set(sessionId, stream)
    this.listen()
    this.schedulePoll()
  }

  release(sessionId: string): void {
    this.streams.delete(sessionId)
  }

  /** Stores a message for a session's stream (wherever it is held) and wakes the holder. */
  async deliver(sessionId: string, tenantId: string, payload: unknown): Promise<void> {
    const { sql } = this.deps
    try {
      await sql.begin(async (tx) => {
        await tx`insert into private.mcp_sse_messages (session_id, tenant_id, payload)
                 values (${sessionId}, ${tenantId}, ${tx.json(payload as never)})`
        await tx`select pg_notify(${SSE_CHANNEL}, ${sessionId})`
      })
    } catch (err) {
      // The stream ended (and its session went) while this message was being handled.
      if (err instanceof postgres.PostgresError && err.code === '23503')
        throw new ServiceError('NOT_FOUND', 'Unknown or expired session')
      throw err
    }
    // Held here: no need to wait for the notification.
    if (this.streams.has(sessionId)) void this.drain([sessionId])
  }

  private listen(): void {
    if (this.listening) return
    const url = this.deps.config.MCP_LISTEN_DATABASE_URL ?? this.deps.config.DATABASE_URL
    // A transaction pooler (Supabase's on port 6543, PgBouncer in CI) cannot LISTEN: poll only.
    if (!this.deps.config.MCP_LISTEN_DATABASE_URL && isTransactionPooler(url)) {
      this.listening = Promise.resolve()
      return
    }
    this.listenSql = this.deps.config.MCP_LISTEN_DATABASE_URL
      ? postgres(url, { max: 1, onnotice: () => {}, connection: { application_name: 'tool-server-listen' } })
      : this.deps.sql
    this.listening = this.listenSql
      .listen(
        SSE_CHANNEL,
        (payload) => {
          if (payload === this.probe) {
            this.listenHealthy = true
            return
          }
          if (this.streams.has(payload)) void this.drain([payload])
        },
        () => {
          // (Re)connected: prove that notifications arrive on this database.
          this.deps.sql`select pg_notify(${SSE_CHANNEL}, ${this.probe})`.catch(() => {})
        },
      )
      .then(
        () => {},
        (err) => this.deps.logger.warn('mcp sse: LISTEN failed, polling', { error: String(err) }),
      )
  }

  private schedulePoll(): void {
    if (this.pollTimer || this.streams.size === 0) return
    const wait = this.listenHealthy ? POLL_HEALTHY_MS : POLL_FALLBACK_MS
    this.pollTimer = setTimeout(async () => {
      this.pollTimer = null
      if (this.streams.size === 0) return
      await this.drain([...this.streams.keys()])
      this.schedulePoll()
    }, wait)
    // Never keep a process alive for the poll alone.
    ;(this.pollTimer as { unref?: () => void }).unref?.()
  }

  private async drain(sessionIds: string[]): Promise<void> {
    const ids: string[] = []
    for (const id of sessionIds) {
      // A drain already running for this session may have read before this message committed.
      if (this.draining.has(id)) this.redo.add(id)
      else ids.push(id)
    }
    if (ids.length === 0) return
    for (const id of ids) this.draining.add(id)
    try {
      const rows = await this.deps.sql<{ session_id: string; payload: unknown }[]>`
        with taken as (
          delete from private.mcp_sse_messages where session_id = any(${ids}::uuid[])
          returning id, session_id, payload
        )
        select session_id, payload from taken order by id`
      for (const row of rows) this.streams.get(row.session_id)?.send(row.payload)
    } catch (err) {
      this.deps.logger.warn('mcp sse: drain failed', { error: String(err) })
    } finally {
      for (const id of ids) this.draining.delete(id)
    }
    const again = ids.filter((id) => this.redo.delete(id) && this.streams.has(id))
    if (again.length > 0) await this.drain(again)
  }
}

const hubs = new WeakMap<FunctionDeps, SseHub>()

/** One hub per function instance (its deps). */
export function hubFor(deps: FunctionDeps): SseHub {
  let hub = hubs.get(deps)
  if (!hub) {
    hub = new SseHub(deps)
    hubs.set(deps, hub)
  }
  return hub
}
