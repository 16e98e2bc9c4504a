import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { memberOrKey } from '@shared/infra/http/route-auth.ts'
import { decodeCursor, pageQuery } from '@shared/infra/pagination.ts'
import { searchProducts } from '@shared/services/commerce/products.ts'
import { productListSchema, productsQuery } from '@shared/services/commerce/schema.ts'

export const route = defineRoute(memberOrKey('content:read'), {
  method: 'get',
  path: '/products',
  summary: 'Synced products',
  description: 'Synced products, newest first, with filters (deleted ones only with include_deleted=true)',
  request: { query: pageQuery.extend(productsQuery.shape) },
  responses: {
    200: jsonContent(productListSchema, 'A page of products'),
    ...errorResponses(400, 401, 403, 429),
  },
})

export const registerListProducts = (app: App) =>
  app.openapi(route, async (c) => {
    const { limit, cursor, ...filter } = c.req.valid('query')
    return c.json(
      await searchProducts(serviceContext(c), { ...filter, limit, after: decodeCursor(cursor) }),
      200,
    )
  })
