import type { Tx } from '@shared/infra/db.ts'
import type { DiscoveredTool } from './mcp-discovery.ts'

/**
 * Stores the tools an MCP server listed for a connection (integration_tools), as the tenant: both
 * ways of connecting one (a key or bearer token, and OAuth when its callback completes) end here.
 */
export async function insertTools(
  tx: Tx,
  tenantId: string,
  connectionId: string,
  tools: DiscoveredTool[],
): Promise<void> {
  if (tools.length === 0) return
  await tx`
    insert into public.integration_tools ${tx(
      tools.map((t) => ({
        tenant_id: tenantId,
        connection_id: connectionId,
        name: t.name,
        alias: t.alias,
        description: t.description,
        input_schema: tx.json(t.inputSchema as never),
      })),
    )}`
}
