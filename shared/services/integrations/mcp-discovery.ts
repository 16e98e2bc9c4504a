import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js'
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import { McpError } from '@modelcontextprotocol/sdk/types.js'
import type { DepsWithoutDatabase } from '@shared/infra/deps.ts'
import {
  assertPublicUrl,
  describeNetworkFailure,
  OutboundBlockedError,
  OutboundError,
  type OutboundPolicy,
  outboundPolicyFrom,
} from '@shared/infra/outbound.ts'
import { toolAlias } from './catalog.ts'

/**
 * MCP client side: connect to a tenant's MCP server with the SDK client (Streamable HTTP first,
 * the older SSE transport as fallback), authenticate as the connection says, and list its tools.
 */

/** 'oauth': an access token from the server's own authorization server (mcp-auth.ts), sent as Bearer. */
export type McpAuthType = 'bearer' | 'api_key' | 'none' | 'oauth'
export type McpTransportKind = 'streamable_http' | 'sse'

export interface DiscoveredTool {
  /** '<integration_slug>:<tool_name>' */
  name: string
  alias: string
  description: string
  inputSchema: Record<string, unknown>
}

export class McpConnectError extends Error {
  override name = 'McpConnectError'
  constructor(
    readonly reason: 'blocked' | 'unreachable' | 'unauthorized' | 'not_mcp' | 'timeout',
    message: string,
  ) {
    super(message)
  }
}

const MAX_TOOLS = 500
const MAX_PAGES = 20
const MAX_SCHEMA_BYTES = 64 * 1024
const MAX_STREAM_BYTES = 4 * 1024 * 1024
const DISCOVERY_TIMEOUT_MS = 15_000
// A GET stream's own ceiling; the session's deadline (at most a tool call's time-out) ends it sooner.
const STREAM_TIMEOUT_MS = 60 * 60_000
const TOOL_NAME = /^[A-Za-z0-9_./-]{1,128}$/

function authHeaders(authType: McpAuthType, token: string): Record<string, string> {
  if (authType === 'none') return {}
  return authType === 'api_key' ? { 'x-api-key': token } : { authorization: `Bearer ${token}` }
}

function outboundPolicy(deps: DepsWithoutDatabase): OutboundPolicy {
  return outboundPolicyFrom(deps.config)
}

/**
 * The transports' fetch: the guarded one for every request, so each connection is pinned to a
 * checked address. Requests that answer and end (POSTs, DELETEs) are buffered; long-lived SSE
 * streams (GET) are handed over as a stream under a byte cap, not redirected, and bounded in time
 * by the session's deadline.
 */
function mcpFetch(deps: DepsWithoutDatabase, deadline: AbortSignal) {
  return async (url: string | URL, init: RequestInit = {}): Promise<Response> => {
    const signal = init.signal ? AbortSignal.any([init.signal, deadline]) : deadline
    if ((init.method ?? 'GET').toUpperCase() !== 'GET') {
      return deps.fetch(url, { ...init, signal, timeoutMs: DISCOVERY_TIMEOUT_MS })
    }
    return deps.fetch(url, {
      ...init,
      signal,
      redirect: 'manual',
      stream: true,
      maxResponseBytes: MAX_STREAM_BYTES,
      timeoutMs: STREAM_TIMEOUT_MS,
    })
  }
}

function causes(err: unknown): unknown[] {
  const out: unknown[] = []
  let at: unknown = err
  for (let i = 0; at && i < 6; i++) {
    out.push(at)
    at = (at as { cause?: unknown; event?: unknown }).cause
  }
  return out
}

/** The HTTP status an SDK error carries (StreamableHTTPError.code, SseError.code), if any. */
function statusOf(err: unknown): number | undefined {
  for (const e of causes(err)) {
    const code = (e as { code?: unknown })?.code
    if (typeof code === 'number' && code >= 100 && code < 600) return code
  }
  return undefined
}

function classify(err: unknown, transport: McpTransportKind): McpConnectError {
  const chain = causes(err)
  const blocked = chain.find((e) => e instanceof OutboundBlockedError) as OutboundBlockedError | undefined
  if (blocked) return new McpConnectError('blocked', `the server address is refused: ${blocked.reason}`)
  const status = statusOf(err)
  if (status === 401 || status === 403)
    return new McpConnectError('unauthorized', `the MCP server refused the credentials (HTTP ${status})`)
  const outbound = chain.find((e) => e instanceof OutboundError) as OutboundError | undefined
  if (
    outbound?.kind === 'timeout' ||
    chain.some((e) => e instanceof Error && /timed? ?out/i.test(e.message))
  ) {
    return new McpConnectError(
      'timeout',
      `the MCP server did not answer in time${outbound?.kind === 'timeout' ? `: ${outbound.message}` : ''}`,
    )
  }
  if (outbound)
    return new McpConnectError('unreachable', `the MCP server is unreachable: ${outbound.message}`)
  const failedFetch = chain.find((e) => e instanceof TypeError && /fetch failed/i.test(e.message))
  if (failedFetch) {
    return new McpConnectError(
      'unreachable',
      `the MCP server is unreachable: ${describeNetworkFailure(failedFetch, 'the server')}`,
    )
  }
  if (status !== undefined)
    return new McpConnectError('not_mcp', `not an MCP endpoint (${transport} answered HTTP ${status})`)
  return new McpConnectError('not_mcp', `not an MCP endpoint (${transport} handshake failed)`)
}

