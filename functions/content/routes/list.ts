import { z } from '@hono/zod-openapi'
import type { App } from '../../../shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '../../../shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '../../../shared/infra/http/openapi.ts'
import { decodeCursor, pageQuery } from '../../../shared/infra/pagination.ts'
import { isoTimestamp } from '../../../shared/infra/schemas.ts'
import { listContent } from '../../../shared/services/content/feed.ts'
import { contentListSchema } from '../../../shared/services/content/schema.ts'
import { meterUsage } from '../../../shared/services/usage/metering.ts'
import { metered, readAuth } from './auth.ts'

const listQuery = pageQuery.extend({
  type: z.enum(['site', 'article']).optional().openapi({ description: 'Only sites or only articles' }),
  site_id: z.uuid().optional().openapi({ description: 'The site, and the articles of that site' }),
  status: z.enum(['draft', 'published']).optional().openapi({ description: 'Articles with this status' }),
  published_since: isoTimestamp().optional().openapi({ description: 'Articles published at or after' }),
})

export const route = defineRoute(readAuth, {
  method: 'get',
  path: '/',
  summary: "List the tenant's sites and articles (oldest first, keyset pagination)",
  description: `Needs a user access token or a platform API key with the scope content:read.${metered}`,
  request: { query: listQuery },
  responses: {
    200: jsonContent(contentListSchema, 'A page of content'),
    ...errorResponses(400, 401, 403, 429),
  },
})

export type ListContentResponse = z.infer<typeof contentListSchema>

export const registerListContent = (app: App) =>
  app.openapi(route, async (c) => {
    const { limit, cursor, type, site_id, status, published_since } = c.req.valid('query')
    const ctx = serviceContext(c)
    const after = decodeCursor(cursor)
    const filter = {
      type,
      site_id,
      status,
      published_since: published_since ? new Date(published_since) : undefined,
    }
    // Metering and the read run side by side: the response waits for both, and a refused call
    // (429) discards the page. Reads only; writes are metered before they change anything.
    const [, page] = await Promise.all([
      meterUsage(ctx, 'content'),
      listContent(ctx, { limit, after, filter }),
    ])
    return c.json(page, 200)
  })
