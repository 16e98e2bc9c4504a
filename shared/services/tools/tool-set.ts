import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv'
import type { JsonSchemaType } from '@modelcontextprotocol/sdk/validation/types.js'
import type { ServiceContext } from '@shared/infra/deps.ts'
import { type FieldIssue, ServiceError } from '@shared/infra/errors.ts'
import { Redactor } from '@shared/infra/redaction.ts'
import {
  integrationBySlug,
  oauthProviderBySlug,
  resolveProviders,
  toolAlias,
  toolImplementation,
} from '../integrations/catalog.ts'
import {
  type ConnectionWithTools,
  listActiveConnectionsWithTools,
  rediscoverTools,
} from '../integrations/connections.ts'
import { callMcpTool, McpConnectError, McpToolError } from '../integrations/mcp-discovery.ts'
import { ProviderAuthError, ProviderError, providerApi } from '../integrations/providers/api.ts'
import { refreshConnectionToken } from '../integrations/token-refresh.ts'
import { connectionToken, decideToolCall, recordToolCall } from '../integrations/tool-calls.ts'
import { PLATFORM_INTEGRATION_ID, type TriggeredBy, type UsageAction } from '../integrations/usage-log.ts'
import { connectionPrefixes } from './connection-prefixes.ts'
import { describeTool, type PlatformTool, platformTools } from './platform-tools.ts'
import { callerToolSubset, inSubset } from './tool-subset.ts'

/**
 * The tool set a tool-server key sees, transport-free: the platform's own tools (gated by the
 * key's scopes) and the tools of every active connection of the key's tenant. The REST form and
 * both MCP transports list and call through here, so they offer exactly the same tools.
 *
 * Names. REST names are the spec's '<integration_slug>:<tool_name>'; MCP names are the catalog's
 * aliases ('<slug>__<tool>', [A-Za-z0-9_-]{1,64}). When a tenant has two or more active
 * connections of one integration, each connection's tools are qualified with the first 8 hex
 * digits of its id: 'slack@1a2b3c4d:post_message' and 'slack_1a2b3c4d__post_message'. Calls
 * accept either form of either name.
 */

export interface ToolEntry {
  /** REST name. */
  name: string
  /** MCP name: ^[a-zA-Z0-9_-]{1,64}$ */
  mcpName: string
  description: string
  inputSchema: Record<string, unknown>
  source: 'platform' | 'oauth' | 'mcp'
  platform?: PlatformTool
  connection?: ConnectionWithTools
  /** The tool's name in the connection ('<slug>:<tool>'), what decideToolCall and the log see. */
  toolName?: string
  action?: UsageAction
  /** MCP tool annotations, where the platform or the catalog knows them. */
  annotations?: ToolAnnotations
  /**
   * Why the tool is not offered, when it is kept only so that a call of it by name is refused with
   * the reason: disabled on its connection, or outside the key's tool subset. Lists never show it.
   */
  hidden?: 'disabled' | 'outside_subset'
}

/** MCP's behaviour hints (2025-06-18 and later); absent ones keep the specification's defaults. */
interface ToolAnnotations {
  readOnlyHint?: boolean
  destructiveHint?: boolean
  idempotentHint?: boolean
  openWorldHint?: boolean
}

/**
 * The platform's tools read (content:read) or add, edit, schedule and publish the tenant's own
 * content: never destructive, closed world. The catalog's tools are read or write; every write tool in it
 * creates, sends or shares (a message, an issue, a page, a file, an event), none deletes or
 * overwrites, so they are not destructive; all act on the provider's world.
 */
const idempotentPlatformTools = new Set([
  'platform:publish_article',
  'platform:schedule_article',
  'platform:update_article',
])
const platformAnnotations = (t: PlatformTool): ToolAnnotations =>
  t.scope === 'content:read'
    ? { readOnlyHint: true, openWorldHint: false }
    : {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: idempotentPlatformTools.has(t.name),
        openWorldHint: false,
      }
const catalogAnnotations = (action: UsageAction): ToolAnnotations =>
  action === 'read'
    ? { readOnlyHint: true, openWorldHint: true }
    : { readOnlyHint: false, destructiveHint: false, openWorldHint: true }

