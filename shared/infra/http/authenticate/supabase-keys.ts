import type { CallerKind } from '@shared/infra/auth.ts'
import { matchesPublishableKey, matchesServiceKey } from '@shared/infra/supabase-keys.ts'
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
