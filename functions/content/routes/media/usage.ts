import { metered } from '@functions/content/read-options.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { memberOrKey } from '@shared/infra/http/route-auth.ts'
import { meteredRoute } from '@shared/infra/http/route-meter.ts'
import { mediaUsage } from '@shared/services/media/library.ts'
import { mediaUsageSchema } from '@shared/services/media/schema.ts'

export const route = defineRoute(memberOrKey('content:read'), {
  method: 'get',
  path: '/media-usage',
  meter: 'content',
  summary: 'Media storage against the plan',
  description: `The media library's stored bytes against the plan's storage quota and file size limit (content:read).${metered}`,
  responses: {
    200: jsonContent(mediaUsageSchema, 'Storage used and the plan quota'),
    ...errorResponses(401, 403, 429),
  },
})

export const registerMediaUsage = (app: App) =>
  meteredRoute(app, route, async (c) => c.json(await mediaUsage(serviceContext(c)), 200))
