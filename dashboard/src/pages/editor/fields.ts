/**
 * What the editor's fields hold and what a save sends: the article (or a revision) as fields, and
 * the update that differs from the saved article.
 */
import type { Article, ArticlePatch, Revision, Tag } from '../../data/content.ts'

/** A tag as an article carries it (the picker offers these and the workspace's tags). */
export type TagRef = Pick<Tag, 'id' | 'name' | 'slug'>

/** What the editor's fields hold: text as typed, tags as slugs. */
export interface Fields {
  title: string
  body: string
  slug: string
  excerpt: string
  imageUrl: string
  imageAlt: string
  tags: string[]
  metaTitle: string
  metaDescription: string
  canonicalUrl: string
}

/** A revision's fields in the editor; tags deleted since (not in `known`, when known) are left out. */
export function fieldsOfRevision(r: Revision, known?: string[]): Fields {
  return {
    title: r.title,
    body: r.body,
    slug: r.slug,
    excerpt: r.excerpt ?? '',
    imageUrl: r.feature_image?.url ?? '',
    imageAlt: r.feature_image?.alt ?? '',
    tags: known ? r.tags.filter((t) => known.includes(t)) : r.tags,
    metaTitle: r.meta_title ?? '',
    metaDescription: r.meta_description ?? '',
    canonicalUrl: r.canonical_url ?? '',
  }
}

export function fieldsOf(a: Article): Fields {
  return {
    title: a.title,
    body: a.body ?? '',
    slug: a.slug,
    excerpt: a.custom_excerpt ?? '',
    imageUrl: a.feature_image?.url ?? '',
    imageAlt: a.feature_image?.alt ?? '',
    tags: a.tags.map((t) => t.slug),
    metaTitle: a.meta_title ?? '',
    metaDescription: a.meta_description ?? '',
    canonicalUrl: a.canonical_url ?? '',
  }
}

/**
 * The update a save sends: only what differs from the saved article, compared as the API stores
 * it (trimmed, empty as null), so a trailing space is no unsaved change. A cleared title or slug
 * is not sent (both are required); the title field says so.
 */
export function changes(f: Fields, a: Article): ArticlePatch {
  const patch: ArticlePatch = {}
  const orNull = (s: string) => s.trim() || null
  if (f.title.trim() && f.title.trim() !== a.title) patch.title = f.title.trim()
  if (f.body !== (a.body ?? '')) patch.body = f.body
  if (f.slug.trim() && f.slug.trim() !== a.slug) patch.slug = f.slug.trim()
  if (orNull(f.excerpt) !== a.custom_excerpt) patch.excerpt = orNull(f.excerpt)
  const image = f.imageUrl.trim() ? { url: f.imageUrl.trim(), alt: f.imageAlt.trim() } : null
  if (JSON.stringify(image) !== JSON.stringify(a.feature_image)) patch.feature_image = image
  if (f.tags.join(',') !== a.tags.map((t) => t.slug).join(',')) patch.tags = f.tags
  if (orNull(f.metaTitle) !== a.meta_title) patch.meta_title = orNull(f.metaTitle)
  if (orNull(f.metaDescription) !== a.meta_description) patch.meta_description = orNull(f.metaDescription)
  if (orNull(f.canonicalUrl) !== a.canonical_url) patch.canonical_url = orNull(f.canonicalUrl)
  return patch
}

export const httpsOnly = (url: string) => (/^https:\/\/[^\s]+$/i.test(url.trim()) ? url.trim() : undefined)
