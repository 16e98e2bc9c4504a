import type { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { ownerOrAdmin } from '@shared/infra/http/route-auth.ts'
import { secretSchema } from '@shared/services/webhooks/schema.ts'
import { revealSecret } from '@shared/services/webhooks/secrets.ts'

export const route = defineRoute(ownerOrAdmin, {
  method: 'get',
  path: '/{id}/secret',
  summary: 'Reveal the signing secret (owners and admins)',
  request: { params: idParam },
  responses: {
    200: jsonContent(secretSchema, 'The secret'),
    ...errorResponses(400, 401, 403, 404, 429),
  },
})

export type RevealSecretResponse = z.infer<typeof secretSchema>

export const registerRevealSecret = (app: App) =>
  app.openapi(route, async (c) => c.json(await revealSecret(serviceContext(c), c.req.valid('param').id), 200))
