import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js'
import type { ServiceContext } from '@shared/infra/deps.ts'
import { ServiceError } from '@shared/infra/errors.ts'
import { Redactor } from '@shared/infra/redaction.ts'
import { z } from 'zod'
import { type ConnectionWithTools, listActiveConnectionsWithTools } from '../integrations/connections.ts'
import { McpConnectError, McpRequestError, requestMcp } from '../integrations/mcp-discovery.ts'
import { type ConnectionFeature, decideConnectionFeature } from '../integrations/permissions.ts'
import { connectionToken, recordToolCall } from '../integrations/tool-calls.ts'
import type { TriggeredBy } from '../integrations/usage-log.ts'
import { connectionPrefixes } from './connection-prefixes.ts'
import {
  complete,
  getPrompt,
  listResources,
  prompts as platformPrompts,
  resourceTemplates as platformTemplates,
  READ_SCOPE,
  readResource,
} from './platform-resources.ts'
import { callerToolSubset, connectionInSubset } from './tool-subset.ts'

/**
 * The tool server's resources and prompts: the platform's own (platform-resources.ts) and those
 * of the tenant's connected MCP servers, passed through live under the connection's prefix (the
 * one its tools carry, connection-prefixes.ts):
 *
 *   resources   '<prefix>+<the server's URI>'   custom-mcp+demo://resource/static/document/a.md
 *               (a URI scheme may hold '+'; with two connections 'custom-mcp.1a2b3c4d+…')
 *   templates   the same prefix before the server's uriTemplate; names as prompts
 *   prompts     '<prefix>__<the server's name>'  custom-mcp__simple-prompt ('custom-mcp_1a2b3c4d__…')
 *
 * The platform's URIs are platform:// and its prompt names have no '__', so nothing collides.
 * Each request to a connected server goes through decideConnectionFeature (the connection's
 * '<slug>:resources/*' or '<slug>:prompts/*' permission) and writes one usage record, like a tool
 * call. Lists leave out a connection whose feature is disabled, and one that fails (logged, with
 * success false); reads and gets of it are errors that say why. Completions of a connection's
 * prompt or template arguments go to its server too.
 */

export interface PassThroughOptions {
  triggeredBy: TriggeredBy
  /** Per-request time-out of a connected server (ms). */
  timeoutMs?: number
}

const DEFAULT_TIMEOUT_MS = 15_000
const PLATFORM_PAGE_SIZE = 50
/** At most this many items of one connection's list page, and pages of its short lists. */
const MAX_ITEMS_PER_PAGE = 500
const MAX_LIST_PAGES = 5
const MAX_URI_LENGTH = 4096
const MAX_UPSTREAM_CURSOR = 1000

interface Source {
  connection: ConnectionWithTools
  /** 'custom-mcp' or 'custom-mcp@1a2b3c4d': what messages and the usage log name it. */
  prefix: string
  /** Before a prompt's or template's name: 'custom-mcp__'. */
  namePrefix: string
  /** Before a resource's URI: 'custom-mcp+'. */
  uriPrefix: string
}

async function sources(ctx: ServiceContext): Promise<Source[]> {
  const [connections, subset] = await Promise.all([
    listActiveConnectionsWithTools(ctx),
    callerToolSubset(ctx),
  ])
  const prefixes = connectionPrefixes(connections)
  return connections
    .filter((c) => c.connection_type === 'mcp' && c.mcp_server_url && connectionInSubset(subset, c.id))
    .map((connection) => {
      const prefix = prefixes.get(connection.id)!
      return {
        connection,
        prefix,
        namePrefix: `${prefix.replace('@', '_')}__`,
        uriPrefix: `${prefix.replace('@', '.')}+`,
      }
    })
}

/** The source whose prefix starts `value` (the longest, should one prefix start another). */
function sourceOf(all: Source[], value: string, key: 'namePrefix' | 'uriPrefix'): Source | undefined {
  return all
    .filter((s) => value.startsWith(s[key]) && value.length > s[key].length)
    .sort((x, y) => y[key].length - x[key].length)[0]
}

function decide(ctx: ServiceContext, source: Source, feature: ConnectionFeature) {
  return ctx.asTenant((tx) =>
    decideConnectionFeature(tx, {
      tenantId: ctx.caller.tenantId,
      connectionId: source.connection.id,
      feature,
    }),
  )
}

/**
 * One request to a connected server: the permission, the connection's credential, the request,
 * one usage record. A refusal is INSUFFICIENT_PERMISSIONS; the server's failures are MCP errors
 * that name the connection: unreachable, refused credentials or a time-out -32603, its own error
 * answers with their code when it is the caller's (-32602, -32002), else -32603.
 */
