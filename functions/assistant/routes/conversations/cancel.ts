import { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { memberOrKey } from '@shared/infra/http/route-auth.ts'
import { turnSchema } from '@shared/services/assistant/schema.ts'
import { cancelTurn } from '@shared/services/assistant/turn/cancel.ts'

const params = z.object({
  id: z.uuid().openapi({ param: { name: 'id', in: 'path' } }),
  turn_id: z.uuid().openapi({ param: { name: 'turn_id', in: 'path' } }),
})

export const route = defineRoute(memberOrKey('assistant:invoke'), {
  method: 'post',
  path: '/conversations/{id}/turns/{turn_id}/cancel',
  summary: 'Stop a running turn',
  description:
    'Marks the turn for cancellation, whichever instance runs it: it records status `cancelled` at its next step (before its next model call, or before the tool calls the model asked for). A tool call not yet started is not started (its status is `cancelled`); what the model already answered is kept and its tokens are metered. A turn waiting for approval is cancelled at once. A turn that has ended is 409.',
  request: { params },
  responses: {
    202: jsonContent(z.object({ turn: turnSchema }).openapi('AssistantCancelledTurn'), 'The turn, marked'),
    ...errorResponses(400, 401, 403, 404, 409, 429),
  },
})

export const registerCancelTurn = (app: App) =>
  app.openapi(route, async (c) => {
    const { id, turn_id } = c.req.valid('param')
    return c.json(await cancelTurn(serviceContext(c), id, turn_id), 202)
  })
