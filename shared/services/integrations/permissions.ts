import type { Queryable } from '@shared/infra/db.ts'
import { z } from 'zod'
import { type CatalogTool, integrationBySlug, toolAlias } from './catalog.ts'

/**
 * Per-connection tool permissions and the one decision function the tool server calls before
 * running a tool.
 *
 * Default without a permission row: the tool is ALLOWED, without restrictions. Connecting an
 * integration is itself the owner's (or admin's) decision, OAuth consent already bounds it by
 * scopes, and the spec's `allowed` flag "enables or disables" a tool; a row only narrows that.
 */

const ids = (what: string, pattern: RegExp, example: string) =>
  z
    .array(z.string().regex(pattern, `each entry is a ${what} (e.g. ${example})`))
    .min(1)
    .max(500)
    .refine((a) => new Set(a).size === a.length, 'entries must not repeat')

/** Restriction kinds by tool: the spec's `channels`; the other key names are ours (docs/integrations.md). */
export const restrictionSchemas: Record<string, z.ZodType<Record<string, unknown>>> = {
  'slack:post_message': z
    .object({ channels: ids('Slack channel id', /^[CGD][A-Z0-9]{2,30}$/, 'C0123456789') })
    .strict(),
  'notion:create_page': z
    .object({
      databases: ids(
        'Notion database id',
        /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i,
        'a 32-hex id',
      ),
    })
    .strict(),
  'github:create_issue': z
    .object({
      repositories: ids(
        'repository "owner/name"',
        /^[A-Za-z0-9-]{1,39}\/[A-Za-z0-9._-]{1,100}$/,
        'acme/website',
      ),
    })
    .strict(),
  'gmail:send_email': z
    .object({
      recipients: ids(
        'e-mail address or "@domain"',
        /^([^\s@]{1,64})?@[^\s@]+\.[^\s@]{2,}$/,
        'ann@example.com or @example.com',
      ),
    })
    .strict(),
}

export type Restrictions = Record<string, unknown>

/** Validates restrictions for a tool; tools without a restriction kind take none (or {}). */
export function parseRestrictions(
  toolName: string,
  restrictions: unknown,
): { ok: true; value: Restrictions } | { ok: false; issues: { field: string; message: string }[] } {
  const schema = restrictionSchemas[toolName]
  if (restrictions === undefined || restrictions === null) return { ok: true, value: {} }
  if (!schema) {
    if (
      typeof restrictions === 'object' &&
      !Array.isArray(restrictions) &&
      Object.keys(restrictions).length === 0
    ) {
      return { ok: true, value: {} }
    }
    return { ok: false, issues: [{ field: 'restrictions', message: `${toolName} takes no restrictions` }] }
  }
  const parsed = schema.safeParse(restrictions)
  if (parsed.success) return { ok: true, value: parsed.data }
  return {
    ok: false,
    issues: parsed.error.issues.map((i) => ({
      field: ['restrictions', ...i.path].join('.'),
      message: i.message,
    })),
  }
}

export interface ToolRef {
  name: string
  alias: string
  requiredScopes?: string[]
}

/** Finds a tool by its name or its alias. */
export function resolveTool<T extends ToolRef>(tools: T[], nameOrAlias: string): T | undefined {
  return tools.find((t) => t.name === nameOrAlias) ?? tools.find((t) => t.alias === nameOrAlias)
}

export function catalogTools(slug: string): (CatalogTool & { alias: string })[] {
  return (integrationBySlug(slug)?.tools ?? []).map((t) => ({ ...t, alias: toolAlias(t.name) }))
}

/** Why a call was refused, as a code callers can branch on (the reason is for people). */
type RefusalCode =
  | 'no_connection'
  | 'needs_reauthorization'
  | 'ambiguous_connection'
  | 'unknown_tool'
  | 'scope_not_granted'
  | 'tool_disabled'
  | 'restriction'

export type Decision =
  | { allowed: true; connection_id: string; tool_name: string }
  | { allowed: false; code: RefusalCode; reason: string; connection_id?: string; tool_name?: string }

/** One bare address: a single '@', none of the characters that separate or quote addresses. */
const PLAIN_ADDRESS = /^[^\s@,;:<>()"[\]\\]+@[^\s@,;:<>()"[\]\\]+$/

