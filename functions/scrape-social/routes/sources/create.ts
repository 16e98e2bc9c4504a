import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { ownerOrAdminOrKey } from '@shared/infra/http/route-auth.ts'
import { createSourceBody, sourceSchema } from '@shared/services/sources/schema.ts'
import { scrapeEngine } from '@shared/services/sources/scrape.ts'
import { createSource } from '@shared/services/sources/sources.ts'

export const route = defineRoute(ownerOrAdminOrKey('content:write'), {
  method: 'post',
  path: '/sources',
  summary: 'Add a source',
  description:
    'Add a source (a feed, or an Apify actor run) that feeds one site, with an optional schedule; an enabled feed (or a scheduled actor) is fetched at once, its job in last_job_id',
  request: { body: { content: { 'application/json': { schema: createSourceBody } }, required: true } },
  responses: {
    201: jsonContent(sourceSchema, 'Created'),
    ...errorResponses(400, 401, 403, 413, 429),
  },
})

export const registerCreateSource = (app: App) =>
  app.openapi(route, async (c) => {
    const { source, firstScrape } = await createSource(serviceContext(c), c.req.valid('json'))
    // The first fetch runs now on this instance; the sweep runs it if this instance stops first.
    if (firstScrape) scrapeEngine(c.var.deps).kick([firstScrape.id])
    return c.json(source, 201)
  })
