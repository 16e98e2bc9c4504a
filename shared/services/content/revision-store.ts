import type { TenantCaller } from '@shared/infra/caller.ts'
import type { Tx } from '@shared/infra/db.ts'
import type { ArticleRevision } from './schema.ts'

/**
 * Keeping revisions: every save of an article (create, update, restore) keeps its fields, the
 * newest MAX_REVISIONS per article; older ones are pruned on save, except the one that went live
 * at the last publish. (Reading and restoring them: revisions.ts.)
 */

/** What a revision keeps of an article: the fields of ArticleRow it is saved from. */
interface SavedArticle {
  id: string
  slug: string
  title: string
  body: string
  excerpt: string | null
  feature_image_url: string | null
  feature_image_alt: string | null
  author_id: string | null
  meta_title: string | null
  meta_description: string | null
  canonical_url: string | null
  published_revision_id: string | null
  revision_id: string | null
  tags: { slug: string }[]
}

export const MAX_REVISIONS = 50

/** The fields a revision keeps besides title and body (tags by slug, as the API takes them). */
export type RevisionFields = {
  slug: string
  excerpt: string | null
  feature_image: { url: string; alt: string } | null
  tags: string[]
  author_id: string | null
  meta_title: string | null
  meta_description: string | null
  canonical_url: string | null
}

/**
 * Keeps the article as it now is as its newest revision and points the article at it; prunes
 * past MAX_REVISIONS. Runs in the transaction that saved the article (its row lock orders the
 * numbers). Returns the article with its new revision_id.
 */
export async function saveRevision<T extends SavedArticle>(
  tx: Tx,
  caller: TenantCaller,
  article: T,
  reason: ArticleRevision['reason'],
  now: Date,
): Promise<T> {
  const fields: RevisionFields = {
    slug: article.slug,
    excerpt: article.excerpt,
    feature_image: article.feature_image_url
      ? { url: article.feature_image_url, alt: article.feature_image_alt ?? '' }
      : null,
    tags: article.tags.map((t) => t.slug),
    author_id: article.author_id,
    meta_title: article.meta_title,
    meta_description: article.meta_description,
    canonical_url: article.canonical_url,
  }
  const [revision] = await tx<{ id: string; number: number }[]>`
    insert into public.article_revisions (tenant_id, article_id, number, title, body, fields, reason, created_by, created_at)
    values (${caller.tenantId}, ${article.id},
      coalesce((select max(number) from public.article_revisions where article_id = ${article.id}), 0) + 1,
      ${article.title}, ${article.body}, ${tx.json(fields)}, ${reason}, ${caller.userId}, ${now})
    returning id, number`
  await tx`update public.articles set revision_id = ${revision!.id} where id = ${article.id}`
  await tx`
    delete from public.article_revisions
    where article_id = ${article.id} and number <= ${revision!.number - MAX_REVISIONS}
      and id is distinct from ${article.published_revision_id}`
  return { ...article, revision_id: revision!.id }
}
