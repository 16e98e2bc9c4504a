import type { DepsWithoutDatabase } from '@shared/infra/deps.ts'
import type { ResolvedProvider } from './catalog.ts'

/**
 * The mix-up defence of RFC 9207. An authorization response may name the server that issued it
 * (`iss`); a client that talks to several authorization servers compares it with the server it
 * sent the user to, so a response (and its code) from another server is never exchanged at this
 * one's token endpoint. The parameter is checked whenever it is sent, and required when the
 * provider's metadata (RFC 8414, or OpenID Connect discovery) says it sends it.
 */

export type IssuerCheck = 'ok' | 'issuer_mismatch' | 'issuer_missing'

const METADATA_TIMEOUT_MS = 5_000
const METADATA_MAX_BYTES = 256 * 1024
/** How long what a provider's metadata says is kept in this process. */
const METADATA_TTL_MS = 60 * 60 * 1000
/** A provider without readable metadata is asked again after this long. */
const NO_METADATA_TTL_MS = 5 * 60 * 1000

/** The issuer identifier of the provider a flow started with. */
function expectedIssuer(provider: Pick<ResolvedProvider, 'issuer' | 'authorizeUrl'>): string {
  return provider.issuer ?? new URL(provider.authorizeUrl).origin
}

/**
 * Where an issuer publishes its metadata: RFC 8414 inserts the well-known segment before the
 * issuer's path; OpenID Connect Discovery appends it.
 */
function metadataUrls(issuer: string): string[] {
  const url = new URL(issuer)
  const path = url.pathname.replace(/\/$/, '')
  return [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}${path}/.well-known/openid-configuration`,
  ]
}

const metadataCache = new Map<string, { issParameterSupported: boolean; until: number }>()

/**
 * Whether the issuer's metadata says it sends `iss` (authorization_response_iss_parameter_supported).
 * A document whose own `issuer` differs is not this server's and is ignored (RFC 8414 section 3.3).
 * Unreadable metadata answers false: the parameter is then checked only when it is sent.
 */
async function issParameterSupported(deps: DepsWithoutDatabase, issuer: string): Promise<boolean> {
  const now = deps.clock.now().getTime()
  const cached = metadataCache.get(issuer)
  if (cached && cached.until > now) return cached.issParameterSupported
  let found: boolean | null = null
  for (const url of metadataUrls(issuer)) {
    try {
      const res = await deps.fetch(url, {
        headers: { accept: 'application/json' },
        timeoutMs: METADATA_TIMEOUT_MS,
        maxResponseBytes: METADATA_MAX_BYTES,
        redirect: 'error',
      })
      if (!res.ok) {
        await res.body?.cancel()
        continue
      }
      const metadata = (await res.json()) as Record<string, unknown> | null
      if (metadata?.issuer !== issuer) continue
      found = metadata.authorization_response_iss_parameter_supported === true
      break
    } catch (err) {
      deps.logger.warn('oauth metadata unreadable', {
        issuer,
        error: err instanceof Error ? err.message : 'unknown',
      })
    }
  }
  metadataCache.set(issuer, {
    issParameterSupported: found ?? false,
    until: now + (found === null ? NO_METADATA_TTL_MS : METADATA_TTL_MS),
  })
  return found ?? false
}

/** Checks an authorization response's `iss` (simple string comparison, RFC 9207 section 2.4). */
export async function checkResponseIssuer(
  deps: DepsWithoutDatabase,
  provider: Pick<ResolvedProvider, 'issuer' | 'authorizeUrl'>,
  iss: string | undefined,
): Promise<IssuerCheck> {
  const issuer = expectedIssuer(provider)
  if (iss !== undefined) return iss === issuer ? 'ok' : 'issuer_mismatch'
  return (await issParameterSupported(deps, issuer)) ? 'issuer_missing' : 'ok'
}
