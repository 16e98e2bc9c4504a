import { z } from 'zod'
import type { ServiceContext } from '../../infra/deps.ts'
import { listContent } from '../content/feed.ts'

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
]

export function describeTool(tool: PlatformTool) {
  const { $schema: _ignored, ...inputSchema } = z.toJSONSchema(tool.params, { io: 'input' }) as Record<
    string,
    unknown
  >
  return { name: tool.name, description: tool.description, inputSchema }
}
