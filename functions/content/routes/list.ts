import { cached, listFormatsQuery, localeQuery, metered } from '@functions/content/read-options.ts'
import { answerRead } from '@functions/content/respond.ts'
import { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { publishedReader } from '@shared/infra/http/route-auth.ts'
import { meteredRoute } from '@shared/infra/http/route-meter.ts'
import { decodeCursor, pageQuery } from '@shared/infra/pagination.ts'
import { isoTimestamp } from '@shared/infra/schemas.ts'
import { listContent, listContentWhole } from '@shared/services/content/feed.ts'
import { contentListSchema, slugField } from '@shared/services/content/schema.ts'

const listQuery = pageQuery.extend({
  // Decoded while the query is validated, so a request with a bad cursor is refused before the
  // request is metered (meteredRoute).
  cursor: pageQuery.shape.cursor.transform(decodeCursor),
  type: z.enum(['site', 'article']).optional().openapi({ description: 'Only sites or only articles' }),
  site_id: z.uuid().optional().openapi({ description: 'The site, and the articles of that site' }),
  status: z
    .enum(['draft', 'scheduled', 'published'])
    .optional()
    .openapi({ description: 'Articles with this status' }),
  tag: slugField().optional().openapi({ description: 'Articles carrying the tag with this slug' }),
  author: z.uuid().optional().openapi({ description: 'Articles by this author (a user id)' }),
  review: z
    .enum(['requested'])
    .optional()
    .openapi({ description: 'requested: only drafts submitted for review (review_requested_at set)' }),
  published_since: isoTimestamp().optional().openapi({ description: 'Articles published at or after' }),
  published_before: isoTimestamp().optional().openapi({ description: 'Articles published before' }),
  q: z.string().trim().max(200).optional().openapi({
    description: "Words that all appear in a site's name or an article's title",
    example: 'edge',
  }),
  locale: localeQuery.openapi({
    description:
      "BCP 47. Each translation group's article in this locale, else in its site's default locale, else its source (items name their locale)",
  }),
  formats: listFormatsQuery,
  order: z
    .enum(['oldest', 'newest'])
    .default('oldest')
    .openapi({ description: 'Oldest first (the default) or newest first' }),
})

export const route = defineRoute(publishedReader, {
  method: 'get',
  path: '/',
  meter: { product: 'content', buffered: true },
  summary: "List the tenant's sites and articles",
  description:
    "List the tenant's sites and articles (oldest or newest first, keyset pagination)" +
    '\n\n' +
    `Needs a user access token or a platform API key with the scope content:read; a published-only key lists sites and published articles only.${metered}${cached}`,
  request: { query: listQuery },
  responses: {
    200: jsonContent(contentListSchema, 'A page of content'),
    304: { description: 'Not modified (If-None-Match)' },
    ...errorResponses(400, 401, 403, 429),
  },
})

export const registerListContent = (app: App) =>
  meteredRoute(app, route, async (c) => {
    const {
      limit,
      cursor,
      type,
      site_id,
      status,
      tag,
      author,
      review,
      published_since,
      published_before,
      q,
      order,
      locale,
      formats,
    } = c.req.valid('query')
    const filter = {
      type,
      site_id,
      status,
      published_since: published_since ? new Date(published_since) : undefined,
      published_before: published_before ? new Date(published_before) : undefined,
      tag,
      author,
      review,
      q,
      locale,
      newestFirst: order === 'newest',
    }
    // The hot path: the key was verified and its rate limit charged from this instance's cache
    // and lease (no database statement when both are in hand), meteredRoute metered it through the
    // usage buffer (a Free tenant's unit is reserved before the read), and the read is one
    // statement that sets role and claims itself and reads under row-level security.
    const ctx = serviceContext(c)
    const opts = { limit, after: cursor, filter }
    return answerRead(c, () => (formats ? listContentWhole(ctx, opts, formats) : listContent(ctx, opts)))
  })
