import { z } from '@hono/zod-openapi'
import { scopes } from '@shared/infra/caller.ts'
import { isoTimestamp } from '@shared/infra/schemas.ts'
import { toolListingSchema } from '@shared/services/tools/tool-listing.ts'
import { toolSubsetSchema } from '@shared/services/tools/tool-subset.ts'

const keyKinds = ['platform', 'tool_server'] as const

/** Which environments each kind takes, and the prefix each gives its keys (from the spec). */
export const environmentsByKind = {
  platform: { production: 'svc_live_', sandbox: 'svc_test_' },
  tool_server: { production: 'mcp_live_', development: 'mcp_dev_', service: 'srv_' },
} as const

/** Bounds of rate_limit_per_minute: at most the API-wide authenticated limit; tool-server keys at most 100. */
export const RATE_LIMIT_MAX = { platform: 1000, tool_server: 100 } as const

export const createApiKeyBody = z
  .object({
    name: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .refine((s) => !s.includes('\u0000'), 'must not contain NUL')
      .openapi({ example: 'Production server' }),
    environment: z.enum(['production', 'sandbox', 'development', 'service']).openapi({
      description:
        'platform keys: production (svc_live_) or sandbox (svc_test_); tool-server keys: production (mcp_live_), development (mcp_dev_) or service (srv_)',
    }),
    scopes: z
      .array(z.enum(scopes))
      .min(1)
      .max(scopes.length)
      .refine((s) => new Set(s).size === s.length, 'scopes must not repeat'),
    rate_limit_per_minute: z
      .number()
      .int()
      .min(1)
      .max(RATE_LIMIT_MAX.platform)
      .openapi({
        example: 120,
        description: `Requests per minute for this key: 1–${RATE_LIMIT_MAX.platform} for platform keys, 1–${RATE_LIMIT_MAX.tool_server} for tool-server keys (a tool-server key over ${RATE_LIMIT_MAX.tool_server} is refused with 400)`,
      }),
    expires_at: isoTimestamp().optional().openapi({ description: 'Must lie in the future' }),
    kind: z
      .enum(keyKinds)
      .default('platform')
      .openapi({ description: 'platform (Bearer at /v1) or tool_server (X-API-Key at the tool server)' }),
    published_only: z.boolean().default(false).openapi({
      description:
        'A published-only key: reads published articles, their sites and tags, and nothing more (drafts, scheduled articles and revisions are 404 to it). Safe to ship in a browser or a static site build. A platform key with the scopes ["content:read"] and nothing else.',
    }),
    allowed_origins: z
      .array(browserOrigin())
      .max(20)
      .refine((o) => new Set(o).size === o.length, 'origins must not repeat')
      .default([])
      .openapi({
        description:
          'Published-only keys: browser origins answered with CORS (scheme, host and port, such as https://blog.example.com)',
        example: ['https://blog.example.com'],
      }),
    tool_subset: toolSubsetSchema.nullable().optional().openapi({
      description:
        'Tool-server keys only: limits the key to these connections and tools (docs/mcp.md); absent or null: every tool',
    }),
    tool_listing: toolListingSchema.default('all').openapi({
      description:
        'Tool-server keys only: \'search\' lists search_tools and call_tool instead of every tool (docs/mcp.md "Tool search")',
    }),
  })
  .strict()
  .openapi('CreateApiKey', {
    example: {
      name: 'Production server',
      kind: 'platform',
      environment: 'production',
      scopes: ['content:read'],
      rate_limit_per_minute: 60,
    },
  })

/** A browser origin as the Origin header sends it: https (or http on a loopback host), no path. */
function browserOrigin() {
  return z
    .string()
    .max(300)
    .refine((s) => {
      try {
        const u = new URL(s)
        const loopback = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/.test(u.hostname)
        return (u.protocol === 'https:' || (u.protocol === 'http:' && loopback)) && u.origin === s
      } catch {
        return false
      }
    }, 'an origin such as https://blog.example.com (https, or http on localhost; no path or trailing slash)')
}

export const apiKeySchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    kind: z.enum(keyKinds),
    environment: z.string(),
    key_prefix: z.string().openapi({ example: 'svc_live_Ab3x' }),
    scopes: z.array(z.string()),
    rate_limit_per_minute: z.number().int(),
    expires_at: z.string().nullable(),
    last_used_at: z.string().nullable(),
    revoked_at: z.string().nullable(),
    created_at: z.string(),
    published_only: z.boolean(),
    allowed_origins: z.array(z.string()),
    tool_subset: toolSubsetSchema.nullable(),
    tool_listing: toolListingSchema,
  })
  .openapi('ApiKey')

export const createdApiKeySchema = apiKeySchema
  .extend({ key: z.string().openapi({ description: 'The full secret. Shown only in this response.' }) })
  .openapi('CreatedApiKey')

export const apiKeyListSchema = z.object({ data: z.array(apiKeySchema), next_cursor: z.string().nullable() })

export type ApiKey = z.infer<typeof apiKeySchema>
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>
