import type { OpenAPIHono } from '@hono/zod-openapi'
import type { Caller } from '../caller.ts'
import type { FunctionDeps } from '../deps.ts'
import type { MeterRequest } from './route-meter.ts'

export interface RateLimitState {
  limit: number
  remaining: number
  /** Seconds until the full limit is available again (GCRA has no windows: X-RateLimit-Reset). */
  reset: number
}

/** What the runtime adapter passes as Hono's env: the socket peer (deno-serve.ts, the local platform). */
interface ConnectionEnv {
  remoteAddr?: string
}

/** What the frame and the route middleware put on every request's context. */
export type AppEnv = {
  Bindings: ConnectionEnv
  Variables: {
    /** The function's dependencies: the one way handlers reach the database, clock, vault... */
    deps: FunctionDeps
    requestId: string
    caller: Caller
    rateLimit: RateLimitState
    /** The function's rule of who is metered, when it meters (createFunctionApp's `meter`). */
    meterRequest: MeterRequest
  }
}

export type App = OpenAPIHono<AppEnv>
