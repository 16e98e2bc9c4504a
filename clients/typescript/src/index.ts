/**
 * A typed client for the Tenant Platform API: openapi-fetch over the types openapi-typescript
 * generates from the platform's OpenAPI document (./schema.ts, `npm run client:generate` in the
 * platform's repository). Paths, parameters, bodies and answers are checked by the compiler.
 */

import type { Client, ClientOptions, Middleware } from 'openapi-fetch'
import createClient from 'openapi-fetch'
import type { components, paths } from './schema.ts'

export type { components, paths }

/** A named schema of the API: `Schema<'ApiKey'>`. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name]

/** The error body every refusal carries: `{ error, code, message }` (and `details`, `retryAfter`). */
export type PlatformError = Schema<'Error'>

export interface PlatformClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** Where the public paths are: PUBLIC_URL in production, http://127.0.0.1:54321 locally. */
  baseUrl: string
  /**
   * Sent as `Authorization: Bearer`: a platform API key (svc_live_…, svc_test_…) or a user's
   * access token; a function is asked before each request (a token that is refreshed).
   */
  token?: string | (() => string | Promise<string>)
}

/**
 * Answers are read as JSON: a route that can also stream (an assistant turn with
 * `Accept: text/event-stream`) is typed by its JSON form; read a stream with `parseAs: 'stream'`.
 */
type Json = `${string}/json`

export type PlatformClient = Client<paths, Json>

/** A client for the platform at `baseUrl`, authenticated with `token` when one is given. */
export function createPlatformClient({ baseUrl, token, ...options }: PlatformClientOptions): PlatformClient {
  const client = createClient<paths, Json>({ baseUrl: baseUrl.replace(/\/+$/, ''), ...options })
  if (token !== undefined) client.use(bearer(token))
  return client
}

function bearer(token: NonNullable<PlatformClientOptions['token']>): Middleware {
  return {
    async onRequest({ request }) {
      request.headers.set('authorization', `Bearer ${typeof token === 'function' ? await token() : token}`)
      return request
    },
  }
}
