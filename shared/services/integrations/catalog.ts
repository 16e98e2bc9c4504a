import type { Config } from '@shared/infra/config.ts'
import { crc32 } from '@shared/infra/crypto.ts'
import { z } from 'zod'
import { figma } from './providers/figma.ts'
import { github } from './providers/github.ts'
import { gmail } from './providers/gmail.ts'
import { googleCalendar } from './providers/google-calendar.ts'
import { googleDrive } from './providers/google-drive.ts'
import { linear } from './providers/linear.ts'
import { mcpServers } from './providers/mcp-servers.ts'
import { notion } from './providers/notion.ts'
import {
  type CatalogEntry,
  categories,
  inputJsonSchema,
  type OAuthProvider,
  type ProviderDefinition,
  type ProviderTool,
} from './providers/provider.ts'
import { slack } from './providers/slack.ts'

/**
 * The integrations catalog: an index of the provider modules. Each OAuth provider is one module
 * under `providers/` (its endpoints, scopes, PKCE support, account lookup, client credentials
 * named by environment variable, its tools with their input schemas and implementations, and how
 * its API reports errors); the MCP integration types are data in `providers/mcp-servers.ts`.
 * Every URL can be re-pointed with OAUTH_PROVIDERS_OVERRIDE (tests point them at a loopback
 * authorization server). integration_id values are fixed so they stay stable across deployments
 * and can be stored on connections and usage records.
 */

export {
  type CatalogEntry,
  type CatalogTool,
  categories,
  type OAuthProvider,
} from './providers/provider.ts'

/** The OAuth providers, in the catalog's order. A new provider module is added here. */
export const oauthProviders: readonly ProviderDefinition[] = [
  notion,
  slack,
  googleDrive,
  github,
  linear,
  figma,
  gmail,
  googleCalendar,
]

/** A provider module as the catalog lists it: tools named '<slug>:<tool>', with their JSON Schema. */
function catalogEntry({ tools, api: _conventions, ...entry }: ProviderDefinition): CatalogEntry {
  return {
    ...entry,
    tools: tools.map((t) => ({
      name: `${entry.slug}:${t.name}`,
      description: t.description,
      inputSchema: inputJsonSchema(t.input),
      action: t.action,
      requiredScopes: t.requiredScopes,
    })),
  }
}

export const catalog: CatalogEntry[] = [...oauthProviders.map(catalogEntry), ...mcpServers]

const providerBySlug = new Map(oauthProviders.map((p) => [p.slug, p]))
const implementations = new Map<string, ProviderTool>(
  oauthProviders.flatMap((p) => p.tools.map((t) => [`${p.slug}:${t.name}`, t] as const)),
)

/** The module of an OAuth provider (its API conventions: headers, error reading). */
export function oauthProviderBySlug(slug: string): ProviderDefinition | undefined {
  return providerBySlug.get(slug)
}

/** The implementation of a catalog tool, by its '<slug>:<tool>' name. */
export function toolImplementation(name: string): ProviderTool | undefined {
  return implementations.get(name)
}

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
    issuer: z.url(),
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
      issuer: o.issuer ?? base.issuer,
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
      oauth_settings: e.oauth ? [e.oauth.clientIdEnv, e.oauth.clientSecretEnv] : null,
      tools: e.tools.map((t) => ({
        name: t.name,
        alias: toolAlias(t.name),
        description: t.description,
        inputSchema: t.inputSchema,
      })),
    })),
  }
}
