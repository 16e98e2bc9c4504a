import { z } from '@hono/zod-openapi'
import { eventCatalog } from '@shared/infra/event-catalog.ts'
import { eventTypes } from '@shared/infra/events.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { member } from '@shared/infra/http/route-auth.ts'

const eventTypeListSchema = z
  .object({
    data: z.array(
      z.object({
        type: z.enum(eventTypes),
        summary: z.string().openapi({ description: 'When the event occurs' }),
      }),
    ),
  })
  .openapi('WebhookEventTypeList')

export const route = defineRoute(member, {
  method: 'get',
  path: '/event-types',
  summary: 'The event types a subscription may name',
  description: 'The event types a subscription may name, each with when it occurs (the event catalog)',
  responses: {
    200: jsonContent(eventTypeListSchema, 'Every event type, in the catalog order'),
    ...errorResponses(401, 429),
  },
})

/** The dashboard's list of events to subscribe to comes from here, so it never lags the catalog. */
export const registerListEventTypes = (app: App) =>
  app.openapi(route, (c) =>
    c.json({ data: eventTypes.map((type) => ({ type, summary: eventCatalog[type].summary })) }, 200),
  )
