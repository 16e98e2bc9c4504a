import { z } from '@hono/zod-openapi'
import { isoTimestamp } from '@shared/infra/schemas.ts'
import { localeField, MAX_SITE_LOCALES } from './locales.ts'
import { MAX_SLUG, SLUG_PATTERN } from './slug.ts'

const HOSTNAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/

export const MAX_ARTICLE_BODY = 200_000
/** Tags one article may carry. */
const MAX_ARTICLE_TAGS = 20

export const slugField = () =>
  z
    .string()
    .trim()
    .min(1)
    .max(MAX_SLUG)
    .regex(SLUG_PATTERN, 'lower-case letters, digits and single hyphens between them, such as spring-deals')

/** An absolute https URL without credentials, at most 2000 characters. */
const httpsUrl = () =>
  z
    .string()
    .trim()
    .max(2000)
    .refine((s) => {
      try {
        const u = new URL(s)
        return u.protocol === 'https:' && !u.username && !u.password && u.hostname.length > 0
      } catch {
        return false
      }
    }, 'an absolute https:// URL without credentials')

const featureImageBody = z
  .object({
    url: httpsUrl().openapi({ example: 'https://images.example.com/spring.jpg' }),
    alt: z.string().trim().max(500).default('').openapi({ example: 'A garden in spring' }),
  })
  .strict()

/** Where a site's articles live on the web: an https URL with {slug} in it. */
const articleUrlPattern = () =>
  httpsUrl()
    .max(500)
    .refine((s) => s.includes('{slug}'), 'must contain {slug}, such as https://blog.example.com/{slug}')

const articleSchemaTypes = ['Article', 'NewsArticle', 'BlogPosting'] as const

/** A site's settings for readers: public feeds and sitemap, its articles' URLs, its structured data type. */
const readerSettings = {
  public_feeds: z.boolean().optional().openapi({
    description:
      'Serve the RSS, Atom and JSON feeds and the sitemap without a key at /feeds/{site_id}/... (off by default): they show what a published-only key reads. Needs article_url_pattern or domain',
  }),
  article_url_pattern: articleUrlPattern().nullable().optional().openapi({
    description:
      "Where the site's articles live: https, with {slug}; null means https://{domain}/{slug}. Used for the links of feeds, the sitemap and structured data",
    example: 'https://blog.example.com/{slug}',
  }),
  article_schema_type: z.enum(articleSchemaTypes).optional().openapi({
    description: 'The schema.org type of its articles’ structured data (Article by default)',
  }),
  default_locale: localeField().optional().openapi({
    description:
      "The locale of its articles unless they name one, and the reads' fallback (en by default); one of locales",
    example: 'en',
  }),
  locales: z
    .array(localeField())
    .min(1)
    .max(MAX_SITE_LOCALES)
    .refine((l) => new Set(l).size === l.length, 'locales must not repeat')
    .optional()
    .openapi({
      description: `The locales its articles and their translations may be in (BCP 47), at most ${MAX_SITE_LOCALES}; default_locale among them`,
      example: ['en', 'fr', 'de'],
    }),
}

export const createSiteBody = z
  .object({
    name: z.string().trim().min(1).max(200).openapi({ example: 'Tech blog' }),
    slug: slugField()
      .optional()
      .openapi({ description: 'Unique in the tenant; made from the name when absent', example: 'tech-blog' }),
    domain: z
      .string()
      .trim()
      .toLowerCase()
      .max(253)
      .regex(HOSTNAME, 'a host name such as blog.example.com')
      .nullable()
      .optional()
      .openapi({ example: 'blog.example.com' }),
    ...readerSettings,
  })
  .strict()
  .openapi('CreateSite', { example: { name: 'Deals blog', domain: 'deals.example.com' } })

export const updateSiteBody = z
  .object({
    name: z.string().trim().min(1).max(200).optional().openapi({ example: 'Engineering blog' }),
    slug: slugField().optional(),
    domain: createSiteBody.shape.domain,
    ...readerSettings,
  })
  .strict()
  .refine((b) => Object.values(b).some((v) => v !== undefined), 'nothing to change')
  .openapi('UpdateSite')

