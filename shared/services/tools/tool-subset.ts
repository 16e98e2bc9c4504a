import { z } from '@hono/zod-openapi'
import type { Queryable } from '@shared/infra/db.ts'
import type { ServiceContext } from '@shared/infra/deps.ts'
import { invalidField } from '@shared/infra/errors.ts'

/**
 * A tool subset limits a tool-server key or an MCP OAuth grant to named connections and tools:
 * `tools/list` (and the REST list) shows only those, and a call of any other tool is refused.
 * Without a subset the key sees every tool its scopes and the connections' permissions allow.
 *
 * `connections` takes every tool of each named connection (and its resources and prompts);
 * `tools` names single tools by either of their names: the platform's (`platform:list_content`),
 * a connection tool's base name (`slack:post_message`: that tool on every Slack connection), or
 * the name qualified with its connection (`slack@1a2b3c4d:post_message`), or their MCP aliases.
 */
export const toolSubsetSchema = z
  .object({
    connections: z.array(z.uuid()).max(100).default([]),
    tools: z
      .array(
        z
          .string()
          .min(1)
          .max(200)
          .regex(/^[A-Za-z0-9_@:./-]+$/, 'a tool name such as slack:post_message or platform__list_content'),
      )
      .max(500)
      .default([]),
  })
  .strict()
  .refine((s) => s.connections.length + s.tools.length > 0, 'name at least one connection or tool')
  .openapi('ToolSubset', {
    description:
      'Limits the key to these connections (all their tools) and tools; absent or null: every tool',
    example: { connections: [], tools: ['platform:list_content', 'slack:post_message'] },
  })

export type ToolSubset = z.output<typeof toolSubsetSchema>

/** What a subset is matched against: the names a tool answers to and its connection. */
export interface SubsetCandidate {
  name: string
  mcpName: string
  /** The connection tool's base name ('<slug>:<tool>'). */
  toolName?: string
  connectionId?: string
}

export function inSubset(subset: ToolSubset | null, tool: SubsetCandidate, alias: (n: string) => string) {
  if (!subset) return true
  if (tool.connectionId && subset.connections.includes(tool.connectionId)) return true
  const names = [tool.name, tool.mcpName, ...(tool.toolName ? [tool.toolName, alias(tool.toolName)] : [])]
  return subset.tools.some((t) => names.includes(t))
}

/** Whether a connection's resources and prompts are passed through under the subset. */
export const connectionInSubset = (subset: ToolSubset | null, connectionId: string) =>
  !subset || subset.connections.includes(connectionId)

/**
 * The caller's subset: the tool-server key's or the OAuth grant's (the caller's keyId is one or
 * the other). Users and service callers (the assistant, automations) have none. A key whose row
 * is not visible is refused everything (an empty subset), never given every tool.
 */
export async function callerToolSubset(ctx: ServiceContext): Promise<ToolSubset | null> {
  const caller = ctx.caller
  if (caller.kind !== 'tool_key') return null
  const rows = await ctx.readAsTenant(
    (q) => q<{ tool_subset: unknown }[]>`
      select tool_subset from public.api_keys where id = ${caller.keyId} and tenant_id = ${caller.tenantId}
      union all
      select tool_subset from public.mcp_oauth_grants where id = ${caller.keyId} and tenant_id = ${caller.tenantId}`,
  )
  if (rows.length === 0) return { connections: [], tools: [] }
  const stored = rows[0]!.tool_subset
  if (stored === null) return null
  const parsed = toolSubsetSchema.safeParse(stored)
  return parsed.success ? parsed.data : { connections: [], tools: [] }
}

/** A subset naming a connection the tenant does not have is a mistake: VALIDATION_ERROR. */
export async function requireOwnConnections(db: Queryable, tenantId: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return
  const found = await db<{ id: string }[]>`
    select id from public.integration_connections where tenant_id = ${tenantId} and id = any(${ids}::uuid[])`
  const missing = ids.filter((id) => !found.some((f) => f.id === id))
  if (missing.length > 0)
    throw invalidField(
      'tool_subset.connections',
      `no connection ${missing[0]}`,
      `tool_subset names a connection this tenant does not have: ${missing[0]}`,
    )
}
