import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { memberOrKey } from '@shared/infra/http/route-auth.ts'
import { decodeCursor } from '@shared/infra/pagination.ts'
import { searchAffiliateProducts } from '@shared/services/affiliate/products.ts'
import { productListSchema, productQuery } from '@shared/services/affiliate/schema.ts'

export const route = defineRoute(memberOrKey('content:read'), {
  method: 'get',
  path: '/products',
  summary: "A destination's synced products",
  description: "A destination's synced products, newest first, by words and availability (GET /v1/products)",
  request: { query: productQuery },
  responses: {
    200: jsonContent(productListSchema, 'A page of products'),
    ...errorResponses(400, 401, 403, 404, 429),
  },
})

export const registerListProducts = (app: App) =>
  app.openapi(route, async (c) => {
    const q = c.req.valid('query')
    const page = await searchAffiliateProducts(serviceContext(c), {
      destinationId: q.destination_id,
      q: q.q,
      availability: q.availability,
      includeRaw: q.include_raw === 'true',
      limit: q.limit,
      after: decodeCursor(q.cursor),
    })
    return c.json(page, 200)
  })