const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x) => typeof x === 'string') : typeof v === 'string' ? [v] : []

/** Checks a call's arguments against a permission's restrictions; null when they pass. */
function restrictionViolation(
  toolName: string,
  restrictions: Restrictions,
  args: Record<string, unknown>,
): string | null {
  switch (toolName) {
    case 'slack:post_message': {
      const allowed = restrictions.channels as string[] | undefined
      if (!allowed) return null
      const channel = typeof args.channel === 'string' ? args.channel : ''
      return allowed.includes(channel)
        ? null
        : `channel ${channel || '(none)'} is not in the allowed channels`
    }
    case 'notion:create_page': {
      const allowed = restrictions.databases as string[] | undefined
      if (!allowed) return null
      const norm = (s: string) => s.replace(/-/g, '').toLowerCase()
      const db = typeof args.database_id === 'string' ? args.database_id : ''
      return allowed.map(norm).includes(norm(db))
        ? null
        : `database ${db || '(none)'} is not in the allowed databases`
    }
    case 'github:create_issue': {
      const allowed = restrictions.repositories as string[] | undefined
      if (!allowed) return null
      const repo = `${typeof args.owner === 'string' ? args.owner : ''}/${typeof args.repo === 'string' ? args.repo : ''}`
      // GitHub names are case-insensitive.
      return allowed.some((r) => r.toLowerCase() === repo.toLowerCase())
        ? null
        : `repository ${repo} is not in the allowed repositories`
    }
    case 'gmail:send_email': {
      const allowed = (restrictions.recipients as string[] | undefined)?.map((r) => r.toLowerCase())
      if (!allowed) return null
      const given = [args.to, args.cc, args.bcc].flatMap((v) => (Array.isArray(v) ? v : v == null ? [] : [v]))
      // Fail closed on anything but one plain address per entry: 'eve@evil.test, bob@ok.org' would
      // otherwise pass as '@ok.org' while the mail goes to both, and a non-string would be skipped.
      const bad = given.find((r) => typeof r !== 'string' || !PLAIN_ADDRESS.test(r.trim()))
      if (bad !== undefined) return `recipient ${String(bad).slice(0, 200)} is not a single e-mail address`
      const recipients = strings(given).map((r) => r.trim().toLowerCase())
      if (recipients.length === 0) return 'the message has no recipients'
      for (const r of recipients) {
        const domain = r.slice(r.lastIndexOf('@'))
        if (!allowed.includes(r) && !allowed.includes(domain))
          return `recipient ${r} is not in the allowed recipients`
      }
      return null
    }
    default:
      return null
  }
}

interface ConnectionRow {
  id: string
  integration_slug: string
  connection_type: 'oauth' | 'mcp'
  status: string
  scopes: string[]
}

/**
 * Decides whether a tool call may run, and why not. `db` is a tenant transaction (RLS) or the
 * service connection; the tenant is always given explicitly. The tool is named
 * '<slug>:<tool>' or by its alias; `connection_id` picks the connection when the tenant has
 * several of one integration (without it, one active connection must be unambiguous).
 */
