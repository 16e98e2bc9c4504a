import { formatsQuery } from '@functions/content/read-options.ts'
import { z } from '@hono/zod-openapi'
import { ServiceError } from '@shared/infra/errors.ts'
import { hotPathOf } from '@shared/infra/hot-path/hot-path.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { addressBucket } from '@shared/infra/http/authenticate.ts'
import { defineRoute } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { publicRoute } from '@shared/infra/http/route-auth.ts'
import { rateLimits } from '@shared/infra/rate-limit.ts'
import { readPreview } from '@shared/services/content/previews.ts'
import { articleSchema } from '@shared/services/content/schema.ts'

/** Requests a minute one client address may make to preview links (all of them together). */
const PREVIEW_RATE_LIMIT = rateLimits.unauthenticated

const params = z.object({
  // Any string up to 100: a malformed token answers the same 404 as an unknown one.
  token: z
    .string()
    .max(100)
    .openapi({ param: { name: 'token', in: 'path' }, example: 'prv_3kTq9…' }),
})

const previewSchema = articleSchema
  .extend({
    preview: z.object({ expires_at: z.string() }).openapi({ description: 'When the link stops working' }),
  })
  .openapi('ArticlePreview')

/** Public: the token is the credential (a preview link works without an account). */
export const route = defineRoute(publicRoute, {
  method: 'get',
  path: '/previews/{token}',
  summary: 'The article a preview link shows',
  description:
    "The article a preview link shows, as it is now (no key: the link's token)" +
    '\n\n' +
    'The article as the read by id gives it (formats=html for the rendered body), with preview.expires_at. 404 alike for a malformed, unknown, revoked or expired token. Answers are Cache-Control: private, no-store and never cached; 60 requests a minute per client address.',
  request: { params, query: z.object({ formats: formatsQuery }) },
  responses: {
    200: jsonContent(previewSchema, 'The article'),
    ...errorResponses(400, 404, 429),
  },
})

export const registerReadPreview = (app: App) =>
  app.openapi(route, async (c) => {
    const deps = c.get('deps')
    // Every answer, errors included, is private and kept by no cache.
    c.header('Cache-Control', 'private, no-store')
    c.header('X-Robots-Tag', 'noindex')
    c.header('Referrer-Policy', 'no-referrer')
    // The charge comes first, so guessing tokens costs the same whatever they find.
    const rl = await hotPathOf(deps).leases.take(
      `preview:${addressBucket(c)}`,
      PREVIEW_RATE_LIMIT,
      deps.clock.now(),
    )
    c.set('rateLimit', rl)
    if (!rl.allowed)
      throw new ServiceError('RATE_LIMITED', 'Too many requests', { retryAfter: rl.retryAfter })
    const { article, expiresAt } = await readPreview(
      deps,
      c.req.valid('param').token,
      c.req.valid('query').formats,
    )
    return c.json({ ...article, preview: { expires_at: expiresAt.toISOString() } }, 200)
  })
