import { createRoute, z } from '@hono/zod-openapi'
import { createFunctionApp } from '../../shared/app.ts'
import { authenticate, tenantCaller } from '../../shared/auth.ts'
import { withTenant } from '../../shared/db.ts'
import type { FunctionDeps } from '../../shared/deps.ts'
import { errorResponses } from '../../shared/openapi.ts'
import { decodeCursor, pageQuery, paginate } from '../../shared/pagination.ts'
import { listContent, presentContent } from './queries.ts'

export const functionName = 'content'

const contentItem = z
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

const listQuery = pageQuery.extend({
  type: z.enum(['site', 'article']).optional().openapi({ description: 'Only sites or only articles' }),
  site_id: z.uuid().optional().openapi({ description: 'The site, and the articles of that site' }),
  status: z.enum(['draft', 'published']).optional().openapi({ description: 'Articles with this status' }),
  published_since: z.iso.datetime({ offset: true }).optional().openapi({ description: 'Articles published at or after' }),
})

const listRoute = createRoute({
  method: 'get',
  path: '/',
  summary: "List the tenant's sites and articles (oldest first, keyset pagination)",
  description: 'Needs a user access token or a platform API key with the scope content:read.',
  security: [{ bearer: [] }],
  request: { query: listQuery },
  responses: {
    200: {
      description: 'A page of content',
      content: { 'application/json': { schema: z.object({ data: z.array(contentItem), next_cursor: z.string().nullable() }) } },
    },
    ...errorResponses(400, 401, 403, 429),
  },
})

export function createApp(deps: FunctionDeps) {
  const app = createFunctionApp(functionName, deps, 'Content API: sites and articles')

  app.use('/', authenticate({ allow: ['user', 'platform_key'], scope: 'content:read' }))
  app.openapi(listRoute, async (c) => {
    const { limit, cursor, type, site_id, status, published_since } = c.req.valid('query')
    const caller = tenantCaller(c)
    const after = decodeCursor(cursor)
    const filter = { type, site_id, status, published_since: published_since ? new Date(published_since) : undefined }
    const rows = await withTenant(deps.sql, caller.claims, (tx) => listContent(tx, caller.tenantId, after, limit, filter))
    const page = paginate(rows, limit, (r) => ({ at: r.created_at, id: r.id }))
    return c.json({ data: page.data.map(presentContent), next_cursor: page.next_cursor }, 200)
  })
  return app
}
