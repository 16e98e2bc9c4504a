import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { memberOrKey } from '@shared/infra/http/route-auth.ts'
import { decodeCursor } from '@shared/infra/pagination.ts'
import { listJobs } from '@shared/services/jobs/jobs.ts'
import { jobListQuery, jobListSchema } from '@shared/services/jobs/schema.ts'

export const route = defineRoute(memberOrKey('content:read'), {
  method: 'get',
  path: '/background-jobs',
  summary: "List the tenant's background jobs",
  description:
    "List the tenant's background jobs, newest first: scrapes, article generation, affiliate syncs and assistant turns; `origin=background` leaves out the turns of chat messages.",
  request: { query: jobListQuery },
  responses: {
    200: jsonContent(jobListSchema, 'A page of jobs'),
    ...errorResponses(400, 401, 403, 429),
  },
})

export const registerListJobs = (app: App) =>
  app.openapi(route, async (c) => {
    const { limit, cursor, kind, status, origin } = c.req.valid('query')
    return c.json(
      await listJobs(serviceContext(c), { limit, after: decodeCursor(cursor), kind, status, origin }),
      200,
    )
  })