export type ToolOutcome =
  | { status: 'ok'; result: unknown; mcpResult?: { content: unknown[]; structuredContent?: unknown } }
  /**
   * Refused: missing scope, permission or restriction, or a connection that needs re-authorization.
   * `connect`: the call needs the tenant to connect the integration (no connection yet) or to
   * re-authorize the named connection; the MCP server turns it into a URL elicitation (ADR 0043).
   */
  | { status: 'refused'; message: string; connect?: ConnectNeed }
  /** The arguments fail the tool's inputSchema. */
  | { status: 'invalid'; message: string; details: FieldIssue[] }
  /** The provider or MCP server failed (error answer, garbage, time-out) or the tool reported an error. */
  | { status: 'failed'; message: string; mcpResult?: { content: unknown[] }; code?: 'NOT_FOUND' | 'CONFLICT' }

/** What the tenant has to do in the dashboard before the call can succeed. */
export interface ConnectNeed {
  integration: string
  /** The connection to re-authorize; absent: the integration is not connected at all. */
  connectionId?: string
}

export interface CallOptions {
  /** The key's scopes (platform tools). */
  scopes: string[]
  triggeredBy: TriggeredBy
  /** The call waited for an approval that was given (assistant and automation calls). */
  approved?: boolean
  /**
   * A platform tool call made by the platform's own assistant or an automation's run: it writes a
   * usage-log row. The tool server's callers (MCP clients, agents with a key) are in the request
   * log instead, so their keyed reads keep to the hot path's statement budget.
   */
  logPlatformCall?: boolean
  /** Per-call time-out of a provider or MCP server (ms). */
  timeoutMs?: number
  /**
   * Where a connected MCP server's progress and log notifications go while its tool runs (the
   * calling MCP client's response stream). Without it they are dropped.
   */
  relay?: NotificationRelay
}

export interface NotificationRelay {
  progress(p: { progress: number; total?: number; message?: string }): void
  log(l: { level: string; logger?: string; data?: unknown }): void
}

const DEFAULT_TIMEOUT_MS = 15_000
const OUTSIDE_SUBSET = "not among this key's tools (its tool subset)"

export interface ListOptions {
  /**
   * Keep the tools disabled on their connection or outside the key's tool subset, marked `hidden`:
   * a call of one by name is then refused with the reason (and logged) instead of being an
   * unknown tool. Lists never show them.
   */
  includeHidden?: boolean
}

/** The tools the key may be offered; with `includeHidden`, also the ones it may not call. */
export async function listTools(
  ctx: ServiceContext,
  scopes: string[],
  opts: ListOptions = {},
): Promise<ToolEntry[]> {
  const [connections, disabled, subset] = await Promise.all([
    listActiveConnectionsWithTools(ctx),
    disabledTools(ctx),
    callerToolSubset(ctx),
  ])
  const out: ToolEntry[] = []
  const add = (entry: ToolEntry, isDisabled = false) => {
    const candidate = { ...entry, ...(entry.connection && { connectionId: entry.connection.id }) }
    const hidden = isDisabled
      ? 'disabled'
      : inSubset(subset, candidate, toolAlias)
        ? undefined
        : 'outside_subset'
    if (hidden && !opts.includeHidden) return
    out.push(hidden ? { ...entry, hidden } : entry)
  }
  for (const t of platformTools.filter((t) => scopes.includes(t.scope)))
    add({
      ...describeTool(t),
      mcpName: toolAlias(t.name),
      source: 'platform' as const,
      platform: t,
      annotations: platformAnnotations(t),
    })
  const prefixes = connectionPrefixes(connections)
  for (const c of connections) {
    const prefix = prefixes.get(c.id)!
    const qualify = prefix !== c.integration_slug
    const catalog = integrationBySlug(c.integration_slug)
    for (const t of c.tools) {
      const bare = t.name.slice(t.name.indexOf(':') + 1)
      const name = qualify ? `${prefix}:${bare}` : t.name
      const catalogAction =
        c.connection_type === 'oauth' ? catalog?.tools.find((x) => x.name === t.name)?.action : undefined
      add(
        {
          name,
          mcpName: qualify ? toolAlias(name) : t.alias,
          description: t.description,
          inputSchema: t.inputSchema,
          source: c.connection_type,
          connection: c,
          toolName: t.name,
          action: catalogAction ?? 'write',
          // An MCP server's tools keep the specification's defaults: their own hints are not stored.
          ...(catalogAction && { annotations: catalogAnnotations(catalogAction) }),
        },
        disabled.has(`${c.id} ${t.name}`),
      )
    }
  }
  return out
}

/** '<connection id> <tool name>' of every tool a permission row disables (the tenant's, by RLS). */
async function disabledTools(ctx: ServiceContext): Promise<Set<string>> {
  const rows = await ctx.readAsTenant(
    (q) => q<{ connection_id: string; tool_name: string }[]>`
      select connection_id, tool_name from public.integration_tool_permissions
      where tenant_id = ${ctx.caller.tenantId} and not allowed`,
  )
  return new Set(rows.map((r) => `${r.connection_id} ${r.tool_name}`))
}

