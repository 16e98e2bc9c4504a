import type { AppEnv } from '@shared/infra/http/app-env.ts'
import type { Context } from 'hono'

/**
 * A content read's answer: JSON with a strong ETag (a hash of the body), or 304 Not Modified
 * without a body when If-None-Match names it. Cache-Control is public (for `publicMaxAge`
 * seconds) only for what a published-only key read, which is public by definition; every other
 * caller's answer is private. Vary names what the answer depends on.
 */
export async function respondCached(c: Context<AppEnv>, body: unknown): Promise<Response> {
  const text = JSON.stringify(body)
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)))
  let hex = ''
  for (let i = 0; i < 12; i++) hex += digest[i]!.toString(16).padStart(2, '0')
  const etag = `"${hex}"`
  const caller = c.get('caller')
  const publicRead = caller?.kind === 'platform_key' && caller.publishedOnly === true
  const headers = {
    ETag: etag,
    'Cache-Control': publicRead
      ? `public, max-age=${c.get('deps').config.CONTENT_PUBLIC_MAX_AGE_SECONDS}`
      : 'private, no-cache',
    Vary: 'Authorization',
  }
  if (matches(c.req.header('if-none-match'), etag)) return c.body(null, 304, headers)
  return c.body(text, 200, { ...headers, 'Content-Type': 'application/json' })
}

/** If-None-Match: `*`, or a list of tags (weak ones compared weakly, as RFC 9110 has it for GET). */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false
  if (header.trim() === '*') return true
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)
}
