import { z } from '@hono/zod-openapi'
import { notFound, ServiceError } from '@shared/infra/errors.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { chargeClientAddress } from '@shared/infra/http/authenticate.ts'
import { defineRoute, depsOf } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { websubHub } from '@shared/infra/http/route-auth.ts'
import { scrapeEngine } from '@shared/services/sources/scrape.ts'
import { callbackParams, MAX_PUSH_BYTES, receivePush } from '@shared/services/sources/websub-callback.ts'

const pushReceipt = z.object({ status: z.enum(['accepted', 'ignored']) }).openapi('WebsubPushReceipt')

export const route = defineRoute(websubHub, {
  method: 'post',
  path: '/sources/websub/{subscription_id}/{token}',
  summary: "A WebSub hub pushes a source's feed (content distribution)",
  description: `The hub's content distribution (W3C WebSub §7): the feed document as the body, signed in X-Hub-Signature (sha256=<hex HMAC of the body under the subscription's secret>; sha1, sha384 and sha512 are taken too). A correctly signed body of an active subscription is ingested as a fetch would be (new items only, one source.items_added event) and answered accepted; anything else that reaches a real subscription is answered 200 ignored, as the recommendation asks, and ingests nothing. A wrong address answers 404; a body over ${MAX_PUSH_BYTES} bytes 413.`,
  request: { params: callbackParams },
  responses: {
    200: jsonContent(pushReceipt, 'Received (accepted or ignored)'),
    ...errorResponses(401, 404, 413, 429),
  },
})

export const registerWebsubPush = (app: App) =>
  app.openapi(route, async (c) => {
    const deps = depsOf(c)
    const { subscription_id, token } = c.req.valid('param')
    const declared = Number(c.req.header('content-length') ?? 0)
    if (declared > MAX_PUSH_BYTES)
      throw new ServiceError('PAYLOAD_TOO_LARGE', `A pushed feed may be at most ${MAX_PUSH_BYTES} bytes`)
    const body = new Uint8Array(await c.req.arrayBuffer())
    if (body.byteLength > MAX_PUSH_BYTES)
      throw new ServiceError('PAYLOAD_TOO_LARGE', `A pushed feed may be at most ${MAX_PUSH_BYTES} bytes`)
    const outcome = await receivePush(deps, subscription_id, token, body, c.req.header('x-hub-signature'))
    if (!outcome) {
      await chargeClientAddress(c)
      throw notFound('Subscription')
    }
    // Ingested now on this instance; the sweep runs it if this instance stops first.
    if (outcome.status === 'accepted') scrapeEngine(deps).kick([outcome.job.id])
    return c.json({ status: outcome.status }, 200)
  })
