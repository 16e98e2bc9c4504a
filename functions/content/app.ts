import { createRoute, z } from '@hono/zod-openapi'
import { isPgError, pgErrors, readAsTenant, type Tx, withTenant } from '../../shared/infra/db.ts'
import type { FunctionDeps } from '../../shared/infra/deps.ts'
import { notFound } from '../../shared/infra/errors.ts'
import { recordEvent } from '../../shared/infra/events.ts'
import { authenticate, readAuthenticated, tenantCaller } from '../../shared/infra/http/authenticate.ts'
import { serviceContext } from '../../shared/infra/http/define-route.ts'
import { createFunctionApp } from '../../shared/infra/http/function-app.ts'
import { errorResponses, jsonContent } from '../../shared/infra/http/openapi.ts'
import { decodeCursor, pageQuery, paginate } from '../../shared/infra/pagination.ts'
import { listContent, presentContent } from '../../shared/services/content/queries.ts'
import {
  articleSchema,
  createArticleBody,
  createSiteBody,
  idParam,
  siteSchema,
  updateArticleBody,
} from '../../shared/services/content/schema.ts'
import { meterUsage, recordUsageQuery, settleUsage } from '../../shared/services/usage/metering.ts'

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
  published_since: z.iso
    .datetime({ offset: true })
    .optional()
    .openapi({ description: 'Articles published at or after' }),
})

const security = [{ bearer: [] }]
const read = authenticate({ allow: ['user', 'platform_key'], scope: 'content:read' })
const pipelinedRead = authenticate({
  allow: ['user', 'platform_key'],
  scope: 'content:read',
  pipelined: true,
})
const write = authenticate({ allow: ['user', 'platform_key'], scope: 'content:write' })
const body = <T extends z.ZodType>(schema: T) => ({
  body: { content: { 'application/json': { schema } }, required: true },
})
const metered = ' Metered as one Content API request; past the Free quota: 429 QUOTA_EXCEEDED.'

const routes = {
  list: createRoute({
    method: 'get',
    path: '/',
    summary: "List the tenant's sites and articles (oldest first, keyset pagination)",
    description: `Needs a user access token or a platform API key with the scope content:read.${metered}`,
    security,
    middleware: [pipelinedRead] as const,
    request: { query: listQuery },
    responses: {
      200: jsonContent(
        z.object({ data: z.array(contentItem), next_cursor: z.string().nullable() }),
        'A page of content',
      ),
      ...errorResponses(400, 401, 403, 429),
    },
  }),
  getArticle: createRoute({
    method: 'get',
    path: '/articles/{id}',
    summary: 'One article with its body (content:read)',
    description: metered,
    security,
    middleware: [read] as const,
    request: { params: idParam },
    responses: { 200: jsonContent(articleSchema, 'The article'), ...errorResponses(400, 401, 403, 404, 429) },
  }),
  createSite: createRoute({
    method: 'post',
    path: '/sites',
    summary: 'Add a site (content:write); event site.created',
    description: metered,
    security,
    middleware: [write] as const,
    request: body(createSiteBody),
    responses: { 201: jsonContent(siteSchema, 'Created'), ...errorResponses(400, 401, 403, 413, 429) },
  }),
  deleteSite: createRoute({
    method: 'delete',
    path: '/sites/{id}',
    summary: 'Remove a site and its articles (content:write); event site.deleted',
    description: metered,
    security,
    middleware: [write] as const,
    request: { params: idParam },
    responses: { 204: { description: 'Deleted' }, ...errorResponses(400, 401, 403, 404, 429) },
  }),
  createArticle: createRoute({
    method: 'post',
    path: '/articles',
    summary: 'Create a draft article in a site (content:write); event content.updated',
    description: metered,
    security,
    middleware: [write] as const,
    request: body(createArticleBody),
    responses: {
      201: jsonContent(articleSchema, 'Created'),
      ...errorResponses(400, 401, 403, 404, 413, 429),
    },
  }),
  updateArticle: createRoute({
    method: 'patch',
    path: '/articles/{id}',
    summary: 'Change the title or body (content:write); event content.updated when something changed',
    description: metered,
    security,
    middleware: [write] as const,
    request: { params: idParam, ...body(updateArticleBody) },
    responses: {
      200: jsonContent(articleSchema, 'The article'),
      ...errorResponses(400, 401, 403, 404, 413, 429),
    },
  }),
  deleteArticle: createRoute({
    method: 'delete',
    path: '/articles/{id}',
    summary: 'Delete an article (content:write); event content.updated',
    description: metered,
    security,
    middleware: [write] as const,
    request: { params: idParam },
    responses: { 204: { description: 'Deleted' }, ...errorResponses(400, 401, 403, 404, 429) },
  }),
  publishArticle: createRoute({
    method: 'post',
    path: '/articles/{id}/publish',
    summary: 'Publish an article (content:write); event content.published. Publishing again changes nothing',
    description: metered,
    security,
    middleware: [write] as const,
    request: { params: idParam },
    responses: {
      200: jsonContent(articleSchema, 'The published article'),
      ...errorResponses(400, 401, 403, 404, 429),
    },
  }),
}