/** Finds a tool by its REST or MCP name. */
function findTool(tools: ToolEntry[], name: string): ToolEntry | undefined {
  return tools.find((t) => t.name === name) ?? tools.find((t) => t.mcpName === name)
}

const validator = new AjvJsonSchemaValidator()
const compiled = new Map<string, ReturnType<AjvJsonSchemaValidator['getValidator']>>()

function validateArgs(schema: Record<string, unknown>, args: unknown): string | null {
  const key = JSON.stringify(schema)
  let check = compiled.get(key)
  if (!check) {
    try {
      check = validator.getValidator(schema as JsonSchemaType)
    } catch {
      return null // a schema Ajv cannot compile: let the server judge the arguments
    }
    if (compiled.size > 1000) compiled.clear()
    compiled.set(key, check)
  }
  const r = check(args)
  return r.valid ? null : r.errorMessage
}

/**
 * Calls a tool by either name. Unknown names throw NOT_FOUND; everything else is an outcome.
 * Every call of an integration tool goes through decideToolCall and writes one usage record.
 */
export async function callTool(
  ctx: ServiceContext,
  name: string,
  args: Record<string, unknown>,
  opts: CallOptions,
): Promise<ToolOutcome> {
  const platform = platformTools.find((t) => t.name === name || toolAlias(t.name) === name)
  if (platform) {
    const call = async (): Promise<ToolOutcome> => {
      const subset = await callerToolSubset(ctx)
      if (!inSubset(subset, { name: platform.name, mcpName: toolAlias(platform.name) }, toolAlias))
        return { status: 'refused', message: `${platform.name}: ${OUTSIDE_SUBSET}` }
      return callPlatformTool(ctx, platform, args, opts.scopes, opts.approved)
    }
    return opts.logPlatformCall ? loggedPlatformCall(ctx, platform, opts, call) : call()
  }

  const tools = await listTools(ctx, opts.scopes, { includeHidden: true })
  const entry = findTool(tools, name)
  if (!entry) return unlisted(ctx, name, args, opts)
  return callIntegrationTool(ctx, entry, args, opts)
}

/**
 * A platform tool call writes the usage log as an integration's does (under the platform's
 * reserved integration id, no connection), whatever its outcome: an automation's or a
 * conversation's steps are accounted for with what asked for them (triggered_by) and the user.
 */
async function loggedPlatformCall(
  ctx: ServiceContext,
  tool: PlatformTool,
  opts: CallOptions,
  call: () => Promise<ToolOutcome>,
): Promise<ToolOutcome> {
  const started = performance.now()
  const log = (success: boolean) =>
    recordToolCall(ctx, {
      integrationId: PLATFORM_INTEGRATION_ID,
      connectionId: null,
      toolName: tool.name,
      action: tool.scope.endsWith(':read') ? 'read' : 'write',
      triggeredBy: opts.triggeredBy,
      userId: ctx.caller.userId,
      success,
      responseTimeMs: performance.now() - started,
    })
  let outcome: ToolOutcome
  try {
    outcome = await call()
  } catch (err) {
    await log(false).catch(() => {})
    throw err
  }
  await log(outcome.status === 'ok')
  return outcome
}

async function callPlatformTool(
  ctx: ServiceContext,
  tool: PlatformTool,
  args: Record<string, unknown>,
  scopes: string[],
  approved = false,
): Promise<ToolOutcome> {
  if (!scopes.includes(tool.scope))
    return { status: 'refused', message: `The tool ${tool.name} needs the scope ${tool.scope}` }
  const parsed = tool.params.safeParse(args)
  if (!parsed.success) {
    return {
      status: 'invalid',
      message: `Invalid params for ${tool.name}`,
      details: parsed.error.issues.map((i) => ({
        field: ['params', ...i.path].join('.'),
        message: i.message,
      })),
    }
  }
  try {
    return { status: 'ok', result: await tool.run(ctx, parsed.data, { approved }) }
  } catch (err) {
    // NOT_FOUND of a site/article, or a validation rule the schema cannot state: the caller's input.
    if (err instanceof ServiceError && err.status < 500 && err.code !== 'RATE_LIMITED') {
      if (err.code === 'VALIDATION_ERROR')
        return { status: 'invalid', message: err.message, details: err.details ?? [] }
      const code = err.code === 'NOT_FOUND' || err.code === 'CONFLICT' ? err.code : undefined
      return { status: 'failed', message: err.message, ...(code && { code }) }
    }
    throw err
  }
}