async function withDeadline<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) throw new OutboundError('timeout', 'MCP discovery timed out')
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new OutboundError('timeout', 'MCP discovery timed out'))
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}

async function listWith(transport: Transport, deadline: AbortSignal): Promise<unknown[]> {
  const client = new Client({ name: 'tenant-platform-integrations', version: '1.0.0' })
  try {
    await withDeadline(
      client.connect(transport, { timeout: DISCOVERY_TIMEOUT_MS, signal: deadline }),
      deadline,
    )
    const tools: unknown[] = []
    let cursor: string | undefined
    for (let page = 0; page < MAX_PAGES && tools.length < MAX_TOOLS; page++) {
      const res = await withDeadline(
        client.listTools(cursor ? { cursor } : undefined, {
          timeout: DISCOVERY_TIMEOUT_MS,
          signal: deadline,
        }),
        deadline,
      )
      tools.push(...res.tools)
      cursor = res.nextCursor
      if (!cursor) break
    }
    return tools.slice(0, MAX_TOOLS)
  } finally {
    await client.close().catch(() => {})
  }
}

/** Keeps well-formed tools only, named '<slug>:<tool>' with their alias. */
function normaliseTools(slug: string, raw: unknown[]): DiscoveredTool[] {
  const out: DiscoveredTool[] = []
  const seen = new Set<string>()
  for (const t of raw) {
    const tool = t as { name?: unknown; description?: unknown; inputSchema?: unknown }
    if (typeof tool.name !== 'string' || !TOOL_NAME.test(tool.name)) continue
    const schema =
      tool.inputSchema && typeof tool.inputSchema === 'object'
        ? (tool.inputSchema as Record<string, unknown>)
        : { type: 'object' }
    if (JSON.stringify(schema).length > MAX_SCHEMA_BYTES) continue
    const name = `${slug}:${tool.name}`
    const alias = toolAlias(name)
    if (seen.has(name) || seen.has(`alias:${alias}`)) continue
    seen.add(name)
    seen.add(`alias:${alias}`)
    out.push({
      name,
      alias,
      description: typeof tool.description === 'string' ? tool.description.slice(0, 4000) : '',
      inputSchema: schema,
    })
  }
  return out
}

/**
 * Connects and lists the server's tools. Streamable HTTP first; when the endpoint answers like a
 * server without it (400/404/405, or not an MCP response), the SSE transport. Refused
 * credentials, unreachable servers and time-outs end the attempt at once.
 */
export async function discoverMcpTools(
  deps: DepsWithoutDatabase,
  input: { slug: string; url: string; authType: McpAuthType; token: string },
): Promise<{ transport: McpTransportKind; tools: DiscoveredTool[] }> {
  let url: URL
  try {
    url = await assertPublicUrl(input.url, outboundPolicy(deps))
  } catch (err) {
    if (err instanceof OutboundBlockedError)
      throw new McpConnectError('blocked', `the server address is refused: ${err.reason}`)
    throw new McpConnectError('unreachable', 'the MCP server address does not resolve')
  }
  const deadline = AbortSignal.timeout(DISCOVERY_TIMEOUT_MS)
  const fetchImpl = mcpFetch(deps, deadline)
  const headers = authHeaders(input.authType, input.token)

  let first: McpConnectError
  try {
    const transport = new StreamableHTTPClientTransport(url, { fetch: fetchImpl, requestInit: { headers } })
    const tools = await listWith(transport, deadline)
    return { transport: 'streamable_http', tools: normaliseTools(input.slug, tools) }
  } catch (err) {
    first = classify(err, 'streamable_http')
    const status = statusOf(err)
    const fallback =
      first.reason === 'not_mcp' &&
      (status === undefined ||
        [400, 404, 405, 406, 415].includes(status) ||
        err instanceof StreamableHTTPError)
    if (!fallback) throw first
  }
  try {
    const transport = new SSEClientTransport(url, { fetch: fetchImpl, requestInit: { headers } })
    const tools = await listWith(transport, deadline)
    return { transport: 'sse', tools: normaliseTools(input.slug, tools) }
  } catch (err) {
    const second = classify(err, 'sse')
    // Neither transport spoke MCP: report the first answer, which is the one for the modern transport.
    throw second.reason === 'not_mcp' ? first : second
  }
}

/**
 * Calls one tool on a connected MCP server with the SDK client: the stored transport and auth, one
 * deadline for connect and call. `onListChanged` fires when the server announces, during the
 * exchange, that its tool list changed. Failures to reach or speak MCP throw McpConnectError; a
 * JSON-RPC error from the server's tools/call throws McpToolError with its message.
 */
export class McpToolError extends Error {
  override name = 'McpToolError'
}

