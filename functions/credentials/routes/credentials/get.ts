import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { member } from '@shared/infra/http/route-auth.ts'
import { getCredential } from '@shared/services/credentials/credentials.ts'
import { type Credential, credentialSchema } from '@shared/services/credentials/schema.ts'

export const route = defineRoute(member, {
  method: 'get',
  path: '/{id}',
  summary: 'Get one credential (never its secret)',
  request: { params: idParam },
  responses: {
    200: jsonContent(credentialSchema, 'The credential'),
    ...errorResponses(400, 401, 404, 429),
  },
})

export type GetCredentialResponse = Credential

export const registerGetCredential = (app: App) =>
  app.openapi(route, async (c) =>
    c.json(await getCredential(serviceContext(c), c.req.valid('param').id), 200),
  )
