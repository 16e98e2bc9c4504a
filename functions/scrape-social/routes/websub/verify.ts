import { z } from '@hono/zod-openapi'
import { notFound } from '@shared/infra/errors.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { chargeClientAddress } from '@shared/infra/http/authenticate.ts'
import { defineRoute, depsOf } from '@shared/infra/http/define-route.ts'
import { errorResponses } from '@shared/infra/http/openapi.ts'
import { websubHub } from '@shared/infra/http/route-auth.ts'
import { callbackParams, verifyIntent } from '@shared/services/sources/websub-callback.ts'

const intentQuery = z.object({
  'hub.mode': z.enum(['subscribe', 'unsubscribe', 'denied']),
  'hub.topic': z.string().min(1).max(2000),
  'hub.challenge': z.string().min(1).max(512).optional(),
  'hub.lease_seconds': z.coerce.number().int().positive().max(100_000_000).optional(),
  'hub.reason': z.string().max(2000).optional(),
})

export const route = defineRoute(websubHub, {
  method: 'get',
  path: '/sources/websub/{subscription_id}/{token}',
  summary: 'A WebSub hub verifies a subscription',
  description: `A WebSub hub verifies a source's subscription (or unsubscription), or says it was denied. The hub's verification of intent (W3C WebSub §5.3). The address is the one the platform gave the hub as hub.callback; its token is the only credential. hub.challenge is echoed (200, text/plain) only when the mode and topic match a request the platform made; anything else answers 404 and changes nothing.`,
  request: { params: callbackParams, query: intentQuery },
  responses: {
    200: { description: 'The challenge, echoed', content: { 'text/plain': { schema: z.string() } } },
    ...errorResponses(400, 401, 404, 429),
  },
})

export const registerWebsubVerify = (app: App) =>
  app.openapi(route, async (c) => {
    const deps = depsOf(c)
    const { subscription_id, token } = c.req.valid('param')
    const q = c.req.valid('query')
    const answer = await verifyIntent(deps, subscription_id, token, {
      mode: q['hub.mode'],
      topic: q['hub.topic'],
      challenge: q['hub.challenge'],
      leaseSeconds: q['hub.lease_seconds'],
      reason: q['hub.reason'],
    })
    if (!answer) {
      // Guessing addresses costs the guesser's address bucket.
      await chargeClientAddress(c)
      throw notFound('Subscription')
    }
    return c.text(answer.echo, 200)
  })
