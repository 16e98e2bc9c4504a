import type { CatalogEntry } from './provider.ts'

/**
 * The spec's three MCP integration types. They are catalog entries without tools of their own:
 * a connection's tools are discovered from its server (mcp-discovery.ts).
 */
export const mcpServers: CatalogEntry[] = [
  {
    integration_id: '91c1be6c-fb0a-4f22-8339-7bb8a953003e',
    slug: 'mcp-server',
    name: 'Official MCP server',
    kind: 'official MCP server (for example a database tool)',
    category: 'development',
    connection_types: ['mcp'],
    capabilities: ['tools discovered from the server'],
    oauth_scopes: [],
    mcp_type: 'official',
    tools: [],
  },
  {
    integration_id: 'ca78841d-5b84-4382-998e-85c334756ad2',
    slug: 'custom-mcp',
    name: 'Custom MCP server',
    kind: 'self-hosted custom MCP server (any MCP-compatible server)',
    category: 'custom',
    connection_types: ['mcp'],
    capabilities: ['tools discovered from the server'],
    oauth_scopes: [],
    mcp_type: 'self_hosted',
    tools: [],
  },
  {
    integration_id: 'a2ca85dd-65a1-43ae-8dc5-14fc32435c1f',
    slug: 'webhook-mcp',
    name: 'Webhook-style MCP server',
    kind: 'webhook-style MCP server (workflow tools, any HTTP webhook endpoint)',
    category: 'custom',
    connection_types: ['mcp'],
    capabilities: ['tools discovered from the server'],
    oauth_scopes: [],
    mcp_type: 'webhook',
    tools: [],
  },
]
