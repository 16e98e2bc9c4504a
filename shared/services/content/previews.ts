import { editorRoles, requireRole } from '@shared/infra/caller.ts'
import { randomBase62, sha256Hex, timingSafeEqual } from '@shared/infra/crypto.ts'
import type { RequestClaims } from '@shared/infra/db.ts'
import { readAsTenant } from '@shared/infra/db.ts'
import type { FunctionDeps, ServiceContext } from '@shared/infra/deps.ts'
import { notFound } from '@shared/infra/errors.ts'
import { type ArticleRow, type ContentFormat, presentArticle, selectArticle } from './article-row.ts'
import type { Article } from './schema.ts'

/**
 * Preview links (docs/content.md, docs/adr/0033-public-feeds.md "Preview links"): an editor makes
 * a link to an article as it stands now (a draft, or a published article's edits not yet
 * published), which anyone holding it reads without an account until it expires or is revoked.
 * The token is `prv_` and 32 base62 characters (~190 random bits); only its SHA-256 is stored.
 */

const PREVIEW_TOKEN_PREFIX = 'prv_'
const TOKEN_RANDOM_LENGTH = 32
const TOKEN_SHAPE = /^prv_[0-9A-Za-z]{32}$/
/** Characters of the token kept in the clear for display: the prefix and four more. */
const DISPLAY_LENGTH = PREVIEW_TOKEN_PREFIX.length + 4

export const PREVIEW_DEFAULT_DAYS = 7
export const PREVIEW_MAX_DAYS = 30
const DAY_MS = 86_400_000

export interface PreviewLink {
  object: 'preview_link'
  id: string
  article_id: string
  token_prefix: string
  status: 'active' | 'expired' | 'revoked'
  created_by: string | null
  created_at: string
  expires_at: string
  revoked_at: string | null
}

interface PreviewRow {
  id: string
  article_id: string
  token_prefix: string
  created_by: string | null
  created_at: Date
  expires_at: Date
  revoked_at: Date | null
}

function presentPreview(r: PreviewRow, now: Date): PreviewLink {
  return {
    object: 'preview_link',
    id: r.id,
    article_id: r.article_id,
    token_prefix: r.token_prefix,
    status: r.revoked_at ? 'revoked' : r.expires_at <= now ? 'expired' : 'active',
    created_by: r.created_by,
    created_at: r.created_at.toISOString(),
    expires_at: r.expires_at.toISOString(),
    revoked_at: r.revoked_at?.toISOString() ?? null,
  }
}

/** The public address of a preview's read through the API. */
const previewUrl = (publicUrl: string, token: string) =>
  `${publicUrl.replace(/\/$/, '')}/v1/content/previews/${token}`

/**
 * A new preview link to the article (editors only: a link shows the draft to anyone holding it).
 * The token is in the answer once and never again. NOT_FOUND for an article the caller cannot see.
 */
export async function createPreview(
  ctx: ServiceContext,
  articleId: string,
  input: { expires_in_days?: number },
): Promise<PreviewLink & { token: string; url: string }> {
  const { caller } = ctx
  requireRole(caller, editorRoles)
  const now = ctx.clock.now()
  const expiresAt = new Date(now.getTime() + (input.expires_in_days ?? PREVIEW_DEFAULT_DAYS) * DAY_MS)
  const token = `${PREVIEW_TOKEN_PREFIX}${randomBase62(TOKEN_RANDOM_LENGTH)}`
  // One statement: the row is written only when the article is the caller's tenant's (RLS sees
  // nothing else), so a link never points across tenants and nothing is half-written.
  const [row] = await ctx.asTenant(
    (tx) => tx<PreviewRow[]>`
      insert into public.article_previews (tenant_id, article_id, token_hash, token_prefix, created_by, created_at, expires_at)
      select a.tenant_id, a.id, ${sha256Hex(token)}, ${token.slice(0, DISPLAY_LENGTH)}, ${caller.userId}, ${now}, ${expiresAt}
      from public.articles a where a.id = ${articleId} and a.tenant_id = ${caller.tenantId}
      returning id, article_id, token_prefix, created_by, created_at, expires_at, revoked_at`,
  )
  if (!row) throw notFound('Article')
  return { ...presentPreview(row, now), token, url: previewUrl(ctx.config.PUBLIC_URL, token) }
}

/** The article's preview links, newest first (tokens are never shown again). */
export async function listPreviews(ctx: ServiceContext, articleId: string): Promise<PreviewLink[]> {
  const { caller } = ctx
  const [article, rows] = await ctx.readAsTenant((q) =>
    Promise.all([
      q`select 1 from public.articles where id = ${articleId} and tenant_id = ${caller.tenantId}`,
      q<PreviewRow[]>`
        select id, article_id, token_prefix, created_by, created_at, expires_at, revoked_at from public.article_previews
        where article_id = ${articleId} and tenant_id = ${caller.tenantId}
        order by created_at desc, id desc limit 100`,
    ]),
  )
  if (article.length === 0) throw notFound('Article')
  const now = ctx.clock.now()
  return rows.map((r) => presentPreview(r, now))
}

/** Revokes a link at once (the link then answers 404); revoking a revoked link changes nothing. */
export async function revokePreview(
  ctx: ServiceContext,
  articleId: string,
  previewId: string,
): Promise<void> {
  const { caller } = ctx
  requireRole(caller, editorRoles)
  const now = ctx.clock.now()
  const rows = await ctx.asTenant(
    (tx) => tx`
      update public.article_previews set revoked_at = coalesce(revoked_at, ${now})
      where id = ${previewId} and article_id = ${articleId} and tenant_id = ${caller.tenantId}
      returning id`,
  )
  if (rows.length === 0) throw notFound('Preview link')
}

/**
 * The article a preview token shows, as its maker reads it now, for anyone holding the token.
 * NOT_FOUND alike for a malformed, unknown, revoked or expired token and for a link whose maker
 * is no longer an editor of the tenant: the holder learns nothing of which. The owner pool runs
 * private.article_preview_by_token, which finds the link by the token's hash and nothing else; the
 * article is then read under row-level security with its maker's claims.
 */
export async function readPreview(
  deps: Pick<FunctionDeps, 'sql' | 'clock'>,
  token: string,
  formats: readonly ContentFormat[],
): Promise<{ article: Article; expiresAt: Date }> {
  if (!TOKEN_SHAPE.test(token)) throw notFound('Preview')
  const hash = sha256Hex(token)
  const [link] = await deps.sql<
    { token_hash: string; tenant_id: string; article_id: string; acting_user_id: string; expires_at: Date }[]
  >`select * from private.article_preview_by_token(${hash}, ${deps.clock.now()})`
  // The row was found by an index on the hash; the compare in constant time is the check that
  // decides, so no answer depends on how much of a guessed hash matched.
  if (!link || !timingSafeEqual(link.token_hash, hash)) throw notFound('Preview')
  const claims: RequestClaims = {
    sub: link.acting_user_id,
    role: 'authenticated',
    app_metadata: { tenant_id: link.tenant_id },
  }
  const [row] = await readAsTenant(
    deps.sql,
    claims,
    (q) =>
      q<
        ArticleRow[]
      >`${selectArticle(q)} where a.id = ${link.article_id} and a.tenant_id = ${link.tenant_id}`,
  )
  if (!row) throw notFound('Preview')
  return { article: presentArticle(row, formats), expiresAt: link.expires_at }
}