async function request<T>(
  ctx: ServiceContext,
  source: Source,
  feature: ConnectionFeature,
  method: string,
  opts: PassThroughOptions,
  run: (client: Client, options: { timeout: number; signal: AbortSignal }) => Promise<T>,
): Promise<T> {
  const connection = source.connection
  const started = performance.now()
  const log = (success: boolean) =>
    recordToolCall(ctx, {
      integrationId: connection.integration_id,
      connectionId: connection.id,
      toolName: `${connection.integration_slug}:${method}`,
      action: method.endsWith('/list') ? 'discover' : 'read',
      triggeredBy: opts.triggeredBy,
      userId: ctx.caller.userId,
      success,
      responseTimeMs: performance.now() - started,
    })
  const decision = await decide(ctx, source, feature)
  if (!decision.allowed) {
    await log(false)
    throw new ServiceError('INSUFFICIENT_PERMISSIONS', `${source.prefix}: ${decision.reason}`)
  }
  // What the server answers (contents, messages, errors) may echo the request it got: the
  // credential and its own address are removed from it.
  const redactor = new Redactor().addUrl(connection.mcp_server_url)
  const message = (text: string) => redactor.text(text).slice(0, 500)
  try {
    const { token } = await connectionToken(ctx, connection.id)
    redactor.add(token)
    const result = await requestMcp(
      ctx,
      {
        url: connection.mcp_server_url!,
        transport: connection.mcp_transport ?? 'streamable_http',
        authType: connection.mcp_auth_type ?? 'bearer',
        token,
        timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      },
      run,
    )
    await log(true)
    // Lists name what can be asked for (URIs, names), which may rightly hold the server's address.
    return method.endsWith('/list') ? result : redactor.value(result)
  } catch (err) {
    await log(false)
    if (err instanceof McpConnectError)
      throw new McpError(ErrorCode.InternalError, message(`${source.prefix}: ${err.message}`))
    if (err instanceof McpRequestError) {
      const callers = [ErrorCode.InvalidParams, RESOURCE_NOT_FOUND] as number[]
      throw new McpError(
        callers.includes(err.code) ? err.code : ErrorCode.InternalError,
        message(`${source.prefix}: the MCP server answered: ${err.message}`),
      )
    }
    throw err
  }
}

/** MCP's code for a resource that does not exist. */
const RESOURCE_NOT_FOUND = -32002

/** A list request to every source whose feature is allowed; failing sources are left out. */
async function gather<T>(
  ctx: ServiceContext,
  feature: ConnectionFeature,
  method: string,
  opts: PassThroughOptions,
  list: (source: Source, client: Client, options: { timeout: number; signal: AbortSignal }) => Promise<T[]>,
): Promise<T[]> {
  const out: T[] = []
  for (const source of await sources(ctx)) {
    if (!(await decide(ctx, source, feature)).allowed) continue
    try {
      out.push(...(await request(ctx, source, feature, method, opts, (c, o) => list(source, c, o))))
    } catch (err) {
      if (!(err instanceof McpError)) throw err
      ctx.logger.warn('connected MCP server left out of a list', {
        connection_id: source.connection.id,
        method,
        error: err.message,
      })
    }
  }
  return out
}

/** Follows a short list's cursor (prompts, templates) for a few pages. */
async function allPages<T>(
  page: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string }>,
): Promise<T[]> {
  const out: T[] = []
  let cursor: string | undefined
  for (let i = 0; i < MAX_LIST_PAGES && out.length < MAX_ITEMS_PER_PAGE; i++) {
    const res = await page(cursor)
    out.push(...res.items)
    cursor = res.nextCursor
    if (!cursor) break
  }
  return out.slice(0, MAX_ITEMS_PER_PAGE)
}

// ---------------------------------------------------------------------------------------------
// Resources

/**
 * resources/list's cursor: the platform's feed cursor while its content lasts, then a position
 * among the connections, 'conn.' + base64url of {c: connection id, u?: the server's cursor}.
 */
const CONNECTION_CURSOR = 'conn.'
const connectionCursor = z.object({ c: z.uuid(), u: z.string().max(MAX_UPSTREAM_CURSOR).optional() }).strict()

