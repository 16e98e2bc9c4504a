import { isPgError, pgErrors, type Tx } from '@shared/infra/db.ts'
import type { ServiceContext } from '@shared/infra/deps.ts'
import { notFound } from '@shared/infra/errors.ts'
import { recordEvent } from '@shared/infra/events.ts'
import type { Article, ArticleSource, CreateArticleInput, UpdateArticleInput } from './schema.ts'

/**
 * A tenant's articles: get, create (a draft), update, delete, unpublish (each event
 * content.updated) and publish (event content.published; publishing again changes nothing).
 */

interface ArticleRow {
  id: string
  site_id: string
  title: string
  body: string
  status: 'draft' | 'published'
  published_at: Date | null
  created_at: Date
  updated_at: Date
}

const articleColumns = 'id, site_id, title, body, status, published_at, created_at, updated_at'

const presentArticle = (r: ArticleRow): Article => ({
  object: 'article',
  id: r.id,
  site_id: r.site_id,
  title: r.title,
  body: r.body,
  status: r.status,
  published_at: r.published_at?.toISOString() ?? null,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
})

/** content.updated: what changed in which article (never the body). */
function updatedEvent(r: ArticleRow, change: 'created' | 'updated' | 'deleted', fields: string[], at: Date) {
  return {
    article_id: r.id,
    site_id: r.site_id,
    title: r.title,
    status: r.status,
    change,
    changed_fields: fields,
    updated_at: at.toISOString(),
  }
}

export async function getArticle(ctx: ServiceContext, id: string): Promise<Article> {
  const { caller } = ctx
  const [row] = await ctx.asTenant(
    (tx) => tx<ArticleRow[]>`
      select ${tx.unsafe(articleColumns)} from public.articles where id = ${id} and tenant_id = ${caller.tenantId}`,
  )
  if (!row) throw notFound('Article')
  return presentArticle(row)
}

/** A draft in one of the tenant's sites; NOT_FOUND when the site is not the tenant's. */
export async function createArticle(ctx: ServiceContext, input: CreateArticleInput): Promise<Article> {
  const { caller } = ctx
  const now = ctx.clock.now()
  const row = await ctx
    .asTenant(async (tx) => {
      // The site must be one of this tenant's (RLS hides the others).
      const [site] =
        await tx`select 1 from public.sites where id = ${input.site_id} and tenant_id = ${caller.tenantId}`
      if (!site) throw notFound('Site')
      const [article] = await tx<ArticleRow[]>`
      insert into public.articles (tenant_id, site_id, title, body, created_at, updated_at)
      values (${caller.tenantId}, ${input.site_id}, ${input.title}, ${input.body}, ${now}, ${now})
      returning ${tx.unsafe(articleColumns)}`
      await recordEvent(tx, {
        tenantId: caller.tenantId,
        type: 'content.updated',
        at: now,
        data: updatedEvent(article!, 'created', ['title', 'body'], now),
      })
      return article!
    })
    .catch((err) => {
      // The site was deleted between the check and the insert.
      if (isPgError(err, pgErrors.foreignKeyViolation)) throw notFound('Site')
      throw err
    })
  ctx.onOutboxCommitted?.()
  return presentArticle(row)
}

/** Changes the title or body; records content.updated only when something changed. */
export async function updateArticle(
  ctx: ServiceContext,
  id: string,
  input: UpdateArticleInput,
): Promise<Article> {
  const { caller } = ctx
  const now = ctx.clock.now()
  const { row, changed } = await ctx.asTenant(async (tx: Tx) => {
    const [before] = await tx<ArticleRow[]>`
      select ${tx.unsafe(articleColumns)} from public.articles
      where id = ${id} and tenant_id = ${caller.tenantId} for update`
    if (!before) throw notFound('Article')
    const changed = (['title', 'body'] as const).filter(
      (f) => input[f] !== undefined && input[f] !== before[f],
    )
    if (changed.length === 0) return { row: before, changed }
    const [after] = await tx<ArticleRow[]>`
      update public.articles set title = ${input.title ?? before.title}, body = ${input.body ?? before.body}, updated_at = ${now}
      where id = ${id} returning ${tx.unsafe(articleColumns)}`
    await recordEvent(tx, {
      tenantId: caller.tenantId,
      type: 'content.updated',
      at: now,
      data: updatedEvent(after!, 'updated', changed, now),
    })
    return { row: after!, changed }
  })
  if (changed.length > 0) ctx.onOutboxCommitted?.()
  return presentArticle(row)
}

