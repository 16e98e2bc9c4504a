import type { Context } from 'hono'
import type { AppEnv } from '../../../../shared/infra/http/app-env.ts'
import { type RouteAuth, tenantCaller } from '../../../../shared/infra/http/authenticate.ts'

/** Tool-server keys only; which tools a key sees depends on its scopes, checked per tool. */
export const toolAuth = { allow: ['tool_key'] } as const satisfies RouteAuth

export const keyScopes = (c: Context<AppEnv>): string[] => {
  const caller = tenantCaller(c)
  return 'scopes' in caller ? caller.scopes : []
}