function encodeConnectionCursor(connectionId: string, upstream?: string): string {
  const json = JSON.stringify({ c: connectionId, ...(upstream && { u: upstream }) })
  const b64 = btoa(String.fromCharCode(...new TextEncoder().encode(json)))
  return CONNECTION_CURSOR + b64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

function decodeConnectionCursor(cursor: string): z.infer<typeof connectionCursor> {
  try {
    const b64 = cursor.slice(CONNECTION_CURSOR.length).replace(/-/g, '+').replace(/_/g, '/')
    const bytes = Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0))
    return connectionCursor.parse(JSON.parse(new TextDecoder().decode(bytes)))
  } catch {
    throw new ServiceError('VALIDATION_ERROR', 'Invalid cursor')
  }
}

const prefixedResource = (source: Source, r: Record<string, unknown>) => ({
  ...r,
  uri: `${source.uriPrefix}${String(r.uri)}`,
  name: `${source.namePrefix}${String(r.name)}`,
})

/**
 * resources/list: the platform's content first (with content:read), then each connection's
 * resources, page by page. A page ends where a source has more to give or once it holds 50 items.
 */
export async function listAllResources(
  ctx: ServiceContext,
  scopes: string[],
  cursor: string | undefined,
  opts: PassThroughOptions,
): Promise<{ resources: Record<string, unknown>[]; nextCursor?: string }> {
  const resources: Record<string, unknown>[] = []
  const at = cursor?.startsWith(CONNECTION_CURSOR) ? decodeConnectionCursor(cursor) : undefined
  if (!at && scopes.includes(READ_SCOPE)) {
    const page = await listResources(ctx, scopes, cursor)
    if (page.nextCursor) return page
    resources.push(...page.resources)
  } else if (!at && cursor) {
    throw new ServiceError('VALIDATION_ERROR', 'Invalid cursor')
  }
  const all = await sources(ctx)
  let start = 0
  let upstreamCursor = at?.u
  if (at) {
    start = all.findIndex((s) => s.connection.id === at.c)
    // The connection is gone (or is another tenant's): the position means nothing any more.
    if (start < 0) throw new ServiceError('VALIDATION_ERROR', 'Invalid cursor')
  }
  for (let i = start; i < all.length; i++) {
    const source = all[i]!
    if (resources.length >= PLATFORM_PAGE_SIZE)
      return { resources, nextCursor: encodeConnectionCursor(source.connection.id) }
    const after = upstreamCursor
    upstreamCursor = undefined
    if (!(await decide(ctx, source, 'resources')).allowed) continue
    let page: { resources: Record<string, unknown>[]; nextCursor?: string }
    try {
      page = await request(ctx, source, 'resources', 'resources/list', opts, async (client, o) =>
        client.getServerCapabilities()?.resources
          ? await client.listResources(after ? { cursor: after } : undefined, o)
          : { resources: [] },
      )
    } catch (err) {
      if (!(err instanceof McpError)) throw err
      ctx.logger.warn('connected MCP server left out of resources/list', {
        connection_id: source.connection.id,
        error: err.message,
      })
      continue
    }
    resources.push(...page.resources.slice(0, MAX_ITEMS_PER_PAGE).map((r) => prefixedResource(source, r)))
    if (page.nextCursor && page.nextCursor.length <= MAX_UPSTREAM_CURSOR)
      return { resources, nextCursor: encodeConnectionCursor(source.connection.id, page.nextCursor) }
  }
  return { resources }
}

/** resources/templates/list: the platform's two, then each connection's, prefixed. */
export async function listAllResourceTemplates(ctx: ServiceContext, opts: PassThroughOptions) {
  const passed = await gather(ctx, 'resources', 'resources/templates/list', opts, (source, client, o) =>
    client.getServerCapabilities()?.resources
      ? allPages(async (cursor) => {
          const res = await client.listResourceTemplates(cursor ? { cursor } : undefined, o)
          return { items: res.resourceTemplates, nextCursor: res.nextCursor }
        }).then((templates) =>
          templates.map((t) => ({
            ...t,
            uriTemplate: `${source.uriPrefix}${t.uriTemplate}`,
            name: `${source.namePrefix}${t.name}`,
          })),
        )
      : Promise.resolve([]),
  )
  return { resourceTemplates: [...platformTemplates, ...passed] }
}

/** Content blocks that name a resource carry the server's URI: give them the prefixed one. */
function prefixUris(source: Source, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => prefixUris(source, v))
  if (!value || typeof value !== 'object') return value
  const block = value as Record<string, unknown>
  if (block.type === 'resource' && block.resource && typeof block.resource === 'object') {
    const resource = block.resource as Record<string, unknown>
    return { ...block, resource: { ...resource, uri: `${source.uriPrefix}${String(resource.uri)}` } }
  }
  if (block.type === 'resource_link' && typeof block.uri === 'string')
    return { ...block, uri: `${source.uriPrefix}${block.uri}` }
  return block
}

