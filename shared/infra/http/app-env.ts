import type { OpenAPIHono } from '@hono/zod-openapi'
import type { Caller } from '../caller.ts'
import type { FunctionDeps } from '../deps.ts'

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
  }
}

export type App = OpenAPIHono<AppEnv>
