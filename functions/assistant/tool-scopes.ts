import { scopes } from '@shared/infra/caller.ts'
import type { AppEnv } from '@shared/infra/http/app-env.ts'
import { tenantCaller } from '@shared/infra/http/authenticate.ts'
import type { Context } from 'hono'

/** The platform tools the assistant may use: a key's own scopes, every scope for a signed-in user. */
export function toolScopes(c: Context<AppEnv>): string[] {
  const caller = tenantCaller(c)
  return caller.kind === 'platform_key' ? caller.scopes : [...scopes]
}
