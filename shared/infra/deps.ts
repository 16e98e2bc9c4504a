import type { TenantCaller } from './auth.ts'
import type { Config } from './config.ts'
import type { Sql } from './db.ts'
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
}

/**
 * What a service operation runs with: the function's dependencies and the tenant caller it acts
 * for. REST handlers, tool calls, server functions and jobs build one and call the same service.
 */
export interface ServiceContext extends FunctionDeps {
  caller: TenantCaller
}

export function serviceContextFor(deps: FunctionDeps, caller: TenantCaller): ServiceContext {
  return { ...deps, caller }
}
