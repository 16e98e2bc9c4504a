import { createHash } from 'node:crypto'
import { hotPathOf } from '@shared/infra/hot-path/hot-path.ts'
import type { AppEnv } from '@shared/infra/http/app-env.ts'
import type { Context } from 'hono'

/**
 * A content read's answer: JSON with a strong ETag (a hash of the body), or 304 Not Modified
 * without a body when If-None-Match names it. Cache-Control is public (for
 * CONTENT_PUBLIC_MAX_AGE_SECONDS) only for what a published-only key read, which is public by
 * definition; every other caller's answer is private. Vary names what the answer depends on.
 *
 * For a published-only key the answer may come from this instance's recent answer to the same
 * read by any published-only key of the tenant (hot-path/published-reads.ts: at most
 * CONTENT_READ_CACHE_MS old, forgotten when this instance writes the tenant's content). `read`
 * may return a Response of its own (a redirect), which is passed on and never kept.
 */
export async function answerRead(c: Context<AppEnv>, read: () => Promise<unknown>): Promise<Response> {
  const caller = c.get('caller')
  const publicRead = caller?.kind === 'published_key'
  const cache = publicRead ? hotPathOf(c.get('deps')).publishedReads : undefined
  const tenantId = publicRead ? caller.tenantId : ''
  const request = new URL(c.req.url)
  const requestKey = `${request.pathname}${request.search}`
  const recent = cache?.get(tenantId, requestKey)
  if (recent) return answer(c, recent.text, recent.etag, publicRead)
  const generation = cache?.generation(tenantId) ?? 0
  const body = await read()
  if (body instanceof Response) return body
  const text = JSON.stringify(body)
  const etag = etagOf(text)
  cache?.set(tenantId, requestKey, { text, etag }, generation)
  return answer(c, text, etag, publicRead)
}

function answer(c: Context<AppEnv>, text: string, etag: string, publicRead: boolean): Response {
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

/**
 * The first 96 bits of the body's SHA-256, quoted: a strong tag. node:crypto's synchronous hash
 * (native on Node and on Deno): 15 µs for a 7 kB page on Node and 19 µs on Deno, against 59 µs and
 * 52 µs for crypto.subtle.digest with its TextEncoder copy and promise (docs/performance.md).
 */
export function etagOf(text: string): string {
  return `"${createHash('sha256').update(text).digest('hex').slice(0, 24)}"`
}

/** If-None-Match: `*`, or a list of tags (weak ones compared weakly, as RFC 9110 has it for GET). */
export function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false
  if (header.trim() === '*') return true
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)
}
