import { z } from '@hono/zod-openapi'

const HOSTNAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/

export const MAX_ARTICLE_BODY = 200_000

export const createSiteBody = z
  .object({
    name: z.string().trim().min(1).max(200).openapi({ example: 'Tech blog' }),
    domain: z
      .string()
      .trim()
      .toLowerCase()
      .max(253)
      .regex(HOSTNAME, 'a host name such as blog.example.com')
      .nullable()
      .optional()
      .openapi({ example: 'blog.example.com' }),
  })
  .strict()
  .openapi('CreateSite', { example: { name: 'Deals blog', domain: 'deals.example.com' } })

export const updateSiteBody = z
  .object({
    name: z.string().trim().min(1).max(200).optional().openapi({ example: 'Engineering blog' }),
    domain: createSiteBody.shape.domain,
  })
  .strict()
  .refine((b) => b.name !== undefined || b.domain !== undefined, 'nothing to change')
  .openapi('UpdateSite')

export const createArticleBody = z
  .object({
    site_id: z.uuid(),
    title: z.string().trim().min(1).max(500).openapi({ example: 'Ten things about edge functions' }),
    body: z.string().max(MAX_ARTICLE_BODY).default(''),
  })
  .strict()
  .openapi('CreateArticle', {
    example: {
      site_id: '5b1d7c3e-9f2a-4e6b-8d1c-3a4b5c6d7e8f',
      title: 'Spring deals',
      body: '<p>Ten finds for the garden.</p>',
    },
  })

export const updateArticleBody = z
  .object({
    title: z.string().trim().min(1).max(500).optional(),
    body: z.string().max(MAX_ARTICLE_BODY).optional(),
  })
  .strict()
  .refine((b) => b.title !== undefined || b.body !== undefined, 'nothing to change')
  .openapi('UpdateArticle', { example: { title: 'Spring deals, updated', body: '<p>The revised text.</p>' } })

export const siteSchema = z
  .object({
    object: z.literal('site'),
    id: z.uuid(),
    name: z.string(),
    domain: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('Site')

/** A site with what it holds: what deleting it would take with it. */
export const siteDetailSchema = siteSchema
  .extend({
    counts: z.object({
      articles: z.number().int(),
      drafts: z.number().int(),
      published: z.number().int(),
      sources: z.number().int().openapi({ description: 'scrape-social sources feeding the site' }),
      source_items: z.number().int().openapi({ description: 'items those sources collected' }),
      affiliate_destinations: z.number().int(),
    }),
  })
  .openapi('SiteDetail', {
    example: {
      object: 'site',
      id: '7d4a5a0e-2f0c-4a43-9d49-6c1b8e0b7a11',
      name: 'Tech blog',
      domain: 'blog.example.com',
      created_at: '2026-11-01T09:00:00.000Z',
      updated_at: '2026-11-01T09:00:00.000Z',
      counts: {
        articles: 12,
        drafts: 3,
        published: 9,
        sources: 2,
        source_items: 140,
        affiliate_destinations: 1,
      },
    },
  })

/** A scraped item an article was generated from (generate-article). */
export const articleSourceSchema = z
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

export const articleSchema = z
  .object({
    object: z.literal('article'),
    id: z.uuid(),
    site_id: z.uuid(),
    title: z.string(),
    body: z.string(),
    status: z.enum(['draft', 'published']),
    published_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('Article')

export const contentItemSchema = z
  .object({
    object: z.enum(['site', 'article']),
    id: z.uuid(),
    created_at: z.string(),
    updated_at: z.string(),
    name: z.string().optional().openapi({ description: 'sites' }),
    domain: z.string().nullable().optional().openapi({ description: 'sites' }),
    site_id: z.uuid().nullable().optional().openapi({ description: 'articles' }),
    title: z.string().optional().openapi({ description: 'articles' }),
    status: z.string().nullable().optional().openapi({ description: 'articles: draft or published' }),
    published_at: z.string().nullable().optional().openapi({ description: 'articles' }),
  })
  .openapi('ContentItem')

export const contentListSchema = z.object({
  data: z.array(contentItemSchema),
  next_cursor: z.string().nullable(),
})

export type Site = z.infer<typeof siteSchema>
export type Article = z.infer<typeof articleSchema>
export type CreateSiteInput = z.output<typeof createSiteBody>
export type UpdateSiteInput = z.output<typeof updateSiteBody>
export type SiteDetail = z.infer<typeof siteDetailSchema>
export type ArticleSource = z.infer<typeof articleSourceSchema>
export type CreateArticleInput = z.output<typeof createArticleBody>
export type UpdateArticleInput = z.output<typeof updateArticleBody>
