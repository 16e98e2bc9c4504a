import type { Tx } from '@shared/infra/db.ts'
import type { ServiceContext } from '@shared/infra/deps.ts'
import { notFound } from '@shared/infra/errors.ts'
import { recordEvent } from '@shared/infra/events.ts'
import { forgetPublishedReads } from '@shared/infra/hot-path/hot-path.ts'
import { type Page, type PageRequest, paginate } from '@shared/infra/pagination.ts'
import { requireOwnDraft } from './article-access.ts'
import { type ArticleRow, presentArticle, selectArticle, updatedEvent } from './article-row.ts'
import { applyFields } from './articles.ts'
import { type RevisionFields, saveRevision } from './revision-store.ts'
import type { Article, ArticleRevision, ArticleRevisionSummary } from './schema.ts'

/** Revisions of an article: list, read, and restore (a restore is a new revision). */

interface RevisionRow {
  id: string
  article_id: string
  number: number
  title: string
  body: string
  fields: RevisionFields
  reason: ArticleRevision['reason']
  created_by: string | null
  created_at: Date
}

const summaryOf = (r: RevisionRow): ArticleRevisionSummary => ({
  object: 'article_revision',
  id: r.id,
  article_id: r.article_id,
  number: r.number,
  title: r.title,
  reason: r.reason,
  created_by: r.created_by,
  created_at: r.created_at.toISOString(),
})

const presentRevision = (r: RevisionRow): ArticleRevision => ({
  ...summaryOf(r),
  body: r.body,
  ...r.fields,
})

/** Revisions hold drafts: a published-only key finds none (row-level security hides them too). */
function refusePublishedOnly(ctx: ServiceContext): void {
  if (ctx.caller.kind === 'published_key') throw notFound('Revision')
}

async function requireArticle(tx: Tx, tenantId: string, id: string): Promise<void> {
  const [found] = await tx`select 1 from public.articles where id = ${id} and tenant_id = ${tenantId}`
  if (!found) throw notFound('Article')
}

/** The article's revisions, newest first (keyset pages by number; the cursor names a revision). */
export async function listRevisions(
  ctx: ServiceContext,
  articleId: string,
  page: PageRequest,
): Promise<Page<ArticleRevisionSummary>> {
  refusePublishedOnly(ctx)
  const { caller } = ctx
  const rows = await ctx.asTenant(async (tx) => {
    await requireArticle(tx, caller.tenantId, articleId)
    return tx<RevisionRow[]>`
      select id, article_id, number, title, '' as body, fields, reason, created_by, created_at
      from public.article_revisions
      where article_id = ${articleId} and tenant_id = ${caller.tenantId}
        ${page.after ? tx`and number < (select r.number from public.article_revisions r where r.id = ${page.after.id})` : tx``}
      order by number desc
      limit ${page.limit + 1}`
  })
  return paginate(rows, page.limit, (r) => ({ at: r.created_at, id: r.id }), summaryOf)
}

async function readRevision(tx: Tx, tenantId: string, articleId: string, id: string) {
  const [row] = await tx<RevisionRow[]>`
    select id, article_id, number, title, body, fields, reason, created_by, created_at
    from public.article_revisions where id = ${id} and article_id = ${articleId} and tenant_id = ${tenantId}`
  return row
}

export async function getRevision(
  ctx: ServiceContext,
  articleId: string,
  id: string,
): Promise<ArticleRevision> {
  refusePublishedOnly(ctx)
  const row = await ctx.asTenant((tx) => readRevision(tx, ctx.caller.tenantId, articleId, id))
  if (!row) throw notFound('Revision')
  return presentRevision(row)
}

/**
 * Writes a revision's fields back to the article, as a new revision (reason restored) with
 * content.updated. Tags deleted since are left out; a slug another article took since is a
 * CONFLICT naming it.
 */
export async function restoreRevision(ctx: ServiceContext, articleId: string, id: string): Promise<Article> {
  const { caller } = ctx
  const now = ctx.clock.now()
  const row = await ctx.asTenant(async (tx) => {
    await requireOwnDraft(tx, caller, articleId)
    const [locked] = await tx`
      select 1 from public.articles where id = ${articleId} and tenant_id = ${caller.tenantId} for update`
    if (!locked) throw notFound('Article')
    const revision = await readRevision(tx, caller.tenantId, articleId, id)
    if (!revision) throw notFound('Revision')
    const [before] = await tx<ArticleRow[]>`
      ${selectArticle(tx)} where a.id = ${articleId} and a.tenant_id = ${caller.tenantId}`
    const existingTags = (
      await tx<{ slug: string }[]>`
        select slug from public.tags where tenant_id = ${caller.tenantId} and slug = any (${revision.fields.tags})`
    ).map((t) => t.slug)
    const { tags, author_id, ...fields } = revision.fields
    // An author who has left the tenant since is not restored.
    const [member] = author_id
      ? await tx`select 1 from public.tenant_members where tenant_id = ${caller.tenantId} and user_id = ${author_id}`
      : []
    const after = await applyFields(
      tx,
      caller.tenantId,
      before!,
      {
        ...fields,
        // A contributor's draft stays its own.
        author_id: caller.role === 'contributor' ? caller.userId : member ? author_id : null,
        title: revision.title,
        body: revision.body,
        tags: tags.filter((t) => existingTags.includes(t)),
      },
      now,
    )
    const saved = await saveRevision(tx, caller, after, 'restored', now)
    await recordEvent(tx, {
      tenantId: caller.tenantId,
      type: 'content.updated',
      at: now,
      data: { ...updatedEvent(saved, 'updated', ['restored'], now), restored_revision_id: revision.id },
    })
    return saved
  })
  forgetPublishedReads(ctx, ctx.caller.tenantId)
  ctx.onOutboxCommitted?.()
  return presentArticle(row)
}