/**
 * A name not in the list: a tool of a connection that needs re-authorization (decideToolCall says
 * so, and the refusal is logged), or no tool at all.
 */
async function unlisted(
  ctx: ServiceContext,
  name: string,
  args: Record<string, unknown>,
  opts: CallOptions,
): Promise<ToolOutcome> {
  const looksLikeTool = /^[a-z0-9-]+(:|__)[A-Za-z0-9_./-]+$/.test(name)
  if (looksLikeTool) {
    const decision = await decideToolCall(ctx, { toolName: name, arguments: args })
    // A connection needing re-authorization, or several connections of the integration.
    const known =
      !decision.allowed &&
      (decision.code === 'needs_reauthorization' || decision.code === 'ambiguous_connection')
    if (known) {
      const slug = name.includes(':') ? name.split(':')[0]! : name.split('__')[0]!
      const integration = integrationBySlug(slug)
      const toolName = name.includes(':') ? name : name.replace('__', ':')
      if (integration && decision.connection_id) {
        await recordToolCall(ctx, {
          integrationId: integration.integration_id,
          connectionId: decision.connection_id,
          toolName,
          action: integration.tools.find((t) => t.name === toolName)?.action ?? 'write',
          triggeredBy: opts.triggeredBy,
          userId: ctx.caller.userId,
          success: false,
          responseTimeMs: 0,
        })
      }
      return {
        status: 'refused',
        message: `${name}: ${decision.reason}`,
        ...(decision.code === 'needs_reauthorization' &&
          integration && {
            connect: { integration: integration.slug, connectionId: decision.connection_id },
          }),
      }
    }
    const missing = !decision.allowed && decision.code === 'no_connection' && notConnected(name)
    if (missing)
      return {
        status: 'refused',
        message: `${name}: ${missing} is not connected; connect it in the dashboard`,
        connect: { integration: missing },
      }
  }
  throw new ServiceError('NOT_FOUND', `No tool named ${name.slice(0, 200)}`)
}

/**
 * The integration a tool name belongs to when the tenant has not connected it: a tool of the
 * catalog's, or any tool of an integration that connects as an MCP server (its tools are known
 * only once connected). Undefined for a name of no integration.
 */
function notConnected(name: string): string | undefined {
  const slug = name.includes(':') ? name.split(':')[0]! : name.split('__')[0]!
  const integration = integrationBySlug(slug)
  if (!integration) return undefined
  const known = integration.tools.some((t) => t.name === name || toolAlias(t.name) === name)
  return known || integration.connection_types.includes('mcp') ? integration.slug : undefined
}

async function callIntegrationTool(
  ctx: ServiceContext,
  entry: ToolEntry,
  args: Record<string, unknown>,
  opts: CallOptions,
): Promise<ToolOutcome> {
  const connection = entry.connection!
  const started = performance.now()
  const log = (success: boolean) =>
    recordToolCall(ctx, {
      integrationId: connection.integration_id,
      connectionId: connection.id,
      toolName: entry.toolName!,
      action: entry.action ?? 'write',
      triggeredBy: opts.triggeredBy,
      userId: ctx.caller.userId,
      success,
      responseTimeMs: performance.now() - started,
    })

  if (entry.hidden === 'outside_subset') {
    await log(false)
    return { status: 'refused', message: `${entry.name}: ${OUTSIDE_SUBSET}` }
  }
  const invalid = validateArgs(entry.inputSchema, args)
  if (invalid) {
    await log(false)
    return {
      status: 'invalid',
      message: `Invalid arguments for ${entry.name}: ${invalid}`.slice(0, 1000),
      details: [{ field: 'params', message: invalid.slice(0, 500) }],
    }
  }
  const decision = await decideToolCall(ctx, {
    toolName: entry.toolName!,
    arguments: args,
    connectionId: connection.id,
  })
  if (!decision.allowed) {
    await log(false)
    return { status: 'refused', message: `${entry.name}: ${decision.reason}` }
  }

  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS
  // A provider or MCP server may echo the request it got (the credential, its own address) in an
  // error or a result: everything it answered passes through the redactor of that request.
  const redactor = new Redactor().addUrl(connection.mcp_server_url)
  let outcome: ToolOutcome
  try {
    outcome =
      connection.connection_type === 'oauth'
        ? await runOAuthTool(ctx, entry, args, timeoutMs, redactor)
        : await runMcpTool(ctx, entry, args, timeoutMs, redactor, opts.relay)
  } catch (err) {
    await log(false)
    throw err
  }
  await log(outcome.status === 'ok')
  return redactor.value(outcome)
}

