import { z } from 'zod'
import type { Config } from '../../infra/config.ts'
import { crc32 } from '../../infra/crypto.ts'

/**
 * The integrations catalog, as data. Each OAuth provider is defined here once: its endpoints,
 * scopes, PKCE support, account lookup, client credentials (named environment variables) and the
 * tools it offers. Every URL can be re-pointed with OAUTH_PROVIDERS_OVERRIDE (tests point them
 * at a loopback authorization server). integration_id values are fixed so they stay stable
 * across deployments and can be stored on connections and usage records.
 */

/** The spec's categories ('office-suite' is its "google-workspace-type office suite"). */
export const categories = [
  'productivity',
  'development',
  'office-suite',
  'communication',
  'storage',
  'design',
  'analytics',
  'crm',
  'ecommerce',
  'custom',
] as const
export type Category = (typeof categories)[number]

export type ConnectionType = 'oauth' | 'mcp'
export type ToolAction = 'read' | 'write'

/** JSON Schema of a tool's arguments. */
export type JsonSchema = Record<string, unknown>

export interface CatalogTool {
  /** '<integration_slug>:<tool_name>' */
  name: string
  description: string
  inputSchema: JsonSchema
  action: ToolAction
  /** OAuth scopes the connection must have been granted for the tool to be usable. */
  requiredScopes: string[]
}

export interface OAuthProvider {
  authorizeUrl: string
  tokenUrl: string
  /** RFC 7009 revocation endpoint, where the provider has one. */
  revocationUrl?: string
  apiBaseUrl: string
  scopeSeparator: ' ' | ','
  /**
   * The provider's own name of each of the entry's `oauth_scopes` (the spec's permission names),
   * where they differ: what the authorize request sends, and what a granted scope is read back as.
   * tests/integrations-scopes.test.ts checks each against the provider's documented scopes.
   */
  scopeNames?: Record<string, string>
  pkce: boolean
  tokenAuth: 'client_secret_basic' | 'client_secret_post'
  /** Provider-specific authorize parameters (e.g. Google's offline access for a refresh token). */
  extraAuthorizeParams?: Record<string, string>
  /** Where the external account's id and name come from: the token response, or an API call. */
  account: {
    fromTokenResponse?: { id: string; name: string }
    endpoint?: { path: string; method?: 'GET' | 'POST'; body?: string; id: string; name: string }
  }
  clientIdEnv: string
  clientSecretEnv: string
}

export interface CatalogEntry {
  integration_id: string
  slug: string
  name: string
  /** The spec's kind of tool (or MCP integration type). */
  kind: string
  category: Category
  connection_types: ConnectionType[]
  capabilities: string[]
  oauth_scopes: string[]
  /** For MCP-only entries: which of the spec's three MCP integration types. */
  mcp_type?: 'official' | 'self_hosted' | 'webhook'
  tools: CatalogTool[]
  oauth?: OAuthProvider
}

const obj = (properties: Record<string, unknown>, required: string[] = []): JsonSchema => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
})
const str = (description: string, extra: Record<string, unknown> = {}) => ({
  type: 'string',
  description,
  ...extra,
})
const strList = (description: string) => ({ type: 'array', items: { type: 'string' }, description })

function tool(
  slug: string,
  name: string,
  action: ToolAction,
  requiredScopes: string[],
  description: string,
  inputSchema: JsonSchema,
): CatalogTool {
  return { name: `${slug}:${name}`, description, inputSchema, action, requiredScopes }
}