export async function decideToolCall(
  db: Queryable,
  input: { tenantId: string; toolName: string; arguments?: Record<string, unknown>; connectionId?: string },
): Promise<Decision> {
  const args = input.arguments ?? {}
  const slug = input.toolName.includes(':') ? input.toolName.split(':')[0]! : input.toolName.split('__')[0]!
  const rows = await db<ConnectionRow[]>`
    select id, integration_slug, connection_type, status, scopes from public.integration_connections
    where tenant_id = ${input.tenantId}
      ${input.connectionId ? db`and id = ${input.connectionId}` : db`and integration_slug = ${slug}`}`
  if (rows.length === 0)
    return { allowed: false, code: 'no_connection', reason: 'no connection provides this tool' }
  const active = rows.filter((r) => r.status === 'active')
  if (active.length === 0)
    return {
      allowed: false,
      code: 'needs_reauthorization',
      reason: 'the connection needs to be re-authorized',
      connection_id: rows[0]!.id,
    }
  if (active.length > 1)
    return {
      allowed: false,
      code: 'ambiguous_connection',
      reason: 'several connections provide this tool; name the connection',
    }
  const connection = active[0]!

  let tool: ToolRef | undefined
  if (connection.connection_type === 'oauth') {
    tool = resolveTool(catalogTools(connection.integration_slug), input.toolName)
  } else {
    const found = await db<ToolRef[]>`
      select name, alias from public.integration_tools
      where tenant_id = ${input.tenantId} and connection_id = ${connection.id} and (name = ${input.toolName} or alias = ${input.toolName})`
    tool = resolveTool(found, input.toolName)
  }
  if (!tool)
    return {
      allowed: false,
      code: 'unknown_tool',
      reason: `the connection has no tool ${input.toolName}`,
      connection_id: connection.id,
    }
  const base = { connection_id: connection.id, tool_name: tool.name }

  const missing = (tool.requiredScopes ?? []).filter((s) => !connection.scopes.includes(s))
  if (missing.length > 0)
    return {
      allowed: false,
      code: 'scope_not_granted',
      reason: `scope ${missing.join(', ')} was not granted`,
      ...base,
    }

  const [permission] = await db<{ allowed: boolean; restrictions: Restrictions }[]>`
    select allowed, restrictions from public.integration_tool_permissions
    where tenant_id = ${input.tenantId} and connection_id = ${connection.id} and tool_name = ${tool.name}`
  if (!permission) return { allowed: true, ...base }
  if (!permission.allowed)
    // The caller prefixes the tool's name; the reason says what to do.
    return {
      allowed: false,
      code: 'tool_disabled',
      reason: `disabled on this connection; allow it with POST /api/connections/${connection.id}/permissions`,
      ...base,
    }
  const violation = restrictionViolation(tool.name, permission.restrictions, args)
  if (violation) return { allowed: false, code: 'restriction', reason: violation, ...base }
  return { allowed: true, ...base }
}

/**
 * Resources and prompts of a connected MCP server, permitted like tools: one permission row per
 * feature and connection, named '<slug>:resources/*' and '<slug>:prompts/*' ('*' is never part of a
 * tool's name, so these cannot collide with a tool). Without a row the feature is allowed, as a
 * tool is; `allowed: false` refuses every list, read and get of that feature on the connection.
 * They take no restrictions.
 */
export type ConnectionFeature = 'resources' | 'prompts'
const connectionFeatures: readonly ConnectionFeature[] = ['resources', 'prompts']

const featurePermissionName = (slug: string, feature: ConnectionFeature) => `${slug}:${feature}/*`

/** The feature a permission name stands for, when it is one of featurePermissionName's. */
export function featureOfPermissionName(slug: string, name: string): ConnectionFeature | undefined {
  return connectionFeatures.find((f) => featurePermissionName(slug, f) === name)
}

/**
 * Decides whether the caller may use a feature of one connection: the connection is active, an
 * MCP connection, and no permission row disables the feature. `db` as for decideToolCall.
 */
export async function decideConnectionFeature(
  db: Queryable,
  input: { tenantId: string; connectionId: string; feature: ConnectionFeature },
): Promise<Decision> {
  const [connection] = await db<ConnectionRow[]>`
    select id, integration_slug, connection_type, status, scopes from public.integration_connections
    where tenant_id = ${input.tenantId} and id = ${input.connectionId}`
  if (connection?.connection_type !== 'mcp')
    return {
      allowed: false,
      code: 'no_connection',
      reason: `no connected MCP server offers ${input.feature}`,
    }
  const name = featurePermissionName(connection.integration_slug, input.feature)
  const base = { connection_id: connection.id, tool_name: name }
  if (connection.status !== 'active')
    return {
      allowed: false,
      code: 'needs_reauthorization',
      reason: 'the connection needs to be re-authorized',
      ...base,
    }
  const [permission] = await db<{ allowed: boolean }[]>`
    select allowed from public.integration_tool_permissions
    where tenant_id = ${input.tenantId} and connection_id = ${connection.id} and tool_name = ${name}`
  if (permission && !permission.allowed)
    return {
      allowed: false,
      code: 'tool_disabled',
      reason: `${input.feature} are disabled on this connection; allow them with POST /api/connections/${connection.id}/permissions (tool_name ${name})`,
      ...base,
    }
  return { allowed: true, ...base }
}
