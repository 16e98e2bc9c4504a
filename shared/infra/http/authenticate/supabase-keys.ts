import type { CallerKind } from '@shared/infra/caller.ts'
import { parseKey } from '@shared/infra/keys.ts'
import { matchesPublishableKey, matchesServiceKey } from '@shared/infra/supabase-key-match.ts'
import type { Context } from 'hono'
import type { AppEnv } from '../app-env.ts'
import { chargeClientAddress } from './refusals.ts'

/**
 * The project's Supabase keys: the service-role key (a `service` caller, every tenant) and the
 * anon/publishable key (an `anon` caller, charged to its address). Returns whether one of them
 * decided the caller.
 */
export async function authenticateSupabaseKey(
  c: Context<AppEnv>,
  allow: Set<CallerKind>,
  token: string | undefined,
  apikey: string | undefined,
): Promise<boolean> {
  // A Bearer in one of the platform's own key formats (svc_live_..., mcp_live_...) is the caller
  // and can equal no Supabase key (a JWT, sb_secret_..., sb_publishable_...): the comparisons
  // below would all fail, so they are skipped (a measured cost on every key-authenticated request).
  if (token !== undefined && parseKey(token) !== null) return false
  const deps = c.get('deps')
  // Service-role and anon keys, legacy or sb_secret_/sb_publishable_ (Supabase convention:
  // `apikey` names the project and the Bearer names the caller). A Bearer that is a user token
  // or a platform key decides who calls (`apikey: <anon key>` + `Authorization: Bearer <user JWT>`
  // acts as that user under RLS); a Bearer that is itself a Supabase key, or none, leaves it to
  // the keys, in either place.
  const isService = (k: string | undefined) => k !== undefined && matchesServiceKey(deps.config, k)
  const isPublishable = (k: string | undefined) => k !== undefined && matchesPublishableKey(deps.config, k)
  const bearerIsCaller = token !== undefined && !isService(token) && !isPublishable(token)
  const supabaseKeys = bearerIsCaller ? [] : [token, apikey]
  if (allow.has('service') && supabaseKeys.some(isService)) {
    c.set('caller', { kind: 'service' })
    return true
  }
  if (allow.has('anon') && supabaseKeys.some(isPublishable)) {
    await chargeClientAddress(c)
    c.set('caller', { kind: 'anon' })
    return true
  }
  return false
}
