import { SERVER_INFO } from '@functions/mcp-sse/mcp-server.ts'
import { mcpUrl } from '@functions/mcp-sse/public-url.ts'
import { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { limitAnonymous } from '@shared/infra/http/authenticate.ts'
import { defineRoute } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { publicRoute } from '@shared/infra/http/route-auth.ts'

/** The MCP Server Card schema this document follows (the server-card extension's v2 family). */
const SERVER_CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json'
/** The revisions a client may speak at {mcp_url} (ADR 0041). */
const PROTOCOL_VERSIONS = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']
/** The key in `_meta` that names the authorization server (the card has no field of its own for it). */
const AUTHORIZATION_META = 'dev.tenant-platform/authorization'

const cardSchema = z
  .object({
    $schema: z.string().url(),
    name: z.string().openapi({ example: 'dev.tenant-platform/tools' }),
    title: z.string(),
    description: z.string(),
    version: z.string(),
    icons: z.array(z.object({ src: z.string(), mimeType: z.string(), sizes: z.array(z.string()) })),
    remotes: z.array(
      z.object({
        type: z.enum(['streamable-http', 'sse']),
        url: z.string().url(),
        supportedProtocolVersions: z.array(z.string()),
        headers: z.array(z.object({ name: z.string(), description: z.string(), isSecret: z.boolean() })),
      }),
    ),
    _meta: z.record(z.string(), z.unknown()),
  })
  .openapi('McpServerCard')

export const route = defineRoute(publicRoute, {
  method: 'get',
  path: '/.well-known/mcp/server-card.json',
  summary: 'MCP server card',
  description:
    'What a client needs before it connects: name, description, icons, the transports with their protocol revisions, the key header, and the authorization server (`_meta["dev.tenant-platform/authorization"]`: issuer and the RFC 9728 metadata). Also at /.well-known/mcp/server-card.json on the platform origin.',
  responses: { 200: jsonContent(cardSchema, 'The server card'), ...errorResponses(429) },
})

type McpServerCard = z.infer<typeof cardSchema>

const ICON = `data:image/svg+xml;base64,${btoa(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="12" fill="#1f4fd1"/><path d="M18 20h28v6H35v20h-6V26H18z" fill="#fff"/></svg>',
)}`

export const registerServerCard = (app: App) => {
  app.on('GET', route.path, limitAnonymous())
  app.openapi(route, (c) => {
    const url = mcpUrl(c)
    const key = {
      name: 'X-API-Key',
      description: 'A tool-server key (mcp_live_… / mcp_dev_…); OAuth clients send a Bearer token instead',
      isSecret: true,
    }
    const card: McpServerCard = {
      $schema: SERVER_CARD_SCHEMA,
      name: 'dev.tenant-platform/tools',
      title: 'Tenant Platform tools',
      description: "The tenant's content and connected integrations as MCP tools, resources and prompts",
      version: SERVER_INFO.version,
      icons: [{ src: ICON, mimeType: 'image/svg+xml', sizes: ['any'] }],
      remotes: [
        { type: 'streamable-http', url, supportedProtocolVersions: PROTOCOL_VERSIONS, headers: [key] },
        { type: 'sse', url: `${url}/sse`, supportedProtocolVersions: ['2024-11-05'], headers: [key] },
      ],
      _meta: {
        [AUTHORIZATION_META]: {
          authorization_servers: [url],
          protected_resource_metadata: `${url}/.well-known/oauth-protected-resource`,
        },
      },
    }
    return c.json(card, 200, { 'cache-control': 'public, max-age=300' })
  })
}
