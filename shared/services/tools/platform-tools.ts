import { z } from 'zod'
import type { TenantCaller } from '../../infra/auth.ts'
import { readAsTenant } from '../../infra/db.ts'
import type { FunctionDeps } from '../../infra/deps.ts'
import { listContent, presentContent } from '../content/queries.ts'

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
  run(deps: FunctionDeps, caller: TenantCaller, params: z.infer<P>): Promise<unknown>
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
    async run(deps, caller, params: z.infer<typeof listContentParams>) {
      const rows = await readAsTenant(deps.sql, caller.claims, (q) =>
        listContent(q, caller.tenantId, null, params.limit, {
          type: params.type,
          site_id: params.site_id,
          status: params.status,
        }),
      )
      return { items: rows.slice(0, params.limit).map(presentContent) }
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
