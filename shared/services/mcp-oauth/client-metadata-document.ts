import type { FunctionDeps } from '@shared/infra/deps.ts'
import { OutboundBlockedError, OutboundError } from '@shared/infra/outbound.ts'
import { z } from 'zod'

/**
 * Client ID Metadata Documents (the MCP authorization specification of 2025-11-25, and the IETF
 * OAuth draft it follows): a client names itself by an https URL, and the document at that URL is
 * its registration. No call to /oauth/register, nothing stored: the document is fetched when the
 * client appears (through the outbound address policy, bounded in size and time), validated, and
 * kept in a per-instance cache for a while, so a client that changes its document is seen again
 * within that time.
 */

/** The draft's advice for a document's size; real ones are a few hundred bytes. */
const MAX_DOCUMENT_BYTES = 5 * 1024
const FETCH_TIMEOUT_MS = 5_000
/** Cache lifetime: the document's max-age within these bounds, else the default. */
const DEFAULT_TTL_MS = 5 * 60_000
const MIN_TTL_MS = 60_000
const MAX_TTL_MS = 24 * 3600_000
const MAX_CACHED = 500

export interface MetadataDocumentClient {
  client_id: string
  client_name: string
  redirect_uris: string[]
}

/** Whether a client_id is meant as a metadata document's URL (and not a registered mcpc_ id). */
export const isMetadataDocumentClientId = (clientId: string) => /^https?:\/\//i.test(clientId)

/** The client_id as a document URL: https (http only where the outbound policy allows it), a path, no fragment. */
function documentUrl(clientId: string, allowHttp: boolean): URL | string {
  let url: URL
  try {
    url = new URL(clientId)
  } catch {
    return 'client_id is not a URL'
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && allowHttp))
    return 'a client_id metadata document must be served over https'
  if (url.pathname === '/' || url.pathname === '') return 'a client_id URL must have a path'
  if (url.hash || url.username || url.password) return 'a client_id URL has no fragment or credentials'
  if (
    clientId
      .split('?')[0]!
      .split('/')
      .some((s) => s === '.' || s === '..')
  )
    return 'a client_id URL has no dot segments'
  if (clientId.length > 2000) return 'client_id is too long'
  return url
}

const documentSchema = z
  .object({
    client_id: z.string(),
    client_name: z.string().trim().min(1).max(200).optional(),
    redirect_uris: z.array(z.string().max(2000)).min(1).max(20),
    grant_types: z.array(z.string()).max(10).optional(),
    response_types: z.array(z.string()).max(10).optional(),
    token_endpoint_auth_method: z.string().optional(),
    client_secret: z.never().optional(),
    client_secret_expires_at: z.never().optional(),
  })
  .passthrough()

export class MetadataDocumentError extends Error {}

const cache = new Map<string, { client: MetadataDocumentClient; until: number }>()

function ttlOf(cacheControl: string | null): number {
  const maxAge = Number(cacheControl?.match(/(?:^|,)\s*max-age=(\d+)/i)?.[1] ?? Number.NaN)
  if (/no-store|no-cache/i.test(cacheControl ?? '')) return MIN_TTL_MS
  if (!Number.isFinite(maxAge)) return DEFAULT_TTL_MS
  return Math.min(MAX_TTL_MS, Math.max(MIN_TTL_MS, maxAge * 1000))
}

/**
 * The client a metadata document describes, from the cache or fetched now. `acceptRedirectUri` is
 * the authorization server's rule for public clients' redirect URIs, applied to every URI the
 * document lists. Throws MetadataDocumentError with a reason a developer can act on.
 */
export async function clientFromMetadataDocument(
  deps: Pick<FunctionDeps, 'fetch' | 'clock' | 'config'>,
  clientId: string,
  acceptRedirectUri: (uri: string) => boolean,
): Promise<MetadataDocumentClient> {
  const now = deps.clock.now().getTime()
  const hit = cache.get(clientId)
  if (hit && hit.until > now) return hit.client
  const url = documentUrl(clientId, deps.config.OUTBOUND_ALLOW_HTTP)
  if (typeof url === 'string') throw new MetadataDocumentError(url)

  let res: Response
  try {
    res = await deps.fetch(url, {
      headers: { accept: 'application/json' },
      timeoutMs: FETCH_TIMEOUT_MS,
      maxResponseBytes: MAX_DOCUMENT_BYTES,
      redirect: 'error',
    })
  } catch (err) {
    if (err instanceof OutboundBlockedError || err instanceof OutboundError)
      throw new MetadataDocumentError(`the client's metadata document could not be fetched: ${err.message}`)
    throw err
  }
  if (res.status !== 200)
    throw new MetadataDocumentError(`the client's metadata document answered HTTP ${res.status}`)
  let body: unknown
  try {
    body = JSON.parse(await res.text())
  } catch {
    throw new MetadataDocumentError("the client's metadata document is not JSON")
  }
  const parsed = documentSchema.safeParse(body)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw new MetadataDocumentError(
      `the client's metadata document is invalid at ${issue.path.join('.') || '(root)'}: ${issue.message}`,
    )
  }
  const doc = parsed.data
  if (doc.client_id !== clientId)
    throw new MetadataDocumentError("the metadata document's client_id differs from its URL")
  if (doc.token_endpoint_auth_method !== undefined && doc.token_endpoint_auth_method !== 'none')
    throw new MetadataDocumentError('only public clients (token_endpoint_auth_method none) are accepted')
  for (const g of doc.grant_types ?? [])
    if (g !== 'authorization_code' && g !== 'refresh_token')
      throw new MetadataDocumentError(`unsupported grant type ${g.slice(0, 50)}`)
  for (const uri of doc.redirect_uris)
    if (!acceptRedirectUri(uri))
      throw new MetadataDocumentError(`not an acceptable redirect URI: ${uri.slice(0, 200)}`)

  // The host is part of the name a person sees: it is what vouches for the document.
  const client = {
    client_id: clientId,
    client_name: `${doc.client_name ?? url.host} (${url.host})`,
    redirect_uris: doc.redirect_uris,
  }
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!)
  cache.set(clientId, { client, until: now + ttlOf(res.headers.get('cache-control')) })
  return client
}
