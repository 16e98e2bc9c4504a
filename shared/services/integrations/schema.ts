import { z } from '@hono/zod-openapi'
import { boundedJsonObject } from '@shared/infra/schemas.ts'
import { categories } from './catalog.ts'
import { statsPeriods, triggeredByValues } from './usage-log.ts'

const jsonSchemaObject = z
  .record(z.string(), z.unknown())
  .openapi({ description: 'JSON Schema of the arguments' })

/**
 * The spec's 'bearer' and 'api_key', and beside them 'none' (a server that takes no credential)
 * and 'oauth' (a server that signs users in at its own authorization server: the MCP authorization
 * flow, tokens kept and refreshed by the platform).
 */
const mcpAuthTypes = ['bearer', 'api_key', 'none', 'oauth'] as const
const needsToken = new Set(['bearer', 'api_key'])

const toolSchema = z
  .object({
    name: z
      .string()
      .openapi({ example: 'slack:post_message', description: "'<integration_slug>:<tool_name>'" }),
    alias: z
      .string()
      .openapi({ example: 'slack__post_message', description: 'The same tool for clients that refuse ":"' }),
    description: z.string(),
    inputSchema: jsonSchemaObject,
  })
  .openapi('IntegrationTool')

const integrationSchema = z
  .object({
    integration_id: z.uuid(),
    slug: z.string().openapi({ example: 'slack' }),
    name: z.string(),
    kind: z.string().openapi({ example: 'team chat' }),
    category: z.enum(categories),
    connection_types: z.array(z.enum(['oauth', 'mcp'])),
    capabilities: z.array(z.string()),
    oauth_scopes: z.array(z.string()),
    mcp_type: z.enum(['official', 'self_hosted', 'webhook']).nullable(),
    /** Whether this deployment has the platform's OAuth client for it. */
    oauth_configured: z.boolean(),
    /**
     * The settings an operator sets to offer the OAuth connection (its client id and secret
     * variables, as the provider module names them); null for MCP-only entries.
     */
    oauth_settings: z
      .array(z.string())
      .nullable()
      .openapi({ example: ['OAUTH_NOTION_CLIENT_ID', 'OAUTH_NOTION_CLIENT_SECRET'] }),
    tools: z.array(toolSchema),
  })
  .openapi('Integration')

export const catalogSchema = z
  .object({
    categories: z.array(z.object({ slug: z.enum(categories), integrations: z.number().int() })).openapi({
      description:
        "Every category, in the catalog's order; 'integrations' is 0 where the catalog has none yet",
    }),
    data: z.array(integrationSchema),
  })
  .openapi('IntegrationCatalog')

