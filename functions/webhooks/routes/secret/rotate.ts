import type { z } from '@hono/zod-openapi'
import { MALFORMED_JSON, ServiceError, validationError } from '@shared/infra/errors.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { ownerOrAdmin } from '@shared/infra/http/route-auth.ts'
import { rotateSecretBody, secretSchema } from '@shared/services/webhooks/schema.ts'
import { rotateSecret } from '@shared/services/webhooks/secrets.ts'

export const route = defineRoute(ownerOrAdmin, {
  method: 'post',
  path: '/{id}/rotate-secret',
  summary: 'Rotate the signing secret',
  description: 'Rotate the signing secret; the previous one keeps signing during the overlap',
  request: {
    params: idParam,
    body: { content: { 'application/json': { schema: rotateSecretBody } }, required: false },
  },
  responses: {
    200: jsonContent(secretSchema, 'The new secret'),
    ...errorResponses(400, 401, 403, 404, 429),
  },
})

export type RotateSecretResponse = z.infer<typeof secretSchema>

export const registerRotateSecret = (app: App) =>
  app.openapi(route, async (c) => {
    // The body is optional: no body means the default overlap.
    const raw = (await c.req.text()).trim()
    let body: unknown = {}
    if (raw) {
      try {
        body = JSON.parse(raw)
      } catch {
        throw new ServiceError('VALIDATION_ERROR', MALFORMED_JSON)
      }
    }
    const parsed = rotateSecretBody.safeParse(body)
    if (!parsed.success) throw validationError(parsed.error.issues)
    const { id } = c.req.valid('param')
    return c.json(await rotateSecret(serviceContext(c), id, parsed.data.overlap_seconds), 200)
  })
