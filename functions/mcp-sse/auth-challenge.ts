import type { AppEnv } from '@shared/infra/http/app-env.ts'
import type { MiddlewareHandler } from 'hono'
import { resourceMetadataUrl } from './public-url.ts'

/**
 * MCP authorization (2025-11-25) and RFC 9728: every 401 of the tool server names its protected
 * resource metadata, where a client finds the authorization server to sign in with. A request
 * that presented a credential the server refused also gets RFC 6750's error="invalid_token", so a
 * client with a stale access token knows to refresh it.
 */
export function authChallenge(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next()
    if (c.res.status !== 401) return
    const presented = c.req.header('authorization') !== undefined || c.req.header('x-api-key') !== undefined
    const params = [
      `resource_metadata="${resourceMetadataUrl(c)}"`,
      ...(presented ? ['error="invalid_token"'] : []),
    ]
    c.res.headers.set('WWW-Authenticate', `Bearer ${params.join(', ')}`)
  }
}