interface SiteRow {
  id: string
  name: string
  domain: string | null
  created_at: Date
  updated_at: Date
}

interface ArticleRow {
  id: string
  site_id: string
  title: string
  body: string
  status: 'draft' | 'published'
  published_at: Date | null
  created_at: Date
  updated_at: Date
}

const siteColumns = 'id, name, domain, created_at, updated_at'
const articleColumns = 'id, site_id, title, body, status, published_at, created_at, updated_at'

const presentSite = (r: SiteRow) => ({
  object: 'site' as const,
  id: r.id,
  name: r.name,
  domain: r.domain,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
})

const presentArticle = (r: ArticleRow) => ({
  object: 'article' as const,
  id: r.id,
  site_id: r.site_id,
  title: r.title,
  body: r.body,
  status: r.status,
  published_at: r.published_at?.toISOString() ?? null,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
})

/** content.updated: what changed in which article (never the body). */
function updatedEvent(r: ArticleRow, change: 'created' | 'updated' | 'deleted', fields: string[], at: Date) {
  return {
    article_id: r.id,
    site_id: r.site_id,
    title: r.title,
    status: r.status,
    change,
    changed_fields: fields,
    updated_at: at.toISOString(),
  }
}

export function createApp(deps: FunctionDeps) {
  const app = createFunctionApp(functionName, deps, 'Content API: sites and articles')

  app.openapi(routes.list, async (c) => {
    const { limit, cursor, type, site_id, status, published_since } = c.req.valid('query')
    const after = decodeCursor(cursor)
    const filter = {
      type,
      site_id,
      status,
      published_since: published_since ? new Date(published_since) : undefined,
    }
    // One round trip: a key's authentication, the metering and the read are pipelined in one
    // transaction; a refused key or call (401/403/429) discards the page. Reads only; writes are
    // metered before they change anything.
    const now = deps.clock.now()
    const { rows, before: usage } = await readAuthenticated(
      c,
      (q, tenant) => listContent(q, tenant, after, limit, filter),
      deps.config.METERING_ENABLED
        ? (q, tenant) => recordUsageQuery(q, tenant, 'content', 1, now)
        : undefined,
    )
    if (usage) await settleUsage(serviceContext(c), 'content', 1, usage[0]!, now)
    const page = paginate(rows, limit, (r) => ({ at: r.created_at, id: r.id }))
    return c.json({ data: page.data.map(presentContent), next_cursor: page.next_cursor }, 200)
  })

  app.openapi(routes.getArticle, async (c) => {
    const { id } = c.req.valid('param')
    const caller = tenantCaller(c)
    await meterUsage(serviceContext(c), 'content')
    const [row] = await withTenant(
      deps.sql,
      caller.claims,
      (tx) => tx<ArticleRow[]>`
      select ${tx.unsafe(articleColumns)} from public.articles where id = ${id} and tenant_id = ${caller.tenantId}`,
    )
    if (!row) throw notFound('Article')
    return c.json(presentArticle(row), 200)
  })

  app.openapi(routes.createSite, async (c) => {
    const input = c.req.valid('json')
    const caller = tenantCaller(c)
    await meterUsage(serviceContext(c), 'content')
    const now = deps.clock.now()
    const row = await withTenant(deps.sql, caller.claims, async (tx) => {
      const [site] = await tx<SiteRow[]>`
        insert into public.sites (tenant_id, name, domain, created_at, updated_at)
        values (${caller.tenantId}, ${input.name}, ${input.domain ?? null}, ${now}, ${now})
        returning ${tx.unsafe(siteColumns)}`
      await recordEvent(tx, {
        tenantId: caller.tenantId,
        type: 'site.created',
        at: now,
        data: { site_id: site!.id, name: site!.name, domain: site!.domain, created_at: now.toISOString() },
      })
      return site!
    })
    deps.onOutboxCommitted?.()
    return c.json(presentSite(row), 201)
  })

  app.openapi(routes.deleteSite, async (c) => {
    const { id } = c.req.valid('param')
    const caller = tenantCaller(c)
    await meterUsage(serviceContext(c), 'content')
    const now = deps.clock.now()
    const deleted = await withTenant(deps.sql, caller.claims, async (tx) => {
      const [site] = await tx<(SiteRow & { articles: number })[]>`
        with gone as (
          delete from public.sites where id = ${id} and tenant_id = ${caller.tenantId} returning ${tx.unsafe(siteColumns)}
        )
        select gone.*, (select count(*)::int from public.articles a where a.site_id = gone.id) as articles from gone`
      if (!site) return false
      await recordEvent(tx, {
        tenantId: caller.tenantId,
        type: 'site.deleted',
        at: now,
        data: {
          site_id: site.id,
          name: site.name,
          domain: site.domain,
          articles_deleted: site.articles,
          deleted_at: now.toISOString(),
        },
      })
      return true
    })
    if (!deleted) throw notFound('Site')
    deps.onOutboxCommitted?.()
    return c.body(null, 204)
  })

  app.openapi(routes.createArticle, async (c) => {
    const input = c.req.valid('json')
    const caller = tenantCaller(c)
    await meterUsage(serviceContext(c), 'content')
    const now = deps.clock.now()
    const row = await withTenant(deps.sql, caller.claims, async (tx) => {
      // The site must be one of this tenant's (RLS hides the others).
      const [site] =
        await tx`select 1 from public.sites where id = ${input.site_id} and tenant_id = ${caller.tenantId}`
      if (!site) throw notFound('Site')
      const [article] = await tx<ArticleRow[]>`
        insert into public.articles (tenant_id, site_id, title, body, created_at, updated_at)
        values (${caller.tenantId}, ${input.site_id}, ${input.title}, ${input.body}, ${now}, ${now})
        returning ${tx.unsafe(articleColumns)}`
      await recordEvent(tx, {
        tenantId: caller.tenantId,
        type: 'content.updated',
        at: now,
        data: updatedEvent(article!, 'created', ['title', 'body'], now),
      })
      return article!
    }).catch((err) => {
      // The site was deleted between the check and the insert.
      if (isPgError(err, pgErrors.foreignKeyViolation)) throw notFound('Site')
      throw err
    })
    deps.onOutboxCommitted?.()
    return c.json(presentArticle(row), 201)
  })

  app.openapi(routes.updateArticle, async (c) => {
    const { id } = c.req.valid('param')
    const input = c.req.valid('json')
    const caller = tenantCaller(c)
    await meterUsage(serviceContext(c), 'content')
    const now = deps.clock.now()
    const { row, changed } = await withTenant(deps.sql, caller.claims, async (tx: Tx) => {
      const [before] = await tx<ArticleRow[]>`
        select ${tx.unsafe(articleColumns)} from public.articles
        where id = ${id} and tenant_id = ${caller.tenantId} for update`
      if (!before) throw notFound('Article')
      const changed = (['title', 'body'] as const).filter(
        (f) => input[f] !== undefined && input[f] !== before[f],
      )
      if (changed.length === 0) return { row: before, changed }
      const [after] = await tx<ArticleRow[]>`
        update public.articles set title = ${input.title ?? before.title}, body = ${input.body ?? before.body}, updated_at = ${now}
        where id = ${id} returning ${tx.unsafe(articleColumns)}`
      await recordEvent(tx, {
        tenantId: caller.tenantId,
        type: 'content.updated',
        at: now,
        data: updatedEvent(after!, 'updated', changed, now),
      })
      return { row: after!, changed }
    })
    if (changed.length > 0) deps.onOutboxCommitted?.()
    return c.json(presentArticle(row), 200)
  })

  app.openapi(routes.deleteArticle, async (c) => {
    const { id } = c.req.valid('param')
    const caller = tenantCaller(c)
    await meterUsage(serviceContext(c), 'content')
    const now = deps.clock.now()
    const deleted = await withTenant(deps.sql, caller.claims, async (tx) => {
      const [article] = await tx<ArticleRow[]>`
        delete from public.articles where id = ${id} and tenant_id = ${caller.tenantId} returning ${tx.unsafe(articleColumns)}`
      if (!article) return false
      await recordEvent(tx, {
        tenantId: caller.tenantId,
        type: 'content.updated',
        at: now,
        data: updatedEvent(article, 'deleted', [], now),
      })
      return true
    })
    if (!deleted) throw notFound('Article')
    deps.onOutboxCommitted?.()
    return c.body(null, 204)
  })

  app.openapi(routes.publishArticle, async (c) => {
    const { id } = c.req.valid('param')
    const caller = tenantCaller(c)
    await meterUsage(serviceContext(c), 'content')
    const now = deps.clock.now()
    const { row, published } = await withTenant(deps.sql, caller.claims, async (tx) => {
      const [article] = await tx<ArticleRow[]>`
        update public.articles set status = 'published', published_at = ${now}, updated_at = ${now}
        where id = ${id} and tenant_id = ${caller.tenantId} and status = 'draft'
        returning ${tx.unsafe(articleColumns)}`
      if (article) {
        await recordEvent(tx, {
          tenantId: caller.tenantId,
          type: 'content.published',
          at: now,
          // Exactly the spec's data.
          data: {
            article_id: article.id,
            title: article.title,
            site_id: article.site_id,
            published_at: article.published_at!.toISOString(),
          },
        })
        return { row: article, published: true }
      }
      const [existing] = await tx<ArticleRow[]>`
        select ${tx.unsafe(articleColumns)} from public.articles where id = ${id} and tenant_id = ${caller.tenantId}`
      return { row: existing ?? null, published: false }
    })
    if (!row) throw notFound('Article')
    if (published) deps.onOutboxCommitted?.()
    return c.json(presentArticle(row), 200)
  })

  return app
}
