import { scopes } from '@shared/infra/caller.ts'
import type { AppEnv } from '@shared/infra/http/app-env.ts'
import type { RouteAuth } from '@shared/infra/http/authenticate.ts'
import { tenantCaller } from '@shared/infra/http/authenticate.ts'
import type { Context } from 'hono'

/** A signed-in user (the dashboard) or a platform key with assistant:invoke (server-side apps). */
export const assistantAuth = {
  allow: ['user', 'platform_key'],
  scope: 'assistant:invoke',
} as const satisfies RouteAuth

/** Approving a tool call and changing the settings: owners and admins (keys act as their creator). */
export const managerAuth = { ...assistantAuth, roles: ['owner', 'admin'] } as const satisfies RouteAuth

/** The platform tools the assistant may use: a key's own scopes, every scope for a signed-in user. */
export function toolScopes(c: Context<AppEnv>): string[] {
  const caller = tenantCaller(c)
  return caller.kind === 'platform_key' ? caller.scopes : [...scopes]
}
