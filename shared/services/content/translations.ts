import { z } from '@hono/zod-openapi'
import type { ServiceContext } from '@shared/infra/deps.ts'
import { notFound } from '@shared/infra/errors.ts'
import { type ArticleRow, selectArticle } from './article-row.ts'
import { createArticle } from './articles.ts'
import { localeField } from './locales.ts'
import { type Article, articleStatuses, createArticleBody, slugField } from './schema.ts'

/**
 * Translations (docs/content.md "Translations", docs/adr/0039-article-translations.md): an article
 * in another locale of its site, linked to its group's source. Each is an article of its own (slug,
 * state, revisions, schedule); creating one makes a draft (createArticle: the same checks, the same
 * revision and content.updated), so publishing it waits as any publish does.
 */

export const createTranslationBody = z
  .object({
    locale: localeField().openapi({
      description: "One of the site's locales the article has no translation in",
    }),
    title: createArticleBody.shape.title
      .optional()
      .openapi({ description: "The source's title when absent" }),
    body: createArticleBody.shape.body
      .unwrap()
      .optional()
      .openapi({ description: "Markdown; the source's body when absent" }),
    slug: slugField().optional().openapi({
      description: 'Unique in the site; made from the title when absent',
      example: 'soldes-de-printemps',
    }),
    excerpt: createArticleBody.shape.excerpt,
    meta_title: createArticleBody.shape.meta_title,
    meta_description: createArticleBody.shape.meta_description,
  })
  .strict()
  .openapi('CreateTranslation', {
    example: { locale: 'fr', title: 'Soldes de printemps', body: 'Dix trouvailles pour le **jardin**.' },
  })

export type CreateTranslationInput = z.output<typeof createTranslationBody>

const translationSchema = z
  .object({
    object: z.literal('translation'),
    article_id: z.uuid(),
    locale: z.string(),
    slug: z.string(),
    title: z.string(),
    status: z.enum(articleStatuses),
    source: z.boolean().openapi({ description: "The group's source (the article the others translate)" }),
    publish_at: z.string().nullable(),
    published_at: z.string().nullable(),
    review_requested_at: z.string().nullable(),
    updated_at: z.string(),
  })
  .openapi('Translation')

export const translationListSchema = z
  .object({ data: z.array(translationSchema) })
  .openapi('TranslationList', {
    example: {
      data: [
        {
          object: 'translation',
          article_id: '7c1e9f2a-4e6b-4d1c-8a4b-5c6d7e8f9a0b',
          locale: 'en',
          slug: 'spring-deals',
          title: 'Spring deals',
          status: 'published',
          source: true,
          publish_at: null,
          published_at: '2026-12-01T09:00:00.000Z',
          review_requested_at: null,
          updated_at: '2026-12-01T09:00:00.000Z',
        },
      ],
    },
  })

export type Translation = z.infer<typeof translationSchema>

/**
 * A draft translation of the article (or of its group's source, when the article is a translation)
 * in `locale`: the source's fields (title, body, excerpt, feature image, tags, meta fields) with those
 * given over them; its canonical_url is not copied (it would name the source's page). NOT_FOUND for
 * no article; VALIDATION_ERROR naming locale when the site does not offer it; CONFLICT naming locale
 * when the group has an article in it. Nothing is written unless the whole draft is.
 */
export async function createTranslation(
  ctx: ServiceContext,
  articleId: string,
  input: CreateTranslationInput,
): Promise<Article> {
  const { caller } = ctx
  const source = await ctx.readAsTenant(async (q) => {
    const [row] = await q<ArticleRow[]>`
      ${selectArticle(q)}
      where a.tenant_id = ${caller.tenantId}
        and a.id = (select coalesce(n.translation_of, n.id) from public.articles n
                    where n.id = ${articleId} and n.tenant_id = ${caller.tenantId})`
    return row
  })
  if (!source) throw notFound('Article')
  const pick = <T>(given: T | undefined, copied: T) => (given === undefined ? copied : given)
  return createArticle(
    ctx,
    {
      site_id: source.site_id,
      locale: input.locale,
      title: pick(input.title, source.title),
      body: pick(input.body, source.body),
      ...(input.slug && { slug: input.slug }),
      excerpt: pick(input.excerpt, source.excerpt),
      feature_image: source.feature_image_url
        ? { url: source.feature_image_url, alt: source.feature_image_alt ?? '' }
        : null,
      tags: source.tags.map((t) => t.slug),
      meta_title: pick(input.meta_title, source.meta_title),
      meta_description: pick(input.meta_description, source.meta_description),
    },
    source.id,
  )
}

/**
 * The article's translation group (its source and every translation the caller may read), the
 * source first, then by locale. NOT_FOUND for no article.
 */
export async function listTranslations(ctx: ServiceContext, articleId: string): Promise<Translation[]> {
  const { caller } = ctx
  const rows = await ctx.readAsTenant(
    (q) => q<
      {
        id: string
        locale: string
        slug: string
        title: string
        status: Article['status']
        translation_of: string | null
        publish_at: Date | null
        published_at: Date | null
        review_requested_at: Date | null
        updated_at: Date
      }[]
    >`
      select v.id, v.locale, v.slug, v.title, v.status, v.translation_of, v.publish_at, v.published_at,
             v.review_requested_at, v.updated_at
      from public.articles n join public.articles v
        on v.tenant_id = n.tenant_id and coalesce(v.translation_of, v.id) = coalesce(n.translation_of, n.id)
      where n.id = ${articleId} and n.tenant_id = ${caller.tenantId}
      order by v.translation_of is not null, v.locale`,
  )
  if (rows.length === 0) throw notFound('Article')
  return rows.map((r) => ({
    object: 'translation',
    article_id: r.id,
    locale: r.locale,
    slug: r.slug,
    title: r.title,
    status: r.status,
    source: r.translation_of === null,
    publish_at: r.publish_at?.toISOString() ?? null,
    published_at: r.published_at?.toISOString() ?? null,
    review_requested_at: r.review_requested_at?.toISOString() ?? null,
    updated_at: r.updated_at.toISOString(),
  }))
}
