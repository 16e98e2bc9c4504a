import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { memberOrKey } from '@shared/infra/http/route-auth.ts'
import { getJob } from '@shared/services/jobs/jobs.ts'
import { jobSchema } from '@shared/services/jobs/schema.ts'

export const route = defineRoute(memberOrKey('content:read'), {
  method: 'get',
  path: '/background-jobs/{id}',
  summary: 'One job: its status, attempts, result or error',
  request: { params: idParam },
  responses: {
    200: jsonContent(jobSchema, 'The job'),
    ...errorResponses(400, 401, 403, 404, 429),
  },
})

export const registerGetJob = (app: App) =>
  app.openapi(route, async (c) => c.json(await getJob(serviceContext(c), c.req.valid('param').id), 200))
