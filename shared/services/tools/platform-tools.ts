import type { ServiceContext } from '@shared/infra/deps.ts'
import { z } from 'zod'
import { availabilities } from '../affiliate/product.ts'
import { searchAffiliateProducts } from '../affiliate/products.ts'
import { createArticle, getArticle, publishArticle } from '../content/articles.ts'
import { listContent } from '../content/feed.ts'
import { MAX_ARTICLE_BODY } from '../content/schema.ts'
import { getSite } from '../content/sites.ts'

/**
 * The platform's own tools, offered to every tool-server key that holds the scope each needs.
 * Names follow the spec's '<integration_slug>:<tool_name>' shape with the slug 'platform'.
 * Each tool validates its params with zod; its inputSchema is generated from the same schema.
 */
export interface PlatformTool<P extends z.ZodType = z.ZodType> {
  name: string
  description: string
  scope: string
  params: P
  run(ctx: ServiceContext, params: z.infer<P>): Promise<unknown>
}

const listContentParams = z
  .object({
    limit: z.number().int().min(1).max(100).default(20),
    type: z.enum(['site', 'article']).optional(),
    site_id: z.uuid().optional(),
    status: z.enum(['draft', 'published']).optional(),
  })
  .strict()

const getContentParams = z.object({ type: z.enum(['site', 'article']), id: z.uuid() }).strict()
const createDraftParams = z
  .object({
    site_id: z.uuid(),
    title: z.string().trim().min(1).max(500),
    body: z.string().max(MAX_ARTICLE_BODY).default(''),
  })
  .strict()
const publishParams = z.object({ article_id: z.uuid() }).strict()
const searchProductsParams = z
  .object({
    destination_id: z.uuid(),
    q: z.string().trim().min(1).max(200).optional(),
    availability: z.enum(availabilities).optional(),
    limit: z.number().int().min(1).max(50).default(10),
  })
  .strict()

export const platformTools: PlatformTool[] = [
  {
    name: 'platform:list_content',
    description: "List the tenant's sites and articles, oldest first.",
    scope: 'content:read',
    params: listContentParams,
    async run(ctx, params: z.infer<typeof listContentParams>) {
      const page = await listContent(ctx, {
        limit: params.limit,
        filter: { type: params.type, site_id: params.site_id, status: params.status },
      })
      return { items: page.data }
    },
  },
  {
    name: 'platform:get_content',
    description: 'Read one site or article of the tenant by id.',
    scope: 'content:read',
    params: getContentParams,
    run: (ctx, p: z.infer<typeof getContentParams>) =>
      p.type === 'site' ? getSite(ctx, p.id) : getArticle(ctx, p.id),
  },
  {
    name: 'platform:create_draft',
    description: "Create a draft article in one of the tenant's sites.",
    scope: 'content:write',
    params: createDraftParams,
    run: (ctx, p: z.infer<typeof createDraftParams>) => createArticle(ctx, p),
  },
  {
    name: 'platform:publish_article',
    description: 'Publish a draft article (an already published one is returned as is).',
    scope: 'content:write',
    params: publishParams,
    run: (ctx, p: z.infer<typeof publishParams>) => publishArticle(ctx, p.article_id),
  },
  {
    name: 'platform:search_products',
    description:
      "Search a destination's synced affiliate products (title, merchant or GTIN words; availability), newest first, to embed in an article.",
    scope: 'content:read',
    params: searchProductsParams,
    async run(ctx, params: z.infer<typeof searchProductsParams>) {
      const page = await searchAffiliateProducts(ctx, {
        destinationId: params.destination_id,
        q: params.q,
        availability: params.availability,
        limit: params.limit,
        after: null,
      })
      return { items: page.data }
    },
  },
]

export function describeTool(tool: PlatformTool) {
  const { $schema: _ignored, ...inputSchema } = z.toJSONSchema(tool.params, { io: 'input' }) as Record<
    string,
    unknown
  >
  return { name: tool.name, description: tool.description, inputSchema }
}