export const catalog: CatalogEntry[] = [
  {
    integration_id: '569b3123-1cc9-4d9c-95a1-6b23cc135515',
    slug: 'notion',
    name: 'Notion',
    kind: 'notes workspace',
    category: 'productivity',
    connection_types: ['oauth', 'mcp'],
    capabilities: ['create pages', 'search', 'read databases'],
    oauth_scopes: ['read_content', 'update_content', 'insert_content'],
    tools: [
      tool(
        'notion',
        'create_page',
        'write',
        ['insert_content'],
        'Create a page in a Notion database.',
        obj(
          {
            database_id: str('Id of the database the page is created in'),
            title: str('Page title', { maxLength: 2000 }),
            content: str('Page body (Markdown)'),
            properties: { type: 'object', description: 'Database property values' },
          },
          ['database_id', 'title'],
        ),
      ),
      tool(
        'notion',
        'search',
        'read',
        ['read_content'],
        'Search pages and databases shared with the integration.',
        obj({ query: str('Text to search for'), page_size: { type: 'integer', minimum: 1, maximum: 100 } }, [
          'query',
        ]),
      ),
      tool(
        'notion',
        'query_database',
        'read',
        ['read_content'],
        'Read the rows of a Notion database.',
        obj(
          {
            database_id: str('Database id'),
            filter: { type: 'object' },
            page_size: { type: 'integer', minimum: 1, maximum: 100 },
          },
          ['database_id'],
        ),
      ),
    ],
    oauth: {
      authorizeUrl: 'https://api.notion.com/v1/oauth/authorize',
      tokenUrl: 'https://api.notion.com/v1/oauth/token',
      apiBaseUrl: 'https://api.notion.com',
      scopeSeparator: ' ',
      pkce: false,
      tokenAuth: 'client_secret_basic',
      extraAuthorizeParams: { owner: 'user' },
      account: { fromTokenResponse: { id: 'workspace_id', name: 'workspace_name' } },
      clientIdEnv: 'OAUTH_NOTION_CLIENT_ID',
      clientSecretEnv: 'OAUTH_NOTION_CLIENT_SECRET',
    },
  },
  {
    integration_id: '1a4e83d8-06e8-456a-a6fa-15ec90c9224f',
    slug: 'slack',
    name: 'Slack',
    kind: 'team chat',
    category: 'communication',
    connection_types: ['oauth'],
    capabilities: ['post messages', 'read channels', 'search'],
    oauth_scopes: ['chat:write', 'channels:read', 'search:read'],
    tools: [
      tool(
        'slack',
        'post_message',
        'write',
        ['chat:write'],
        'Post a message to a Slack channel.',
        obj(
          {
            channel: str('Channel id, e.g. C0123456789'),
            text: str('Message text', { maxLength: 40000 }),
            thread_ts: str('Reply in this thread'),
          },
          ['channel', 'text'],
        ),
      ),
      tool(
        'slack',
        'list_channels',
        'read',
        ['channels:read'],
        'List the public channels of the workspace.',
        obj({
          limit: { type: 'integer', minimum: 1, maximum: 1000 },
          cursor: str('Pagination cursor'),
        }),
      ),
      tool(
        'slack',
        'search_messages',
        'read',
        ['search:read'],
        'Search messages in the workspace.',
        obj({ query: str('Search query'), count: { type: 'integer', minimum: 1, maximum: 100 } }, ['query']),
      ),
    ],
    oauth: {
      authorizeUrl: 'https://slack.com/oauth/v2/authorize',
      tokenUrl: 'https://slack.com/api/oauth.v2.access',
      apiBaseUrl: 'https://slack.com/api',
      scopeSeparator: ',',
      pkce: false,
      tokenAuth: 'client_secret_post',
      account: { fromTokenResponse: { id: 'team.id', name: 'team.name' } },
      clientIdEnv: 'OAUTH_SLACK_CLIENT_ID',
      clientSecretEnv: 'OAUTH_SLACK_CLIENT_SECRET',
    },
  },
  {
    integration_id: 'cf225993-dd39-454a-92f3-d3ff2b1a7097',
    slug: 'google-drive',
    name: 'Google Drive',
    kind: 'cloud drive',
    category: 'storage',
    connection_types: ['oauth'],
    capabilities: ['read files', 'write files', 'share files'],
    oauth_scopes: ['drive.file', 'drive.readonly'],
    tools: [
      tool(
        'google-drive',
        'read_file',
        'read',
        ['drive.readonly'],
        'Read a file (metadata and text content).',
        obj({ file_id: str('Drive file id') }, ['file_id']),
      ),
      tool(
        'google-drive',
        'write_file',
        'write',
        ['drive.file'],
        'Create or overwrite a file.',
        obj(
          {
            name: str('File name'),
            content: str('File content'),
            mime_type: str('MIME type'),
            folder_id: str('Parent folder id'),
            file_id: str('Overwrite this file'),
          },
          ['name', 'content'],
        ),
      ),
      tool(
        'google-drive',
        'share_file',
        'write',
        ['drive.file'],
        'Share a file with a person.',
        obj(
          {
            file_id: str('Drive file id'),
            email: str('Address to share with', { format: 'email' }),
            role: { type: 'string', enum: ['reader', 'commenter', 'writer'] },
          },
          ['file_id', 'email', 'role'],
        ),
      ),
    ],
    oauth: {
      authorizeUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
      tokenUrl: 'https://oauth2.googleapis.com/token',
      revocationUrl: 'https://oauth2.googleapis.com/revoke',
      apiBaseUrl: 'https://www.googleapis.com',
      scopeSeparator: ' ',
      scopeNames: {
        'drive.file': 'https://www.googleapis.com/auth/drive.file',
        'drive.readonly': 'https://www.googleapis.com/auth/drive.readonly',
      },
      pkce: true,
      tokenAuth: 'client_secret_post',
      extraAuthorizeParams: { access_type: 'offline', prompt: 'consent' },
      account: {
        endpoint: { path: '/drive/v3/about?fields=user', id: 'user.permissionId', name: 'user.emailAddress' },
      },
      clientIdEnv: 'OAUTH_GOOGLE_DRIVE_CLIENT_ID',
      clientSecretEnv: 'OAUTH_GOOGLE_DRIVE_CLIENT_SECRET',
    },
  },
  {
    integration_id: '7612d71f-e72d-44fa-b77c-d6618911695a',
    slug: 'github',
    name: 'GitHub',
    kind: 'code hosting',
    category: 'development',
    connection_types: ['oauth', 'mcp'],
    capabilities: ['create issues', 'create pull requests', 'read repos'],
    oauth_scopes: ['repo', 'read:org'],
    tools: [
      tool(
        'github',
        'create_issue',
        'write',
        ['repo'],
        'Open an issue in a repository.',
        obj(
          {
            owner: str('Repository owner'),
            repo: str('Repository name'),
            title: str('Issue title'),
            body: str('Issue body (Markdown)'),
            labels: strList('Labels'),
          },
          ['owner', 'repo', 'title'],
        ),
      ),
      tool(
        'github',
        'create_pull_request',
        'write',
        ['repo'],
        'Open a pull request.',
        obj(
          {
            owner: str('Repository owner'),
            repo: str('Repository name'),
            title: str('Title'),
            head: str('Branch with the changes'),
            base: str('Branch to merge into'),
            body: str('Description'),
          },
          ['owner', 'repo', 'title', 'head', 'base'],
        ),
      ),
      tool(
        'github',
        'list_repositories',
        'read',
        ['repo'],
        'List repositories of the user or an organisation.',
        obj({
          org: str('Organisation login; the user when absent'),
        }),
      ),
      tool(
        'github',
        'get_repository',
        'read',
        ['repo'],
        'Read a repository and its metadata.',
        obj({ owner: str('Repository owner'), repo: str('Repository name') }, ['owner', 'repo']),
      ),
    ],
    oauth: {
      authorizeUrl: 'https://github.com/login/oauth/authorize',
      tokenUrl: 'https://github.com/login/oauth/access_token',
      apiBaseUrl: 'https://api.github.com',
      scopeSeparator: ' ',
      pkce: true,
      tokenAuth: 'client_secret_post',
      account: { endpoint: { path: '/user', id: 'id', name: 'login' } },
      clientIdEnv: 'OAUTH_GITHUB_CLIENT_ID',
      clientSecretEnv: 'OAUTH_GITHUB_CLIENT_SECRET',
    },
  },
  {
    integration_id: '84c9cfb6-51e1-4f6e-8813-4c0ca00ce913',
    slug: 'linear',
    name: 'Linear',
    kind: 'issue tracker',
    category: 'productivity',
    connection_types: ['oauth', 'mcp'],
    capabilities: ['create issues', 'read projects'],
    oauth_scopes: ['read', 'write'],
    tools: [
      tool(
        'linear',
        'create_issue',
        'write',
        ['write'],
        'Create an issue in a team.',
        obj(
          {
            team_id: str('Team id'),
            title: str('Issue title'),
            description: str('Markdown description'),
            priority: { type: 'integer', minimum: 0, maximum: 4 },
          },
          ['team_id', 'title'],
        ),
      ),
      tool(
        'linear',
        'list_projects',
        'read',
        ['read'],
        'List projects, optionally of one team.',
        obj({
          team_id: str('Team id'),
          first: { type: 'integer', minimum: 1, maximum: 250 },
        }),
      ),
    ],
    oauth: {
      authorizeUrl: 'https://linear.app/oauth/authorize',
      tokenUrl: 'https://api.linear.app/oauth/token',
      revocationUrl: 'https://api.linear.app/oauth/revoke',
      apiBaseUrl: 'https://api.linear.app',
      scopeSeparator: ',',
      pkce: true,
      tokenAuth: 'client_secret_post',
      account: {
        endpoint: {
          path: '/graphql',
          method: 'POST',
          body: '{"query":"{ organization { id name } }"}',
          id: 'data.organization.id',
          name: 'data.organization.name',
        },
      },
      clientIdEnv: 'OAUTH_LINEAR_CLIENT_ID',
      clientSecretEnv: 'OAUTH_LINEAR_CLIENT_SECRET',
    },
  },
  {
    integration_id: 'c374bf17-53de-40b5-981c-96403f7d989f',
    slug: 'figma',
    name: 'Figma',
    kind: 'design tool',
    category: 'design',
    connection_types: ['oauth'],
    capabilities: ['read designs', 'export assets'],
    oauth_scopes: ['file_read'],
    tools: [
      tool(
        'figma',
        'get_file',
        'read',
        ['file_read'],
        'Read a design file (document tree).',
        obj(
          {
            file_key: str('File key from the file URL'),
            depth: { type: 'integer', minimum: 1, maximum: 10 },
          },
          ['file_key'],
        ),
      ),
      tool(
        'figma',
        'export_assets',
        'read',
        ['file_read'],
        'Export nodes of a file as images.',
        obj(
          {
            file_key: str('File key'),
            node_ids: strList('Node ids to export'),
            format: { type: 'string', enum: ['png', 'jpg', 'svg', 'pdf'] },
            scale: { type: 'number', minimum: 0.01, maximum: 4 },
          },
          ['file_key', 'node_ids'],
        ),
      ),
    ],
    oauth: {
      authorizeUrl: 'https://www.figma.com/oauth',
      tokenUrl: 'https://api.figma.com/v1/oauth/token',
      apiBaseUrl: 'https://api.figma.com',
      scopeSeparator: ',',
      scopeNames: { file_read: 'file_content:read' },
      pkce: true,
      tokenAuth: 'client_secret_basic',
      account: { endpoint: { path: '/v1/me', id: 'id', name: 'handle' } },
      clientIdEnv: 'OAUTH_FIGMA_CLIENT_ID',
      clientSecretEnv: 'OAUTH_FIGMA_CLIENT_SECRET',
    },
  },
  {
    integration_id: '55c3247b-943a-4c8c-86ea-345014cb3ef2',
    slug: 'gmail',
    name: 'Gmail',
    kind: 'e-mail',
    category: 'office-suite',
    connection_types: ['oauth'],
    capabilities: ['send', 'read', 'search'],
    oauth_scopes: ['mail.send', 'mail.readonly'],
    tools: [
      tool(
        'gmail',
        'send_email',
        'write',
        ['mail.send'],
        'Send an e-mail.',
        obj(
          {
            to: { ...strList('Recipients'), minItems: 1 },
            cc: strList('Copy recipients'),
            bcc: strList('Blind copy recipients'),
            subject: str('Subject'),
            body: str('Plain-text body'),
          },
          ['to', 'subject', 'body'],
        ),
      ),
      tool(
        'gmail',
        'read_email',
        'read',
        ['mail.readonly'],
        'Read one message.',
        obj({ message_id: str('Message id') }, ['message_id']),
      ),
      tool(
        'gmail',
        'search_email',
        'read',
        ['mail.readonly'],
        'Search messages (Gmail query syntax).',
        obj({ query: str('Search query'), max_results: { type: 'integer', minimum: 1, maximum: 100 } }, [
          'query',
        ]),
      ),
    ],
    oauth: {
      authorizeUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
      tokenUrl: 'https://oauth2.googleapis.com/token',
      revocationUrl: 'https://oauth2.googleapis.com/revoke',
      apiBaseUrl: 'https://www.googleapis.com',
      scopeSeparator: ' ',
      scopeNames: {
        'mail.send': 'https://www.googleapis.com/auth/gmail.send',
        'mail.readonly': 'https://www.googleapis.com/auth/gmail.readonly',
      },
      pkce: true,
      tokenAuth: 'client_secret_post',
      extraAuthorizeParams: { access_type: 'offline', prompt: 'consent' },
      account: { endpoint: { path: '/gmail/v1/users/me/profile', id: 'emailAddress', name: 'emailAddress' } },
      clientIdEnv: 'OAUTH_GMAIL_CLIENT_ID',
      clientSecretEnv: 'OAUTH_GMAIL_CLIENT_SECRET',
    },
  },
  {
    integration_id: 'f854db29-76ce-4c52-a40f-14c872408db3',
    slug: 'google-calendar',
    name: 'Google Calendar',
    kind: 'calendar',
    category: 'office-suite',
    connection_types: ['oauth'],
    capabilities: ['read events', 'create events'],
    oauth_scopes: ['calendar.events'],
    tools: [
      tool(
        'google-calendar',
        'list_events',
        'read',
        ['calendar.events'],
        'List events in a time range.',
        obj({
          calendar_id: str('Calendar id; the primary calendar when absent'),
          time_min: str('Start (RFC 3339)', { format: 'date-time' }),
          time_max: str('End (RFC 3339)', { format: 'date-time' }),
        }),
      ),
      tool(
        'google-calendar',
        'create_event',
        'write',
        ['calendar.events'],
        'Create an event.',
        obj(
          {
            calendar_id: str('Calendar id; the primary calendar when absent'),
            summary: str('Title'),
            start: str('Start (RFC 3339)', { format: 'date-time' }),
            end: str('End (RFC 3339)', { format: 'date-time' }),
            attendees: strList('Attendee e-mail addresses'),
          },
          ['summary', 'start', 'end'],
        ),
      ),
    ],
    oauth: {
      authorizeUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
      tokenUrl: 'https://oauth2.googleapis.com/token',
      revocationUrl: 'https://oauth2.googleapis.com/revoke',
      apiBaseUrl: 'https://www.googleapis.com',
      scopeSeparator: ' ',
      scopeNames: { 'calendar.events': 'https://www.googleapis.com/auth/calendar.events' },
      pkce: true,
      tokenAuth: 'client_secret_post',
      extraAuthorizeParams: { access_type: 'offline', prompt: 'consent' },
      account: { endpoint: { path: '/calendar/v3/calendars/primary', id: 'id', name: 'summary' } },
      clientIdEnv: 'OAUTH_GOOGLE_CALENDAR_CLIENT_ID',
      clientSecretEnv: 'OAUTH_GOOGLE_CALENDAR_CLIENT_SECRET',
    },
  },
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

const bySlug = new Map(catalog.map((e) => [e.slug, e]))
const byId = new Map(catalog.map((e) => [e.integration_id, e]))

export function integrationBySlug(slug: string): CatalogEntry | undefined {
  return bySlug.get(slug)
}
export function integrationById(id: string): CatalogEntry | undefined {
  return byId.get(id)
}
/** An integration by uuid or slug (paths accept either). */
export function findIntegration(idOrSlug: string): CatalogEntry | undefined {
  return byId.get(idOrSlug) ?? bySlug.get(idOrSlug)
}

/**
 * A name safe for clients that refuse ':' (model APIs accept only [A-Za-z0-9_-], at most 64
 * characters): ':' becomes '__', anything else outside the set '_'. Long names keep a checksum
 * suffix so two long names rarely meet; aliases are unique per connection in the database.
 */
export function toolAlias(name: string): string {
  const alias = name.replace(':', '__').replace(/[^A-Za-z0-9_-]/g, '_')
  if (alias.length <= 64) return alias
  return `${alias.slice(0, 55)}_${crc32(name).toString(16).padStart(8, '0')}`
}

// ---------------------------------------------------------------------------------------------
// Provider configuration: client credentials from the environment, URLs overridable.

const overrideEntry = z
  .object({
    authorize_url: z.url(),
    token_url: z.url(),
    revocation_url: z.url().nullable(),
    api_base_url: z.url(),
    pkce: z.boolean(),
    scope_separator: z.enum([' ', ',']),
    token_auth: z.enum(['client_secret_basic', 'client_secret_post']),
    client_id: z.string().min(1).max(500),
    client_secret: z.string().min(1).max(2000),
    account_path: z.string().startsWith('/').max(500),
    account_id_field: z.string().min(1).max(100),
    account_name_field: z.string().min(1).max(100),
  })
  .partial()
  .strict()

const overridesSchema = z.record(z.string(), overrideEntry)

/** A provider with its configuration applied: what the OAuth flow and the refresh job use. */
export interface ResolvedProvider extends OAuthProvider {
  slug: string
  integration_id: string
  /** The spec's permission names (stored on connections, required by tools). */
  scopes: string[]
  /** The same scopes as the provider names them (sent in the authorize request). */
  providerScopes: string[]
  clientId?: string
  clientSecret?: string
}

/**
 * Applies OAUTH_PROVIDERS_OVERRIDE ({"<slug>": {"token_url": ..., ...}}) and the client
 * credentials from OAUTH_<SLUG>_CLIENT_ID / _CLIENT_SECRET. Throws on malformed overrides, so a
 * typo fails at start-up rather than at the first connection.
 */
export function resolveProviders(config: Pick<Config, 'OAUTH_ENV'>): Map<string, ResolvedProvider> {
  const env = config.OAUTH_ENV ?? {}
  let overrides: z.infer<typeof overridesSchema> = {}
  if (env.OAUTH_PROVIDERS_OVERRIDE) {
    const parsed = overridesSchema.safeParse(JSON.parse(env.OAUTH_PROVIDERS_OVERRIDE))
    if (!parsed.success) throw new Error(`Invalid OAUTH_PROVIDERS_OVERRIDE: ${parsed.error.message}`)
    overrides = parsed.data
    for (const slug of Object.keys(overrides)) {
      if (!bySlug.get(slug)?.oauth)
        throw new Error(`OAUTH_PROVIDERS_OVERRIDE names unknown OAuth integration ${slug}`)
    }
  }
  const out = new Map<string, ResolvedProvider>()
  for (const entry of catalog) {
    if (!entry.oauth) continue
    const base = entry.oauth
    const o = overrides[entry.slug] ?? {}
    const endpoint =
      o.account_path || o.account_id_field || o.account_name_field
        ? {
            path: o.account_path ?? base.account.endpoint?.path ?? '/',
            id: o.account_id_field ?? base.account.endpoint?.id ?? 'id',
            name: o.account_name_field ?? base.account.endpoint?.name ?? 'name',
          }
        : base.account.endpoint
    out.set(entry.slug, {
      ...base,
      slug: entry.slug,
      integration_id: entry.integration_id,
      scopes: entry.oauth_scopes,
      providerScopes: entry.oauth_scopes.map((s) => base.scopeNames?.[s] ?? s),
      authorizeUrl: o.authorize_url ?? base.authorizeUrl,
      tokenUrl: o.token_url ?? base.tokenUrl,
      revocationUrl: o.revocation_url === null ? undefined : (o.revocation_url ?? base.revocationUrl),
      apiBaseUrl: o.api_base_url ?? base.apiBaseUrl,
      pkce: o.pkce ?? base.pkce,
      scopeSeparator: o.scope_separator ?? base.scopeSeparator,
      tokenAuth: o.token_auth ?? base.tokenAuth,
      // An overridden account endpoint replaces a token-response lookup (test servers answer neither shape).
      account: o.account_path ? { endpoint } : { ...base.account, ...(endpoint && { endpoint }) },
      clientId: o.client_id ?? env[base.clientIdEnv],
      clientSecret: o.client_secret ?? env[base.clientSecretEnv],
    })
  }
  return out
}

/**
 * Granted scopes as the provider names them, read back as the spec's permission names; a scope
 * the catalog does not know is kept as the provider named it.
 */
export function permissionNames(provider: Pick<OAuthProvider, 'scopeNames'>, granted: string[]): string[] {
  const back = new Map(
    Object.entries(provider.scopeNames ?? {}).map(([permission, name]) => [name, permission]),
  )
  return [...new Set(granted.map((s) => back.get(s) ?? s))]
}

/** The catalog as the API shows it: each entry with its tools and whether its OAuth app is configured here. */
export function publicCatalog(config: Pick<Config, 'OAUTH_ENV'>) {
  const providers = resolveProviders(config)
  return {
    categories: categories.map((slug) => ({
      slug,
      integrations: catalog.filter((e) => e.category === slug).length,
    })),
    data: catalog.map((e) => ({
      integration_id: e.integration_id,
      slug: e.slug,
      name: e.name,
      kind: e.kind,
      category: e.category,
      connection_types: e.connection_types,
      capabilities: e.capabilities,
      oauth_scopes: e.oauth_scopes,
      mcp_type: e.mcp_type ?? null,
      oauth_configured: Boolean(providers.get(e.slug)?.clientId && providers.get(e.slug)?.clientSecret),
      tools: e.tools.map((t) => ({
        name: t.name,
        alias: toolAlias(t.name),
        description: t.description,
        inputSchema: t.inputSchema,
      })),
    })),
  }
}