/** The fields of an article a client writes, beside its site: each optional, each bounded. */
const articleFields = {
  slug: slugField().openapi({
    description:
      'Unique in the site; made from the title when absent. A published article keeps answering at its old slugs.',
    example: 'spring-deals',
  }),
  excerpt: z
    .string()
    .trim()
    .max(500)
    .nullable()
    .openapi({ description: "At most 500 characters; null derives it from the body's first paragraph" }),
  feature_image: featureImageBody.nullable().openapi({ description: 'https only' }),
  tags: z
    .array(slugField())
    .max(MAX_ARTICLE_TAGS)
    .refine((t) => new Set(t).size === t.length, 'tags must not repeat')
    .openapi({
      description: `Slugs of the tenant's tags (POST /v1/content/tags), at most ${MAX_ARTICLE_TAGS}; the first is the primary tag`,
      example: ['garden'],
    }),
  author_id: z
    .uuid()
    .nullable()
    .openapi({ description: 'A member of the tenant; the creating user by default' }),
  meta_title: z.string().trim().max(300).nullable(),
  meta_description: z.string().trim().max(500).nullable(),
  canonical_url: httpsUrl().nullable().openapi({ example: 'https://blog.example.com/spring-deals' }),
  unpublish_at: isoTimestamp().nullable().openapi({
    description:
      'When the publish-scheduled job takes the published article back to draft (content.unpublished): in the future, and after publish_at when scheduled; null clears it. Editors only',
    example: '2027-01-31T23:00:00Z',
  }),
}

export const createArticleBody = z
  .object({
    site_id: z.uuid(),
    title: z.string().trim().min(1).max(500).openapi({ example: 'Ten things about edge functions' }),
    body: z.string().max(MAX_ARTICLE_BODY).default('').openapi({ description: 'Markdown' }),
    slug: articleFields.slug.optional(),
    excerpt: articleFields.excerpt.optional(),
    feature_image: articleFields.feature_image.optional(),
    tags: articleFields.tags.optional(),
    author_id: articleFields.author_id.optional(),
    meta_title: articleFields.meta_title.optional(),
    meta_description: articleFields.meta_description.optional(),
    canonical_url: articleFields.canonical_url.optional(),
    locale: localeField().optional().openapi({
      description: "One of the site's locales (BCP 47); the site's default_locale when absent",
    }),
  })
  .strict()
  .openapi('CreateArticle', {
    example: {
      site_id: '5b1d7c3e-9f2a-4e6b-8d1c-3a4b5c6d7e8f',
      title: 'Spring deals',
      body: 'Ten finds for the **garden**.',
      tags: ['garden'],
      feature_image: { url: 'https://images.example.com/spring.jpg', alt: 'A garden in spring' },
    },
  })

export const updateArticleBody = z
  .object({
    title: z.string().trim().min(1).max(500).optional(),
    body: z.string().max(MAX_ARTICLE_BODY).optional(),
    slug: articleFields.slug.optional(),
    excerpt: articleFields.excerpt.optional(),
    feature_image: articleFields.feature_image.optional(),
    tags: articleFields.tags.optional(),
    author_id: articleFields.author_id.optional(),
    meta_title: articleFields.meta_title.optional(),
    meta_description: articleFields.meta_description.optional(),
    canonical_url: articleFields.canonical_url.optional(),
    unpublish_at: articleFields.unpublish_at.optional(),
  })
  .strict()
  .refine((b) => Object.values(b).some((v) => v !== undefined), 'nothing to change')
  .openapi('UpdateArticle', { example: { title: 'Spring deals, updated', body: 'The revised text.' } })

