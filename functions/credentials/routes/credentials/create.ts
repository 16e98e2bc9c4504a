import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { ownerOrAdmin } from '@shared/infra/http/route-auth.ts'
import { createCredential } from '@shared/services/credentials/credentials.ts'
import {
  type Credential,
  createCredentialBody,
  credentialSchema,
} from '@shared/services/credentials/schema.ts'

export const route = defineRoute(ownerOrAdmin, {
  method: 'post',
  path: '/',
  summary: 'Store a credential',
  description: 'Store a credential (the secret is encrypted at once; only key_hint is ever shown)',
  request: { body: { content: { 'application/json': { schema: createCredentialBody } }, required: true } },
  responses: {
    201: jsonContent(credentialSchema, 'Created'),
    ...errorResponses(400, 401, 403, 409, 413, 429),
  },
})

export type CreateCredentialResponse = Credential

export const registerCreateCredential = (app: App) =>
  app.openapi(route, async (c) => c.json(await createCredential(serviceContext(c), c.req.valid('json')), 201))
