import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { ownerOrAdmin } from '@shared/infra/http/route-auth.ts'
import { rotateCredential } from '@shared/services/credentials/credentials.ts'
import {
  type Credential,
  credentialSchema,
  rotateCredentialBody,
} from '@shared/services/credentials/schema.ts'

export const route = defineRoute(ownerOrAdmin, {
  method: 'post',
  path: '/{id}/rotate',
  summary: "Replace a credential's secret",
  description: 'Replace the secret (new key_hint; the old ciphertext is overwritten)',
  request: {
    params: idParam,
    body: { content: { 'application/json': { schema: rotateCredentialBody } }, required: true },
  },
  responses: {
    200: jsonContent(credentialSchema, 'The rotated credential'),
    ...errorResponses(400, 401, 403, 404, 413, 429),
  },
})

export type RotateCredentialResponse = Credential

export const registerRotateCredential = (app: App) =>
  app.openapi(route, async (c) =>
    c.json(await rotateCredential(serviceContext(c), c.req.valid('param').id, c.req.valid('json')), 200),
  )