/**
 * The tool server's session with a connected MCP server: its stored transport and auth, through
 * the guarded fetch, under one deadline for connect and request. Connect failures are classified
 * (McpConnectError) and close the client; otherwise the caller closes it.
 */
async function openSession(
  deps: DepsWithoutDatabase,
  input: {
    url: string
    transport: McpTransportKind
    authType: McpAuthType
    token: string
    timeoutMs: number
  },
  configure?: (client: Client) => void,
): Promise<{ client: Client; deadline: AbortSignal }> {
  const deadline = AbortSignal.timeout(input.timeoutMs)
  const fetchImpl = mcpFetch(deps, deadline)
  const requestInit = { headers: authHeaders(input.authType, input.token) }
  const url = new URL(input.url)
  const transport =
    input.transport === 'sse'
      ? new SSEClientTransport(url, { fetch: fetchImpl, requestInit })
      : new StreamableHTTPClientTransport(url, { fetch: fetchImpl, requestInit })
  const client = new Client({ name: 'tenant-platform-tool-server', version: '1.0.0' })
  configure?.(client)
  try {
    await withDeadline(client.connect(transport, { timeout: input.timeoutMs, signal: deadline }), deadline)
  } catch (err) {
    await client.close().catch(() => {})
    throw classify(err, input.transport)
  }
  return { client, deadline }
}

export async function callMcpTool(
  deps: DepsWithoutDatabase,
  input: {
    url: string
    transport: McpTransportKind
    authType: McpAuthType
    token: string
    tool: string
    arguments: Record<string, unknown>
    timeoutMs: number
    onListChanged?: () => void
    /**
     * The server's progress notifications for this call (asking for them sends a progressToken)
     * and its log messages (notifications/message) while the call runs.
     */
    onProgress?: (progress: { progress: number; total?: number; message?: string }) => void
    onLog?: (log: { level: string; logger?: string; data?: unknown }) => void
  },
): Promise<{ content: unknown[]; isError?: boolean; structuredContent?: unknown }> {
  const { client, deadline } = await openSession(deps, input, (client) => {
    const { onListChanged, onLog } = input
    if (!onListChanged && !onLog) return
    client.fallbackNotificationHandler = async (n: { method: string; params?: unknown }) => {
      if (n.method === 'notifications/tools/list_changed') onListChanged?.()
      if (n.method === 'notifications/message' && onLog && n.params && typeof n.params === 'object')
        onLog(n.params as { level: string; logger?: string; data?: unknown })
    }
  })
  try {
    let result: Awaited<ReturnType<Client['callTool']>>
    try {
      const onProgress = input.onProgress
      result = await withDeadline(
        client.callTool({ name: input.tool, arguments: input.arguments }, undefined, {
          timeout: input.timeoutMs,
          signal: deadline,
          ...(onProgress && {
            onprogress: (p: { progress: number; total?: number; message?: string }) =>
              onProgress({
                progress: p.progress,
                ...(p.total !== undefined && { total: p.total }),
                ...(p.message !== undefined && { message: p.message }),
              }),
          }),
        }),
        deadline,
      )
    } catch (err) {
      const classified = classify(err, input.transport)
      if (classified.reason !== 'not_mcp') throw classified
      const message = err instanceof Error ? err.message : 'the MCP server answered with an error'
      throw new McpToolError(message.slice(0, 500))
    }
    return result as { content: unknown[]; isError?: boolean; structuredContent?: unknown }
  } finally {
    await client.close().catch(() => {})
  }
}

/**
 * A JSON-RPC error answer of a connected MCP server to a request other than tools/call (the
 * server's own code and message, without the SDK's "MCP error <code>: " prefix).
 */
export class McpRequestError extends Error {
  override name = 'McpRequestError'
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message)
  }
}

export interface McpSessionInput {
  url: string
  transport: McpTransportKind
  authType: McpAuthType
  token: string
  timeoutMs: number
}

/**
 * Connects to a connected MCP server as callMcpTool does (stored transport and auth, one deadline
 * for connect and request) and runs one request with the connected client. Failures to reach or
 * speak MCP throw McpConnectError; a JSON-RPC error answer throws McpRequestError.
 */
export async function requestMcp<T>(
  deps: DepsWithoutDatabase,
  input: McpSessionInput,
  run: (client: Client, options: { timeout: number; signal: AbortSignal }) => Promise<T>,
): Promise<T> {
  const { client, deadline } = await openSession(deps, input)
  try {
    try {
      return await withDeadline(run(client, { timeout: input.timeoutMs, signal: deadline }), deadline)
    } catch (err) {
      const classified = classify(err, input.transport)
      if (classified.reason !== 'not_mcp' || statusOf(err) !== undefined) throw classified
      if (err instanceof McpError) {
        // The SDK prefixes "MCP error <code>: " on each side: the server's message may carry one too.
        const message = err.message.replace(/^(MCP error -?\d+: )+/, '')
        throw new McpRequestError(err.code, message.slice(0, 500))
      }
      throw new McpRequestError(-32603, 'the MCP server answered with something that is not MCP')
    }
  } finally {
    await client.close().catch(() => {})
  }
}
