import type { Queryable } from '@shared/infra/db.ts'
import { excerptOf, renderHtml, renderPlaintext } from './render.ts'
import type { Article } from './schema.ts'

/**
 * An article as the database holds it and as the API presents it: the row, the one select every
 * read and write reads it back with, its presentation in the asked formats, and content.updated's
 * data. Writes are in articles.ts, publishing and review in article-lifecycle.ts, reads in
 * article-reads.ts.
 */

export const contentFormats = ['markdown', 'html', 'plaintext'] as const
export type ContentFormat = (typeof contentFormats)[number]

export interface ArticleRow {
  id: string
  site_id: string
  slug: string
  title: string
  body: string
  excerpt: string | null
  /** The excerpt derived from the body when it was written (null: derive it on read). */
  body_excerpt: string | null
  feature_image_url: string | null
  feature_image_alt: string | null
  author_id: string | null
  author_name: string | null
  meta_title: string | null
  meta_description: string | null
  canonical_url: string | null
  status: Article['status']
  publish_at: Date | null
  /** Absent from the read by slug (private.article_by_slug does not return it). */
  unpublish_at?: Date | null
  published_at: Date | null
  created_at: Date
  updated_at: Date
  revision_id: string | null
  published_revision_id: string | null
  review_requested_at: Date | null
  /** The note an editor returned the draft with (absent from the read by slug, as unpublish_at). */
  review_note?: string | null
  review_returned_at?: Date | null
  review_returned_by?: string | null
  locale: string
  translation_of: string | null
  tags: { id: string; name: string; slug: string }[]
}

/** The article with its tags (in the article's order) and its author's name, as the caller sees it. */
export const selectArticle = (q: Queryable, extra = q``) => q`
  select a.id, a.site_id, a.slug, a.title, a.body, a.excerpt, a.body_excerpt, a.feature_image_url, a.feature_image_alt,
         a.author_id, (select n.name from private.author_names(array[a.author_id]) n) as author_name,
         a.meta_title, a.meta_description, a.canonical_url, a.status, a.publish_at, a.unpublish_at, a.published_at,
         a.created_at, a.updated_at, a.revision_id, a.published_revision_id, a.review_requested_at,
         a.review_note, a.review_returned_at, a.review_returned_by, a.locale, a.translation_of,
         coalesce((select json_agg(json_build_object('id', t.id, 'name', t.name, 'slug', t.slug) order by x.position)
                   from public.article_tags x join public.tags t on t.tenant_id = x.tenant_id and t.id = x.tag_id
                   where x.article_id = a.id), '[]'::json) as tags ${extra}
  from public.articles a`

export function presentArticle(r: ArticleRow, formats: readonly ContentFormat[] = ['markdown']): Article {
  return {
    object: 'article',
    id: r.id,
    site_id: r.site_id,
    slug: r.slug,
    title: r.title,
    ...(formats.includes('markdown') && { body: r.body }),
    ...(formats.includes('html') && { html: renderHtml(r.body) }),
    ...(formats.includes('plaintext') && { plaintext: renderPlaintext(r.body) }),
    // The excerpt derived when the body was written; derived now for a row written without it.
    excerpt: r.excerpt ?? r.body_excerpt ?? excerptOf(r.body),
    custom_excerpt: r.excerpt,
    feature_image: r.feature_image_url ? { url: r.feature_image_url, alt: r.feature_image_alt ?? '' } : null,
    tags: r.tags,
    author: r.author_id && r.author_name ? { id: r.author_id, name: r.author_name } : null,
    meta_title: r.meta_title,
    meta_description: r.meta_description,
    canonical_url: r.canonical_url,
    status: r.status,
    publish_at: r.publish_at?.toISOString() ?? null,
    ...(r.unpublish_at !== undefined && { unpublish_at: r.unpublish_at?.toISOString() ?? null }),
    published_at: r.published_at?.toISOString() ?? null,
    revision_id: r.revision_id,
    published_revision_id: r.published_revision_id,
    edited_since_published:
      r.status === 'published' &&
      r.published_revision_id !== null &&
      r.revision_id !== r.published_revision_id,
    review_requested_at: r.review_requested_at?.toISOString() ?? null,
    ...(r.review_note !== undefined && {
      review_return:
        r.review_note && r.review_returned_at
          ? {
              note: r.review_note,
              returned_at: r.review_returned_at.toISOString(),
              returned_by: r.review_returned_by ?? null,
            }
          : null,
    }),
    locale: r.locale,
    translation_of: r.translation_of,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  }
}

/** The fields besides title and body that content.updated carries (never the body). */
function fieldsOf(r: ArticleRow) {
  return {
    slug: r.slug,
    excerpt: r.excerpt,
    feature_image: r.feature_image_url ? { url: r.feature_image_url, alt: r.feature_image_alt ?? '' } : null,
    tags: r.tags.map((t) => t.slug),
    author_id: r.author_id,
    meta_title: r.meta_title,
    meta_description: r.meta_description,
    canonical_url: r.canonical_url,
  }
}

/** content.updated: what changed in which article, with its fields as they now are (never the body). */
export function updatedEvent(
  r: ArticleRow,
  change: 'created' | 'updated' | 'deleted',
  fields: string[],
  at: Date,
) {
  return {
    article_id: r.id,
    site_id: r.site_id,
    title: r.title,
    status: r.status,
    change,
    changed_fields: fields,
    updated_at: at.toISOString(),
    ...fieldsOf(r),
    publish_at: r.publish_at?.toISOString() ?? null,
  }
}

/** The article as the caller sees it (RLS), or undefined. */
export async function readArticle(
  tx: Queryable,
  tenantId: string,
  id: string,
): Promise<ArticleRow | undefined> {
  const [row] = await tx<ArticleRow[]>`${selectArticle(tx)} where a.id = ${id} and a.tenant_id = ${tenantId}`
  return row
}