async function runOAuthTool(
  ctx: ServiceContext,
  entry: ToolEntry,
  args: Record<string, unknown>,
  timeoutMs: number,
  redactor: Redactor,
): Promise<ToolOutcome> {
  const connection = entry.connection!
  const impl = toolImplementation(entry.toolName!)
  const conventions = oauthProviderBySlug(connection.integration_slug)
  const provider = resolveProviders(ctx.config).get(connection.integration_slug)
  if (!impl || !conventions || !provider)
    return { status: 'failed', message: `${entry.name} has no implementation` }
  const run = async (token: string) => {
    redactor.add(token)
    try {
      // args passed validateArgs against the JSON Schema generated from impl.input.
      return await impl.run(providerApi(ctx, conventions, provider.apiBaseUrl, token, timeoutMs), args)
    } catch (err) {
      if (err instanceof ProviderAuthError || err instanceof ProviderError) throw err
      // An answer of the wrong shape that the tool could not read: garbage, not our fault.
      throw new ProviderError(`${connection.integration_slug} answered with a body the tool could not read`)
    }
  }

  const first = await connectionToken(ctx, connection.id)
  try {
    try {
      return { status: 'ok', result: await run(first.token) }
    } catch (err) {
      if (!(err instanceof ProviderAuthError)) throw err
      // One refresh, under the hourly job's lease, then one retry.
      const refreshed = await refreshConnectionToken(ctx, connection.id)
      if (refreshed === 'needs_reauth')
        return {
          status: 'refused',
          message: `${entry.name}: the connection needs to be re-authorized`,
          connect: { integration: connection.integration_slug, connectionId: connection.id },
        }
      const again = await connectionToken(ctx, connection.id).catch(() => null)
      // 'skipped': another run holds the lease or backs off; retry only if it stored a new token.
      if (!again || (refreshed !== 'refreshed' && again.token === first.token)) {
        return { status: 'failed', message: `${err.message}; the token could not be refreshed` }
      }
      return { status: 'ok', result: await run(again.token) }
    }
  } catch (err) {
    if (err instanceof ProviderAuthError || err instanceof ProviderError)
      return { status: 'failed', message: err.message }
    throw err
  }
}

async function runMcpTool(
  ctx: ServiceContext,
  entry: ToolEntry,
  args: Record<string, unknown>,
  timeoutMs: number,
  redactor: Redactor,
  relay: NotificationRelay | undefined,
): Promise<ToolOutcome> {
  const connection = entry.connection!
  const { token } = await connectionToken(ctx, connection.id)
  redactor.add(token)
  const upstreamName = entry.toolName!.slice(entry.toolName!.indexOf(':') + 1)
  let listChanged = false
  try {
    const result = await callMcpTool(ctx, {
      url: connection.mcp_server_url!,
      transport: connection.mcp_transport ?? 'streamable_http',
      authType: connection.mcp_auth_type ?? 'bearer',
      token,
      tool: upstreamName,
      arguments: args,
      timeoutMs,
      onListChanged: () => {
        listChanged = true
      },
      ...(relay && {
        onProgress: (p) =>
          relay.progress(p.message === undefined ? p : { ...p, message: redactor.text(String(p.message)) }),
        onLog: (l) => relay.log({ ...l, data: redactor.value(l.data) }),
      }),
    })
    const content = Array.isArray(result.content) ? result.content : []
    if (result.isError) {
      const text = content.find((c) => (c as { type?: unknown })?.type === 'text') as
        | { text?: string }
        | undefined
      return {
        status: 'failed',
        message: text?.text ?? `${entry.name} reported an error`,
        mcpResult: { content },
      }
    }
    return {
      status: 'ok',
      result: result.structuredContent ?? content,
      mcpResult: {
        content,
        ...(result.structuredContent !== undefined && { structuredContent: result.structuredContent }),
      },
    }
  } catch (err) {
    if (err instanceof McpConnectError || err instanceof McpToolError)
      return { status: 'failed', message: `${entry.name}: ${err.message}` }
    throw err
  } finally {
    // The server announced tools/list_changed: refresh the stored tools, off the call's path.
    if (listChanged) {
      rediscoverTools(ctx, connection.id).catch((e) =>
        ctx.logger.warn('tool list refresh after list_changed failed', {
          connection_id: connection.id,
          error: e instanceof Error ? e.message : 'unknown',
        }),
      )
    }
  }
}
