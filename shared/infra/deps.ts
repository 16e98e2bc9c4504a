import type { TenantCaller } from './caller.ts'
import type { Config } from './config.ts'
import { type Queryable, readAsTenant, type Sql, type Tx, withTenant } from './db.ts'
import type { JwtVerifier } from './jwt.ts'
import type { Logger } from './logger.ts'
import type { Notifier } from './notifier.ts'
import type { GuardedFetch } from './outbound.ts'
import type { Vault } from './vault.ts'

export interface Clock {
  now(): Date
}

export const systemClock: Clock = { now: () => new Date() }

/**
 * Everything a function app needs from the outside world. Apps are factories over this, so the
 * Deno entry, the local platform and the tests build the same app with their own parts
 * (a fixed clock, a loopback-permitting fetch).
 */
export interface FunctionDeps {
  config: Config
  sql: Sql
  vault: Vault
  clock: Clock
  /** Outbound HTTP through the SSRF policy; never the global fetch. */
  fetch: GuardedFetch
  logger: Logger
  notifier: Notifier
  jwt: JwtVerifier
  /**
   * Called after a transaction that wrote to the event outbox commits, so an in-process
   * dispatcher can deliver at once instead of at its next poll. Optional: other instances
   * pick the events up by polling.
   */
  onOutboxCommitted?: () => void
  /**
   * How Storage (SUPABASE_URL/storage/v1) is called: the guarded fetch by default; the local
   * platform hands its own handler in, so the functions reach its /storage/v1 in process.
   */
  storageFetch?: typeof fetch
}

/**
 * FunctionDeps without the pool: for helpers that call out (fetch, vault, clock, config) and read
 * no table, so a ServiceContext can be handed to them as it is.
 */
export type DepsWithoutDatabase = Omit<FunctionDeps, 'sql'>

/** Brands the owner pool that the job engine hands to a job handler; nothing else can name it. */
declare const jobPool: unique symbol

/**
 * The owner pool as a job handler holds it. A job runs for no signed-in caller, so it cannot act as
 * a tenant until it has loaded one; its statements are scoped by the job's `tenant_id`. Only the job
 * engine (shared/infra/jobs/engine.ts) gives out this type: a request's `FunctionDeps.sql` is not
 * assignable to it, so a helper that takes `JobDeps` can only be reached from a job.
 */
type JobPool = Sql & { readonly [jobPool]: true }

/**
 * What a job handler runs with: FunctionDeps whose pool is typed as the job's. Its uses are exempt
 * from the owner-handle allow-list by type, as infrastructure is (docs/adr/0013). It is assignable to
 * FunctionDeps, so a handler passes it on to anything that takes those.
 */
export interface JobDeps extends DepsWithoutDatabase {
  sql: JobPool
}

/**
 * What a service operation runs with: the function's dependencies and the tenant caller it acts
 * for. REST handlers, tool calls, server functions and jobs build one and call the same service.
 *
 * It has no `sql`. The everyday handle is the tenant one: `asTenant` and `readAsTenant` run as
 * role `authenticated` with the caller's claims, so row-level security decides what is visible.
 * The owner pool, which bypasses RLS, is `asOwner`, and every use of it in a service or a
 * function is on the allow-list in tests/checks/owner-handle-allow-list.test.ts with its reason
 * (docs/adr/0013-tenant-and-owner-handles.md).
 */
export interface ServiceContext extends DepsWithoutDatabase {
  caller: TenantCaller
  /** A transaction as role `authenticated` with the caller's claims (RLS applies). */
  asTenant<T>(fn: (tx: Tx) => Promise<T>): Promise<T>
  /** One read as the caller in a single round trip (BEGIN, claims, query, COMMIT pipelined). */
  readAsTenant<T>(query: (q: Queryable) => Promise<T>): Promise<T>
  /**
   * The owner pool: bypasses row-level security. Only where the tenant role cannot do the work
   * (secret columns, rows of no tenant yet); each use is allow-listed with its reason.
   */
  asOwner: Sql
}

export function serviceContextFor(deps: FunctionDeps, caller: TenantCaller): ServiceContext {
  const sql = deps.sql
  // Named one by one rather than `const { sql, ...rest } = deps; { ...rest }`: object rest and
  // spread cost several times as much on every request that builds a context (docs/performance.md).
  // A new field of FunctionDeps belongs here too (tsc names a missing one unless it is optional).
  return {
    config: deps.config,
    vault: deps.vault,
    clock: deps.clock,
    fetch: deps.fetch,
    logger: deps.logger,
    notifier: deps.notifier,
    jwt: deps.jwt,
    onOutboxCommitted: deps.onOutboxCommitted,
    storageFetch: deps.storageFetch,
    caller,
    asTenant: (fn) => withTenant(sql, caller.claims, fn),
    readAsTenant: (query) => readAsTenant(sql, caller.claims, query),
    asOwner: sql,
  }
}