export async function deleteArticle(ctx: ServiceContext, id: string): Promise<void> {
  const { caller } = ctx
  const now = ctx.clock.now()
  const deleted = await ctx.asTenant(async (tx) => {
    const [article] = await tx<ArticleRow[]>`
      delete from public.articles where id = ${id} and tenant_id = ${caller.tenantId} returning ${tx.unsafe(articleColumns)}`
    if (!article) return false
    await recordEvent(tx, {
      tenantId: caller.tenantId,
      type: 'content.updated',
      at: now,
      data: updatedEvent(article, 'deleted', [], now),
    })
    return true
  })
  if (!deleted) throw notFound('Article')
  ctx.onOutboxCommitted?.()
}

/** Publishes a draft (event content.published with exactly the spec's data); a published one is returned as is. */
export async function publishArticle(ctx: ServiceContext, id: string): Promise<Article> {
  const { caller } = ctx
  const now = ctx.clock.now()
  const { row, published } = await ctx.asTenant(async (tx) => {
    const [article] = await tx<ArticleRow[]>`
      update public.articles set status = 'published', published_at = ${now}, updated_at = ${now}
      where id = ${id} and tenant_id = ${caller.tenantId} and status = 'draft'
      returning ${tx.unsafe(articleColumns)}`
    if (article) {
      await recordEvent(tx, {
        tenantId: caller.tenantId,
        type: 'content.published',
        at: now,
        data: {
          article_id: article.id,
          title: article.title,
          site_id: article.site_id,
          published_at: article.published_at!.toISOString(),
        },
      })
      return { row: article, published: true }
    }
    const [existing] = await tx<ArticleRow[]>`
      select ${tx.unsafe(articleColumns)} from public.articles where id = ${id} and tenant_id = ${caller.tenantId}`
    return { row: existing ?? null, published: false }
  })
  if (!row) throw notFound('Article')
  if (published) ctx.onOutboxCommitted?.()
  return presentArticle(row)
}

/**
 * Takes a published article back to draft (event content.updated, changed_fields status and
 * published_at); a draft is returned as is.
 */
export async function unpublishArticle(ctx: ServiceContext, id: string): Promise<Article> {
  const { caller } = ctx
  const now = ctx.clock.now()
  const { row, changed } = await ctx.asTenant(async (tx) => {
    const [article] = await tx<ArticleRow[]>`
      update public.articles set status = 'draft', published_at = null, updated_at = ${now}
      where id = ${id} and tenant_id = ${caller.tenantId} and status = 'published'
      returning ${tx.unsafe(articleColumns)}`
    if (article) {
      await recordEvent(tx, {
        tenantId: caller.tenantId,
        type: 'content.updated',
        at: now,
        data: updatedEvent(article, 'updated', ['status', 'published_at'], now),
      })
      return { row: article, changed: true }
    }
    const [existing] = await tx<ArticleRow[]>`
      select ${tx.unsafe(articleColumns)} from public.articles where id = ${id} and tenant_id = ${caller.tenantId}`
    return { row: existing ?? null, changed: false }
  })
  if (!row) throw notFound('Article')
  if (changed) ctx.onOutboxCommitted?.()
  return presentArticle(row)
}

/**
 * The scraped items a generated article was written from, in the order the model saw them;
 * empty for an article written by hand.
 */
export async function listArticleSources(ctx: ServiceContext, id: string): Promise<ArticleSource[]> {
  const { caller } = ctx
  const { found, rows } = await ctx.asTenant(async (tx) => {
    const [article] =
      await tx`select 1 from public.articles where id = ${id} and tenant_id = ${caller.tenantId}`
    if (!article) return { found: false, rows: [] }
    const rows = await tx<(Omit<ArticleSource, 'published_at'> & { published_at: Date | null })[]>`
      select i.id, i.source_id, s.name as source_name, i.url, i.title, i.author, i.published_at
      from public.article_source_items r
      join public.source_items i on i.id = r.item_id and i.tenant_id = r.tenant_id
      join public.sources s on s.id = i.source_id and s.tenant_id = i.tenant_id
      where r.article_id = ${id} and r.tenant_id = ${caller.tenantId}
      order by coalesce(i.published_at, i.created_at), i.id`
    return { found: true, rows }
  })
  if (!found) throw notFound('Article')
  return rows.map((r) => ({ ...r, published_at: r.published_at?.toISOString() ?? null }))
}
