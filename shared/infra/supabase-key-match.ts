import { type Config, publishableKeys, serviceKeys } from './config.ts'
import { timingSafeEqual } from './crypto.ts'

/**
 * Supabase's own API keys, as callers send them (the apikey header, or Bearer). A project may
 * hold the legacy JWT keys (anon, service_role) and the current ones (sb_publishable_...,
 * sb_secret_...) at once; each is accepted. Every candidate is compared in constant time, and
 * all of them are compared, so the time taken says nothing about which one came close.
 */
function matchesAny(candidates: readonly string[], key: string): boolean {
  let found = false
  for (const candidate of candidates) found = timingSafeEqual(key, candidate) || found
  return found
}

/** The service role: SUPABASE_SERVICE_ROLE_KEY or any key in SUPABASE_SECRET_KEYS. */
export function matchesServiceKey(
  config: Pick<Config, 'SUPABASE_SERVICE_ROLE_KEY' | 'SUPABASE_SECRET_KEYS'>,
  key: string,
): boolean {
  return matchesAny(serviceKeys(config), key)
}

/** Anon: SUPABASE_ANON_KEY or any key in SUPABASE_PUBLISHABLE_KEYS. */
export function matchesPublishableKey(
  config: Pick<Config, 'SUPABASE_ANON_KEY' | 'SUPABASE_PUBLISHABLE_KEYS'>,
  key: string,
): boolean {
  return matchesAny(publishableKeys(config), key)
}