export const siteSchema = z
  .object({
    object: z.literal('site'),
    id: z.uuid(),
    slug: z.string(),
    name: z.string(),
    domain: z.string().nullable(),
    public_feeds: z.boolean(),
    article_url_pattern: z.string().nullable(),
    article_schema_type: z.enum(articleSchemaTypes),
    default_locale: z.string(),
    locales: z.array(z.string()),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('Site')

/** A site with what it holds: what deleting it would take with it. */
export const siteDetailSchema = siteSchema
  .extend({
    counts: z
      .object({
        articles: z.number().int(),
        drafts: z.number().int(),
        scheduled: z.number().int(),
        published: z.number().int(),
        sources: z.number().int().openapi({ description: 'scrape-social sources feeding the site' }),
        source_items: z.number().int().openapi({ description: 'items those sources collected' }),
        affiliate_destinations: z.number().int(),
      })
      .optional()
      .openapi({ description: 'Absent for a published-only key' }),
  })
  .openapi('SiteDetail', {
    example: {
      object: 'site',
      id: '7d4a5a0e-2f0c-4a43-9d49-6c1b8e0b7a11',
      slug: 'tech-blog',
      name: 'Tech blog',
      domain: 'blog.example.com',
      public_feeds: false,
      article_url_pattern: null,
      article_schema_type: 'Article',
      default_locale: 'en',
      locales: ['en', 'fr'],
      created_at: '2026-11-01T09:00:00.000Z',
      updated_at: '2026-11-01T09:00:00.000Z',
      counts: {
        articles: 12,
        drafts: 3,
        scheduled: 0,
        published: 9,
        sources: 2,
        source_items: 140,
        affiliate_destinations: 1,
      },
    },
  })

/** A scraped item an article was generated from (generate-article). */
const articleSourceSchema = z
  .object({
    id: z.uuid(),
    source_id: z.uuid(),
    source_name: z.string(),
    url: z.string().nullable(),
    title: z.string().nullable(),
    author: z.string().nullable(),
    published_at: z.string().nullable(),
  })
  .openapi('ArticleSource')

export const articleSourcesSchema = z
  .object({ data: z.array(articleSourceSchema) })
  .openapi('ArticleSources', {
    example: {
      data: [
        {
          id: '0b8e7c3e-5d0a-4a8e-9f61-2f0f3c1d9a20',
          source_id: '5a1f0c2e-8b7d-4c3a-a1e9-7d2b6c4f8e10',
          source_name: 'Company blog',
          url: 'https://example.com/posts/launch',
          title: 'We launched',
          author: 'Ada',
          published_at: '2026-11-20T08:00:00.000Z',
        },
      ],
    },
  })

export const tagSchema = z
  .object({
    object: z.literal('tag'),
    id: z.uuid(),
    name: z.string(),
    slug: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('Tag', {
    example: {
      object: 'tag',
      id: '3c0c1f1e-6a51-4d8e-9a2b-1f0e9d8c7b6a',
      name: 'Garden',
      slug: 'garden',
      created_at: '2026-11-01T09:00:00.000Z',
      updated_at: '2026-11-01T09:00:00.000Z',
    },
  })

export const tagListSchema = z
  .object({ data: z.array(tagSchema), next_cursor: z.string().nullable() })
  .openapi('TagList')

export const createTagBody = z
  .object({
    name: z.string().trim().min(1).max(100).openapi({ example: 'Garden' }),
    slug: slugField()
      .optional()
      .openapi({ description: 'Unique in the tenant; made from the name when absent' }),
  })
  .strict()
  .openapi('CreateTag', { example: { name: 'Garden' } })

export const updateTagBody = z
  .object({ name: createTagBody.shape.name.optional(), slug: slugField().optional() })
  .strict()
  .refine((b) => b.name !== undefined || b.slug !== undefined, 'nothing to change')
  .openapi('UpdateTag', { example: { name: 'Gardening', slug: 'gardening' } })

export const articleStatuses = ['draft', 'scheduled', 'published'] as const

/** One article of a translation group, for hreflang: the reads by id and by slug list them. */
const articleAlternateSchema = z
  .object({
    id: z.uuid(),
    locale: z.string(),
    slug: z.string(),
    status: z.enum(articleStatuses),
    url: z.string().nullable().openapi({
      description:
        "Its address by the site's article_url_pattern (or domain); null when the site has neither",
    }),
  })
  .openapi('ArticleAlternate')

export const articleSchema = z
  .object({
    object: z.literal('article'),
    id: z.uuid(),
    site_id: z.uuid(),
    slug: z.string(),
    title: z.string(),
    body: z.string().optional().openapi({ description: 'Markdown (formats=markdown, the default)' }),
    html: z.string().optional().openapi({ description: 'Sanitized HTML (formats=html)' }),
    plaintext: z.string().optional().openapi({ description: 'Text without markup (formats=plaintext)' }),
    excerpt: z
      .string()
      .openapi({ description: "Given, or the body's first paragraph as text (at most 300 characters)" }),
    custom_excerpt: z.string().nullable().openapi({ description: 'The excerpt as given; null when derived' }),
    feature_image: z.object({ url: z.string(), alt: z.string() }).nullable(),
    tags: z.array(z.object({ id: z.uuid(), name: z.string(), slug: z.string() })),
    author: z.object({ id: z.uuid(), name: z.string() }).nullable(),
    meta_title: z.string().nullable(),
    meta_description: z.string().nullable(),
    canonical_url: z.string().nullable(),
    status: z.enum(articleStatuses),
    publish_at: z.string().nullable().openapi({ description: 'When a scheduled article goes live' }),
    unpublish_at: z.string().nullable().optional().openapi({
      description:
        'When the article goes back to draft (the publish-scheduled job); absent from the read by slug',
    }),
    published_at: z.string().nullable(),
    revision_id: z
      .uuid()
      .nullable()
      .openapi({ description: 'The revision the article is at (every save makes one)' }),
    published_revision_id: z
      .uuid()
      .nullable()
      .openapi({ description: 'The revision that went live when the article was last published' }),
    edited_since_published: z.boolean().openapi({
      description: 'Published, and saved since it was: the current revision is not the one that went live',
    }),
    review_requested_at: z.string().nullable().openapi({
      description:
        'When the draft was submitted for review (POST /v1/content/articles/{id}/submit); cleared when it is published or scheduled',
    }),
    review_return: z
      .object({
        note: z.string().openapi({ description: 'What the editor asks the writer to change' }),
        returned_at: z.string(),
        returned_by: z.uuid().nullable().openapi({ description: 'The editor (a user id)' }),
      })
      .nullable()
      .optional()
      .openapi({
        description:
          'The note an editor returned the draft to its writer with (POST /v1/content/articles/{id}/return); cleared when the draft is submitted again, published or scheduled; absent from the read by slug',
      }),
    locale: z.string().openapi({ description: 'BCP 47, one of the site’s locales' }),
    translation_of: z.uuid().nullable().openapi({
      description:
        'The source article of its translation group; null for a source (or an untranslated article)',
    }),
    alternates: z.array(articleAlternateSchema).optional().openapi({
      description:
        'The reads by id and by slug: every article of its translation group the caller may read (itself included), by locale, for hreflang',
    }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('Article')

export const returnArticleBody = z
  .object({
    note: z.string().trim().min(1).max(2000).openapi({
      description: 'What to change, for the writer (1 to 2,000 characters)',
      example: 'Add a source for the figures in the second paragraph.',
    }),
  })
  .strict()
  .openapi('ReturnArticle', { example: { note: 'Add a source for the figures in the second paragraph.' } })

export const scheduleArticleBody = z
  .object({
    publish_at: isoTimestamp().openapi({
      description: 'When to publish: must lie in the future (a time in the past is refused)',
      example: '2026-12-24T08:00:00Z',
    }),
    unpublish_at: isoTimestamp().optional().openapi({
      description:
        'When to take it back to draft (optional): after publish_at. Without it, an unpublish_at the article has is kept',
      example: '2027-01-31T23:00:00Z',
    }),
  })
  .strict()
  .openapi('ScheduleArticle', { example: { publish_at: '2026-12-24T08:00:00Z' } })

const articleRevisionSummarySchema = z
  .object({
    object: z.literal('article_revision'),
    id: z.uuid(),
    article_id: z.uuid(),
    number: z.number().int().openapi({ description: '1 for the first save, then one more per save' }),
    title: z.string(),
    reason: z.enum(['created', 'updated', 'restored']),
    created_by: z
      .uuid()
      .nullable()
      .openapi({ description: 'The user who saved (a key saves as its creator)' }),
    created_at: z.string(),
  })
  .openapi('ArticleRevisionSummary')

export const articleRevisionSchema = articleRevisionSummarySchema
  .extend({
    body: z.string(),
    slug: z.string(),
    excerpt: z.string().nullable(),
    feature_image: z.object({ url: z.string(), alt: z.string() }).nullable(),
    tags: z.array(z.string()).openapi({ description: 'Tag slugs' }),
    author_id: z.uuid().nullable(),
    meta_title: z.string().nullable(),
    meta_description: z.string().nullable(),
    canonical_url: z.string().nullable(),
  })
  .openapi('ArticleRevision')

export const articleRevisionListSchema = z
  .object({ data: z.array(articleRevisionSummarySchema), next_cursor: z.string().nullable() })
  .openapi('ArticleRevisionList')

const contentItemSchema = z
  .object({
    object: z.enum(['site', 'article']),
    id: z.uuid(),
    created_at: z.string(),
    updated_at: z.string(),
    name: z.string().optional().openapi({ description: 'sites' }),
    domain: z.string().nullable().optional().openapi({ description: 'sites' }),
    site_id: z.uuid().nullable().optional().openapi({ description: 'articles' }),
    title: z.string().optional().openapi({ description: 'articles' }),
    slug: z.string().optional().openapi({ description: 'sites and articles' }),
    status: z
      .string()
      .nullable()
      .optional()
      .openapi({ description: 'articles: draft, scheduled or published' }),
    published_at: z.string().nullable().optional().openapi({ description: 'articles' }),
    review_requested_at: z.string().nullable().optional().openapi({
      description:
        'articles: when the draft was submitted for review (POST /v1/content/articles/{id}/submit); null when it waits for none (publishing or scheduling clears it)',
    }),
    locale: z.string().optional().openapi({ description: 'articles: BCP 47' }),
  })
  // With `formats`, an article comes whole: the fields of a read by id, beside the summary's.
  .extend(
    articleSchema
      .pick({
        body: true,
        html: true,
        plaintext: true,
        excerpt: true,
        custom_excerpt: true,
        feature_image: true,
        tags: true,
        author: true,
        meta_title: true,
        meta_description: true,
        canonical_url: true,
        publish_at: true,
        unpublish_at: true,
        revision_id: true,
        published_revision_id: true,
        edited_since_published: true,
        translation_of: true,
      })
      .partial().shape,
  )
  .openapi('ContentItem')

export const contentListSchema = z.object({
  data: z.array(contentItemSchema),
  next_cursor: z.string().nullable(),
})

export type Site = z.infer<typeof siteSchema>
export type Article = z.infer<typeof articleSchema>
export type Tag = z.infer<typeof tagSchema>
export type ArticleRevision = z.infer<typeof articleRevisionSchema>
export type ArticleRevisionSummary = z.infer<typeof articleRevisionSummarySchema>
export type CreateTagInput = z.output<typeof createTagBody>
export type UpdateTagInput = z.output<typeof updateTagBody>
export type CreateSiteInput = z.output<typeof createSiteBody>
export type UpdateSiteInput = z.output<typeof updateSiteBody>
export type SiteDetail = z.infer<typeof siteDetailSchema>
export type ArticleSource = z.infer<typeof articleSourceSchema>
export type CreateArticleInput = z.output<typeof createArticleBody>
export type UpdateArticleInput = z.output<typeof updateArticleBody>