export const connectionSchema = z
  .object({
    id: z.uuid(),
    integration_id: z.uuid(),
    integration_slug: z.string(),
    connection_type: z.enum(['oauth', 'mcp']),
    status: z.enum(['active', 'needs_reauth']),
    display_name: z.string().nullable(),
    external_account_name: z.string().nullable(),
    scopes: z.array(z.string()),
    token_expires_at: z.string().nullable(),
    last_refreshed_at: z.string().nullable(),
    mcp_server_url: z.string().nullable(),
    mcp_auth_type: z.enum(mcpAuthTypes).nullable(),
    mcp_transport: z.enum(['streamable_http', 'sse']).nullable(),
    tool_count: z.number().int(),
    tools_discovered_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('Connection')

export const connectionDetailSchema = connectionSchema
  .extend({ tools: z.array(toolSchema) })
  .openapi('ConnectionDetail', {
    example: {
      id: '3f1c2a9e-8b7d-4c6e-9a5f-1d2e3c4b5a69',
      integration_id: 'ca78841d-5b84-4382-998e-85c334756ad2',
      integration_slug: 'custom-mcp',
      connection_type: 'mcp',
      status: 'active',
      display_name: 'Docs search',
      external_account_name: null,
      scopes: [],
      token_expires_at: null,
      last_refreshed_at: null,
      mcp_server_url: 'https://mcp.example.com/mcp',
      mcp_auth_type: 'bearer',
      mcp_transport: 'streamable_http',
      tool_count: 1,
      tools_discovered_at: '2026-11-27T09:00:00.000Z',
      created_at: '2026-11-27T09:00:00.000Z',
      updated_at: '2026-11-27T09:00:00.000Z',
      tools: [
        {
          name: 'custom-mcp:search',
          alias: 'custom-mcp__search',
          description: 'Search the documentation',
          inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
        },
      ],
    },
  })

export const deletedSchema = z.object({
  id: z.uuid(),
  deleted: z.literal(true),
  revoked_at_provider: z.boolean().openapi({ description: 'Whether the provider confirmed revocation' }),
})

export const connectionListSchema = z.object({ data: z.array(connectionSchema) })

export const connectBody = z
  .object({
    integration_id: z.uuid(),
    connection_type: z.literal('mcp'),
    mcp_server_url: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      .openapi({ example: 'https://mcp.example.com/mcp' }),
    mcp_auth_type: z.enum(mcpAuthTypes).openapi({
      description:
        "'bearer' or 'api_key' (with mcp_auth_token); 'none' for a server without credentials (one that answers 401 with an OAuth challenge starts the sign-in, as 'oauth' does); 'oauth' answers 202 with the authorization URL",
    }),
    mcp_auth_token: z.string().min(1).max(4096).optional().openapi({
      description: "Write-only: encrypted at once, never returned. Required for 'bearer' and 'api_key' only",
    }),
    display_name: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .optional()
      .openapi({ description: 'Used for custom servers' }),
  })
  .strict()
  .superRefine((body, ctx) => {
    const given = body.mcp_auth_token !== undefined
    if (needsToken.has(body.mcp_auth_type) !== given)
      ctx.addIssue({
        code: 'custom',
        path: ['mcp_auth_token'],
        message: given
          ? `takes no token with mcp_auth_type '${body.mcp_auth_type}'`
          : `is required with mcp_auth_type '${body.mcp_auth_type}'`,
      })
  })
  .openapi('ConnectMcpServer', {
    example: {
      integration_id: 'ca78841d-5b84-4382-998e-85c334756ad2',
      connection_type: 'mcp',
      mcp_server_url: 'https://mcp.example.com/mcp',
      mcp_auth_type: 'bearer',
      mcp_auth_token: 'the-server-token',
      display_name: 'Docs search',
    },
  })

export const renameBody = z
  .object({ display_name: z.string().trim().min(1).max(100) })
  .strict()
  .openapi('RenameConnection', { example: { display_name: 'Team Slack' } })

export const permissionBody = z
  .object({
    tool_name: z.string().min(3).max(200).openapi({
      example: 'slack:post_message',
      description:
        "Tool name or its alias; on an MCP connection also '<slug>:resources/*' or '<slug>:prompts/*'",
    }),
    allowed: z.boolean(),
    restrictions: boundedJsonObject().optional().openapi({
      description: 'Depends on the tool: channels, databases, repositories or recipients (see docs)',
    }),
    requires_approval: z.boolean().optional().openapi({
      description:
        'The assistant pauses before each call until an owner or admin approves it (docs/assistant.md). Omitted: unchanged (false for a new row)',
    }),
  })
  .strict()
  .openapi('SetToolPermission', {
    example: { tool_name: 'slack:post_message', allowed: true, restrictions: { channels: ['C0123456789'] } },
  })

export const permissionSchema = z
  .object({
    id: z.uuid(),
    connection_id: z.uuid(),
    tool_name: z.string(),
    allowed: z.boolean(),
    restrictions: z.record(z.string(), z.unknown()),
    requires_approval: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('ToolPermission')

export const permissionListSchema = z.object({
  default_allowed: z.boolean().openapi({ description: 'What a tool without a permission row gets' }),
  data: z.array(permissionSchema),
})

export const statsSchema = z
  .object({
    integration_id: z.uuid(),
    period: z.enum(Object.keys(statsPeriods) as [keyof typeof statsPeriods]),
    from: z.string(),
    to: z.string(),
    total_calls: z.number().int(),
    success_count: z.number().int(),
    failure_count: z.number().int(),
    success_rate: z.number(),
    failure_rate: z.number(),
    avg_response_time_ms: z.number().nullable(),
    triggered_by: z.object(
      Object.fromEntries(triggeredByValues.map((t) => [t, z.number().int()])) as Record<
        (typeof triggeredByValues)[number],
        z.ZodNumber
      >,
    ),
  })
  .openapi('IntegrationStats')

export const statsQuery = z.object({
  period: z.enum(Object.keys(statsPeriods) as [keyof typeof statsPeriods]).default('24h'),
})

export const idParam = z.object({ id: z.uuid().openapi({ param: { name: 'id', in: 'path' } }) })
export const integrationParam = z.object({
  id: z
    .string()
    .max(64)
    .regex(/^[A-Za-z0-9-]+$/)
    .openapi({ param: { name: 'id', in: 'path' }, description: 'integration_id or slug' }),
})
export const slugParam = z.object({
  slug: z
    .string()
    .max(64)
    .regex(/^[a-z0-9-]+$/)
    .openapi({ param: { name: 'slug', in: 'path' }, example: 'notion' }),
})

/** Loose: providers add parameters of their own to the redirect (scope, iss, session_state, hd). */
export const callbackQuery = z
  .object({
    state: z.string().min(1).max(512),
    code: z.string().min(1).max(4096).optional(),
    error: z.string().max(200).optional(),
    error_description: z.string().max(1000).optional(),
    /** RFC 9207: the authorization server that answered. */
    iss: z.string().max(2048).optional(),
  })
  .loose()

export const authorizeResponse = z.object({ authorization_url: z.string(), expires_at: z.string() })

export const clientMetadataSchema = z
  .object({
    client_id: z
      .string()
      .openapi({ example: 'https://api.example.com/api/integrations/client-metadata.json' }),
    client_name: z.string(),
    redirect_uris: z.array(z.string()),
    grant_types: z.array(z.string()),
    response_types: z.array(z.string()),
    token_endpoint_auth_method: z.literal('none'),
  })
  .openapi('ClientIdMetadataDocument')

export const mcpAuthorizeResponse = authorizeResponse.openapi('McpAuthorizationStarted', {
  description:
    'The MCP server signs users in with OAuth: open authorization_url in the same browser; the callback stores the connection and redirects to the dashboard',
})

export const refreshJobResult = z.object({
  claimed: z.number(),
  refreshed: z.number(),
  needs_reauth: z.number(),
  failed: z.number(),
  skipped: z.number(),
})

export type Connection = z.infer<typeof connectionSchema>
export type Tool = z.infer<typeof toolSchema>
export type Permission = z.infer<typeof permissionSchema>
