import { z } from 'zod'
import type { Api } from './api.ts'

/**
 * What a catalog entry and an OAuth provider module are made of. Each provider lives in its own
 * module (`providers/<slug>.ts`): its catalog entry, its tools (input schema and implementation
 * side by side) and how its API reports errors. `catalog.ts` is the index of those modules.
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
type Category = (typeof categories)[number]

type ConnectionType = 'oauth' | 'mcp'
type ToolAction = 'read' | 'write'

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
  /**
   * The authorization server's issuer identifier (RFC 8414), what an RFC 9207 `iss` in its
   * authorization responses must equal. Without one, the authorize URL's origin stands for it.
   */
  issuer?: string
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

/**
 * One tool of a provider. `input` is the single source of its arguments: the catalog publishes
 * its JSON Schema, the tool set validates calls against that JSON Schema before `run`, and `run`'s
 * arguments are typed from it.
 */
export interface ProviderTool<Input extends z.ZodObject = z.ZodObject> {
  /** The tool's name within the provider; the catalog names it '<slug>:<name>'. */
  name: string
  description: string
  action: ToolAction
  requiredScopes: string[]
  input: Input
  // A method, so that a tool of a narrower input is still a ProviderTool (parameter bivariance).
  run(api: Api, args: z.infer<Input>): Promise<unknown>
}

/** Declares a tool; its `run` gets arguments typed from `input`. */
export function providerTool<Input extends z.ZodObject>(tool: ProviderTool<Input>): ProviderTool {
  return tool
}

/** How a provider's API differs from plain bearer-token JSON over HTTP. */
export interface ApiConventions {
  /** Headers the provider requires on every request. */
  headers?: Record<string, string>
  /**
   * Reads the provider's own error convention from a parsed answer (Slack's `ok: false` on HTTP
   * 200, GraphQL's `errors`): throws ProviderAuthError when it says the token is refused,
   * ProviderError for any other error, and returns for an answer that is not an error by its
   * convention. Runs after the HTTP 401 check and before the generic reading of the HTTP status.
   */
  // biome-ignore lint/suspicious/noExplicitAny: the provider's JSON, read field by field
  readError?(body: any, httpOk: boolean): void
}

/** An OAuth provider: its catalog entry, its tools and its API conventions, in one module. */
export interface ProviderDefinition extends Omit<CatalogEntry, 'tools' | 'oauth' | 'mcp_type'> {
  oauth: OAuthProvider
  tools: ProviderTool[]
  api?: ApiConventions
}

/** Declares an OAuth provider module. */
export function defineProvider(definition: ProviderDefinition): ProviderDefinition {
  return definition
}

/**
 * The JSON Schema the catalog publishes for a tool's input (as the platform tools do), in the
 * form its clients read: `required` present even when empty, and a free-form
 * object (z.looseObject({})) as a bare `{type: 'object'}` rather than zod's equivalent spelling.
 */
export function inputJsonSchema(input: z.ZodObject): JsonSchema {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(input, {
    io: 'input',
    override: ({ jsonSchema }) => {
      const freeForm =
        jsonSchema.type === 'object' &&
        Object.keys(jsonSchema.properties ?? { unset: true }).length === 0 &&
        typeof jsonSchema.additionalProperties === 'object' &&
        Object.keys(jsonSchema.additionalProperties).length === 0
      if (freeForm) {
        delete jsonSchema.properties
        delete jsonSchema.additionalProperties
      }
    },
  }) as JsonSchema
  return { ...schema, required: schema.required ?? [] }
}

/**
 * A string the JSON Schema validator checks against a `format` ('email', 'date-time'). The format
 * is declared as metadata rather than with zod's own e-mail or ISO date-time string schemas, whose
 * JSON Schema adds a pattern of zod's own: the published schema keeps the format alone. (The
 * catalog's date-times are the provider's to judge; no date reaches our database.)
 */
export const formatted = (format: string, description: string) =>
  z.string().describe(description).meta({ format })
