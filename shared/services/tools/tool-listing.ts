import { z } from '@hono/zod-openapi'
import type { ServiceContext } from '@shared/infra/deps.ts'

/**
 * How the tool server lists tools to a tool-server key or an MCP OAuth grant (`tool_listing`):
 * every tool, or search_tools and call_tool only (tool-search.ts; docs/mcp.md "Tool search").
 */
const toolListings = ['all', 'search'] as const
export type ToolListing = (typeof toolListings)[number]

/** 'all' (every tool the key may call) or 'search' (search_tools and call_tool instead). */
export const toolListingSchema = z.enum(toolListings)

/** The caller's listing: the key's or the grant's; users and the platform's services list all. */
export async function callerToolListing(ctx: ServiceContext): Promise<ToolListing> {
  const caller = ctx.caller
  if (caller.kind !== 'tool_key') return 'all'
  const rows = await ctx.readAsTenant(
    (q) => q<{ tool_listing: string }[]>`
      select tool_listing from public.api_keys where id = ${caller.keyId} and tenant_id = ${caller.tenantId}
      union all
      select tool_listing from public.mcp_oauth_grants where id = ${caller.keyId} and tenant_id = ${caller.tenantId}`,
  )
  return rows[0]?.tool_listing === 'search' ? 'search' : 'all'
}