/** resources/read: platform:// from the platform, '<prefix>+…' from that connection's server. */
export async function readAnyResource(
  ctx: ServiceContext,
  scopes: string[],
  uri: string,
  opts: PassThroughOptions,
) {
  if (uri.startsWith('platform://') || uri.length > MAX_URI_LENGTH) return readResource(ctx, scopes, uri)
  const source = sourceOf(await sources(ctx), uri, 'uriPrefix')
  if (!source) throw new ServiceError('NOT_FOUND', `No resource ${uri.slice(0, 200)}`)
  const upstreamUri = uri.slice(source.uriPrefix.length)
  const result = await request(ctx, source, 'resources', 'resources/read', opts, (client, o) =>
    client.readResource({ uri: upstreamUri }, o),
  )
  return {
    ...result,
    contents: result.contents.map((c) => ({ ...c, uri: `${source.uriPrefix}${c.uri}` })),
  }
}

// ---------------------------------------------------------------------------------------------
// Prompts

/** prompts/list: the platform's prompts, then each connection's, prefixed. */
export async function listAllPrompts(ctx: ServiceContext, opts: PassThroughOptions) {
  const passed = await gather(ctx, 'prompts', 'prompts/list', opts, (source, client, o) =>
    client.getServerCapabilities()?.prompts
      ? allPages(async (cursor) => {
          const res = await client.listPrompts(cursor ? { cursor } : undefined, o)
          return { items: res.prompts, nextCursor: res.nextCursor }
        }).then((list) => list.map((p) => ({ ...p, name: `${source.namePrefix}${p.name}` })))
      : Promise.resolve([]),
  )
  return { prompts: [...platformPrompts, ...passed] }
}

/** prompts/get: the platform's by name, '<prefix>__…' from that connection's server. */
export async function getAnyPrompt(
  ctx: ServiceContext,
  scopes: string[],
  name: string,
  args: Record<string, string> | undefined,
  opts: PassThroughOptions,
) {
  if (platformPrompts.some((p) => p.name === name)) return getPrompt(ctx, scopes, name, args)
  const source = sourceOf(await sources(ctx), name, 'namePrefix')
  if (!source) throw new ServiceError('NOT_FOUND', `No prompt named ${name.slice(0, 200)}`)
  const upstreamName = name.slice(source.namePrefix.length)
  const result = await request(ctx, source, 'prompts', 'prompts/get', opts, (client, o) =>
    client.getPrompt({ name: upstreamName, ...(args && { arguments: args }) }, o),
  )
  return {
    ...result,
    messages: result.messages.map((m) => ({ ...m, content: prefixUris(source, m.content) })),
  }
}

// ---------------------------------------------------------------------------------------------
// Completions

/**
 * completion/complete: a connection's prompt ('<prefix>__…') or template ('<prefix>+…') is
 * completed by its server (the feature's permission, one usage record); the rest by the platform.
 * A server that offers no completions completes nothing.
 */
export async function completeAny(
  ctx: ServiceContext,
  scopes: string[],
  params: {
    ref: { type: string; name?: string; uri?: string }
    argument: { name: string; value: string }
    context?: { arguments?: Record<string, string> }
  },
  opts: PassThroughOptions,
) {
  const { ref } = params
  const prompt = ref.type === 'ref/prompt' && typeof ref.name === 'string'
  const template = ref.type === 'ref/resource' && typeof ref.uri === 'string'
  const own = prompt
    ? platformPrompts.some((p) => p.name === ref.name)
    : template && ref.uri!.startsWith('platform://')
  const source =
    !own && (prompt || template)
      ? sourceOf(await sources(ctx), prompt ? ref.name! : ref.uri!, prompt ? 'namePrefix' : 'uriPrefix')
      : undefined
  if (!source) return complete(ctx, scopes, ref, params.argument)
  const upstreamRef = prompt
    ? { type: 'ref/prompt' as const, name: ref.name!.slice(source.namePrefix.length) }
    : { type: 'ref/resource' as const, uri: ref.uri!.slice(source.uriPrefix.length) }
  return request(ctx, source, prompt ? 'prompts' : 'resources', 'completion/complete', opts, (client, o) =>
    client.getServerCapabilities()?.completions
      ? client.complete(
          {
            ref: upstreamRef,
            argument: params.argument,
            ...(params.context && { context: params.context }),
          },
          o,
        )
      : Promise.resolve({ completion: { values: [], hasMore: false } }),
  )
}
