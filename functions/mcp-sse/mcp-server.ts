import { McpError } from '@modelcontextprotocol/sdk/types.js'
import {
  type CacheHint,
  createMcpHandler,
  isLegacyRequest,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type ServerNotification,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server'
import { MALFORMED_JSON, ServiceError } from '@shared/infra/errors.ts'
import type { AppEnv } from '@shared/infra/http/app-env.ts'
import { serviceContext } from '@shared/infra/http/define-route.ts'
import { describeError } from '@shared/infra/logger.ts'
import { integrationBySlug } from '@shared/services/integrations/catalog.ts'
import {
  completeAny,
  getAnyPrompt,
  listAllPrompts,
  listAllResources,
  listAllResourceTemplates,
  readAnyResource,
} from '@shared/services/tools/connected-features.ts'
import { callerToolListing } from '@shared/services/tools/tool-listing.ts'
import { CALL_TOOL, callOrSearch, SEARCH_TOOLS, searchListing } from '@shared/services/tools/tool-search.ts'
import { listTools, type NotificationRelay, type ToolOutcome } from '@shared/services/tools/tool-set.ts'
import type { Context } from 'hono'
import { acceptsUrlElicitation, connectionRequired } from './elicitation.ts'
import { answerTaskMessage, withTaskSupport } from './tasks.ts'
import { keyScopes, triggeredBy } from './tool-auth.ts'
import { toolIcons } from './tool-icons.ts'

/**
 * One MCP server per JSON-RPC message, over the official SDK's v2 serving entry
 * (createMcpHandler): a request that carries the 2026-07-28 envelope (`_meta`
 * io.modelcontextprotocol/protocolVersion, the MCP-Protocol-Version header) is served statelessly
 * as that revision, `server/discover` included; anything else goes to the SDK's stateless legacy
 * leg, which negotiates 2025-11-25, 2025-06-18, 2025-03-26 or 2024-11-05 through `initialize`.
 * Nothing is kept between requests, so any instance answers any message. The same function
 * answers POSTs at {mcp_url} and the messages of HTTP+SSE sessions (ADR 0041).
 */

export const SERVER_INFO = { name: 'tenant-platform-tools', version: '1.0.0' }

/**
 * Exactly what is served: tools, the tenant's content and its connected MCP servers' resources
 * (no subscriptions: a stateless server sends no notifications), prompts (the platform's and the
 * connected servers'), completions of their arguments, and logging/setLevel (accepted; the
 * server emits no log messages of its own).
 */
export const SERVER_CAPABILITIES = {
  tools: { listChanged: false },
  resources: { subscribe: false, listChanged: false },
  prompts: { listChanged: false },
  completions: {},
  logging: {},
}

/**
 * MCP's code for a resource that does not exist (resources/read): -32002 before 2026-07-28; the
 * SDK maps it to -32602 on 2026-07-28 requests, as that revision requires.
 */
const RESOURCE_NOT_FOUND = ProtocolErrorCode.ResourceNotFound

/**
 * Cache hints on the 2026-07-28 revision's cacheable results. The lists depend on the tenant's
 * connections and the key's scopes, so they are private to the caller and short-lived: a client may
 * reuse a tools/list for a minute; server/discover (the same for every caller) for an hour.
 */
const CACHE_HINTS: Record<string, CacheHint> = {
  'server/discover': { ttlMs: 3_600_000, cacheScope: 'public' },
  'tools/list': { ttlMs: 60_000, cacheScope: 'private' },
  'prompts/list': { ttlMs: 60_000, cacheScope: 'private' },
  'resources/list': { ttlMs: 60_000, cacheScope: 'private' },
  'resources/templates/list': { ttlMs: 60_000, cacheScope: 'private' },
}

function toCallResult(outcome: ToolOutcome) {
  if (outcome.status === 'ok') {
    if (outcome.mcpResult) return outcome.mcpResult
    const result = outcome.result
    const structured =
      result !== null && typeof result === 'object' && !Array.isArray(result)
        ? { structuredContent: result as Record<string, unknown> }
        : {}
    return { content: [{ type: 'text' as const, text: JSON.stringify(result) }], ...structured }
  }
  if (outcome.status === 'failed' && outcome.mcpResult) return { ...outcome.mcpResult, isError: true }
  const details = outcome.status === 'invalid' ? outcome.details : undefined
  return {
    content: [{ type: 'text' as const, text: outcome.message }],
    isError: true,
    ...(details && { structuredContent: { reason: outcome.status, details } }),
  }
}

function buildServer(c: Context<AppEnv>, opts: { relay: boolean }): Server {
  const ctx = serviceContext(c)
  const scopes = keyScopes(c)
  const by = triggeredBy(c)
  const timeoutMs = c.var.deps.config.MCP_TOOL_TIMEOUT_MS
  const server = new Server(SERVER_INFO, {
    capabilities: SERVER_CAPABILITIES,
    cacheHints: CACHE_HINTS,
    instructions:
      "Tools of the platform and of the tenant's connected integrations (names are <integration>__<tool>); the tenant's sites and articles as platform:// resources; prompts to draft and review articles; the resources (<integration>+<uri>) and prompts (<integration>__<prompt>) of connected MCP servers.",
  })
  const internal = (err: unknown): never => {
    if (err instanceof ProtocolError) throw err
    // The platform's MCP client (v1 SDK) names a connected server's faults with v1's McpError.
    if (err instanceof McpError)
      throw new ProtocolError(err.code, err.message.replace(`MCP error ${err.code}: `, ''), err.data)
    c.var.deps.logger.error('tool server error', { request_id: c.var.requestId, ...describeError(err) })
    throw new ProtocolError(ProtocolErrorCode.InternalError, 'Internal error')
  }
  /** The caller's faults (unknown id, bad argument, missing scope) as JSON-RPC errors; the rest internal. */
  const answer = async <T>(
    run: () => Promise<T>,
    notFoundCode: number = ProtocolErrorCode.InvalidParams,
  ): Promise<T> => {
    try {
      return await run()
    } catch (err) {
      if (err instanceof ServiceError && err.status < 500 && err.code !== 'RATE_LIMITED')
        throw new ProtocolError(
          err.code === 'NOT_FOUND' ? notFoundCode : ProtocolErrorCode.InvalidParams,
          err.message,
        )
      return internal(err)
    }
  }
  const passThrough = { triggeredBy: by, timeoutMs }
  server.setRequestHandler(
    'resources/list',
    (req) => answer(() => listAllResources(ctx, scopes, req.params?.cursor, passThrough)) as never,
  )
  server.setRequestHandler('resources/templates/list', () =>
    answer(() => listAllResourceTemplates(ctx, passThrough)),
  )
  server.setRequestHandler('resources/read', (req) =>
    answer(() => readAnyResource(ctx, scopes, req.params.uri, passThrough), RESOURCE_NOT_FOUND),
  )
  server.setRequestHandler('prompts/list', () => answer(() => listAllPrompts(ctx, passThrough)))
  server.setRequestHandler(
    'prompts/get',
    (req) =>
      answer(() => getAnyPrompt(ctx, scopes, req.params.name, req.params.arguments, passThrough)) as never,
  )
  server.setRequestHandler('completion/complete', (req) =>
    answer(() => completeAny(ctx, scopes, req.params, passThrough)),
  )
  // Stateless: there is no session to keep the level in, and the server sends no log messages.
  server.setRequestHandler('logging/setLevel', async () => ({}))
  server.setRequestHandler('tools/list', async () => {
    try {
      // A key or grant that asked for tool search is offered search_tools and call_tool only.
      if ((await callerToolListing(ctx)) === 'search') return { tools: searchListing }
      const tools = await listTools(ctx, scopes)
      return {
        tools: tools.map((t) => ({
          name: t.mcpName,
          title: t.name,
          description: t.description,
          inputSchema: t.inputSchema as { type: 'object' },
          icons: toolIcons(t.mcpName),
          ...(t.annotations && { annotations: t.annotations }),
        })),
      }
    } catch (err) {
      return internal(err)
    }
  })
  server.setRequestHandler('tools/call', async (req, extra) => {
    // A connected server's notifications during the call, onto this call's response stream
    // (relatedRequestId): progress only for a client that asked for it with a progressToken.
    const progressToken = req.params._meta?.progressToken
    const send = (notification: ServerNotification) => extra.mcpReq.notify(notification).catch(() => {})
    const relay: NotificationRelay | undefined = opts.relay
      ? {
          progress: (p) => {
            if (progressToken !== undefined)
              void send({ method: 'notifications/progress', params: { progressToken, ...p } })
          },
          log: (l) =>
            void send({
              method: 'notifications/message',
              params: { level: logLevel(l.level), ...(l.logger && { logger: l.logger }), data: l.data },
            }),
        }
      : undefined
    try {
      const outcome = await callOrSearch(ctx, req.params.name, req.params.arguments ?? {}, {
        scopes,
        triggeredBy: by,
        timeoutMs,
        ...(relay && { relay }),
      })
      if (outcome.status === 'refused' && outcome.connect)
        return connectionRequired(c, outcome.connect, outcome.message, {
          acceptsUrl: acceptsUrlElicitation(extra.mcpReq.envelope),
          ...(extra.mcpReq.inputResponses && { inputResponses: extra.mcpReq.inputResponses }),
        }) as never
      return toCallResult(outcome) as never
    } catch (err) {
      if (err instanceof ServiceError && err.code === 'NOT_FOUND')
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `Unknown tool: ${req.params.name.slice(0, 200)}`,
        )
      return internal(err)
    }
  })
  return server
}

/** A JSON-RPC error response (HTTP status and body) for messages refused before the SDK sees them. */
function jsonRpcError(status: number, code: number, message: string, id: unknown = null): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } }), {
    status,
    headers: { 'content-type': 'application/json' },
  })
}

/**
 * Parses a POSTed body: not JSON is a parse error (-32700), a batch an invalid request (-32600:
 * the current MCP revision has no batches). Returns the message or the error Response.
 */
export function parseMessage(text: string): { message: unknown } | { error: Response } {
  let message: unknown
  try {
    message = JSON.parse(text)
  } catch {
    return { error: jsonRpcError(400, ProtocolErrorCode.ParseError, `Parse error: ${MALFORMED_JSON}`) }
  }
  if (Array.isArray(message))
    return {
      error: jsonRpcError(
        400,
        ProtocolErrorCode.InvalidRequest,
        'Invalid Request: batches are not supported',
      ),
    }
  if (message === null || typeof message !== 'object' || (message as { jsonrpc?: unknown }).jsonrpc !== '2.0')
    return {
      error: jsonRpcError(
        400,
        ProtocolErrorCode.InvalidRequest,
        'Invalid Request: not a JSON-RPC 2.0 message',
      ),
    }
  return { message }
}

/**
 * The SDK's McpError puts "MCP error <code>: " before its message, and the SDK's client puts it
 * there again ("MCP error -32602: MCP error -32602: Unknown tool"). The code travels in its own
 * field, so an error response's message goes out without it.
 */
function messageOnce(body: string): string {
  if (!body.includes('"error"')) return body
  let parsed: { error?: { code?: unknown; message?: unknown } }
  try {
    parsed = JSON.parse(body)
  } catch {
    return body
  }
  const error = parsed?.error
  if (!error || typeof error.message !== 'string') return body
  const prefix = `MCP error ${error.code}: `
  if (!error.message.startsWith(prefix)) return body
  error.message = error.message.slice(prefix.length)
  return JSON.stringify(parsed)
}

const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const
const logLevel = (level: string): (typeof LOG_LEVELS)[number] =>
  (LOG_LEVELS as readonly string[]).includes(level) ? (level as (typeof LOG_LEVELS)[number]) : 'info'

/**
 * Whether a message is a tools/call that may produce notifications: a tool of an integration that
 * connects as an MCP server (the platform's tools and OAuth-only providers' tools send none). Such
 * a call is answered as a stream when the client accepts one, so that the connected server's
 * progress and log messages reach the client before the result.
 */
function mayNotify(message: unknown): boolean {
  const m = message as { method?: unknown; params?: { name?: unknown } }
  if (m.method !== 'tools/call' || typeof m.params?.name !== 'string') return false
  const inner = (m.params as { arguments?: { name?: unknown } }).arguments?.name
  const name = m.params.name === CALL_TOOL && typeof inner === 'string' ? inner : m.params.name
  if (name === SEARCH_TOOLS) return false
  const slug = (name.includes(':') ? name.split(':')[0]! : name.split('__')[0]!).replace(
    /[@_][0-9a-f]{8}$/,
    '',
  )
  return integrationBySlug(slug)?.connection_types.includes('mcp') ?? false
}

/** The SSE body with each event's JSON-RPC message passed through messageOnce. */
function eventsWithMessageOnce(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  let buffered = ''
  const decoder = new TextDecoder()
  const encoder = new TextEncoder()
  const rewrite = (event: string) =>
    event
      .split('\n')
      .map((line) => (line.startsWith('data: ') ? `data: ${messageOnce(line.slice(6))}` : line))
      .join('\n')
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        buffered += decoder.decode(chunk, { stream: true })
        const events = buffered.split('\n\n')
        buffered = events.pop()!
        for (const e of events) controller.enqueue(encoder.encode(`${rewrite(e)}\n\n`))
      },
      flush(controller) {
        if (buffered) controller.enqueue(encoder.encode(rewrite(buffered)))
      },
    }),
  )
}

/**
 * Handles one JSON-RPC message with a fresh server, through the SDK's serving entry. `request`
 * carries the client's headers (Accept, MCP-Protocol-Version, Mcp-Method); the answer is JSON
 * (200), or 202 for notifications. With `stream` (Streamable HTTP), a tools/call of a connected
 * MCP server's tool is answered as an event stream when the client accepts one: the server's
 * notifications during the call, then the result (the HTTP+SSE transport stores single JSON
 * answers, so it never streams).
 */
export async function handleMessage(
  c: Context<AppEnv>,
  request: Request,
  message: unknown,
  opts: { stream?: boolean } = {},
): Promise<Response> {
  const stream =
    (opts.stream ?? false) &&
    mayNotify(message) &&
    (request.headers.get('accept') ?? '').includes('text/event-stream')
  const build = () => buildServer(c, { relay: stream })
  // The SDK's own stateless legacy leg always answers with an event stream; JSON answers are what
  // the HTTP+SSE transport stores and what clients of the older revisions read most simply, so the
  // legacy leg is wired here, as the SDK documents for isLegacyRequest.
  if (await isLegacyRequest(request, message)) {
    // Tasks (2025-11-25) are answered from the database, before the SDK: tasks.ts.
    const task = await answerTaskMessage(c, message)
    if (task) return task
    const server = build()
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: !stream,
    })
    await server.connect(transport)
    return withTaskSupport(
      message,
      await answer(await transport.handleRequest(request, { parsedBody: message }), stream, () =>
        server.close(),
      ),
    )
  }
  const handler = createMcpHandler(build, {
    legacy: 'reject',
    // JSON unless the handler sends a notification first, which only a relaying tools/call does.
    responseMode: 'auto',
    keepAliveMs: 0,
    onerror: (err) =>
      c.var.deps.logger.warn('mcp: request refused', { request_id: c.var.requestId, error: err.message }),
  })
  return answer(await handler.fetch(request, { parsedBody: message }), stream, () => handler.close())
}

/** The response with error messages said once, closing the server when its body has gone out. */
async function answer(res: Response, stream: boolean, close: () => Promise<void>): Promise<Response> {
  if (stream && res.body && (res.headers.get('content-type') ?? '').includes('text/event-stream')) {
    // The transport ends the stream after the response; the server closes with it.
    const closing = new TransformStream<Uint8Array, Uint8Array>({ flush: () => close().catch(() => {}) })
    return new Response(eventsWithMessageOnce(res.body).pipeThrough(closing), {
      status: res.status,
      headers: res.headers,
    })
  }
  try {
    // Read the body before closing: closing the transport ends its streams.
    const body = messageOnce(await res.text())
    return new Response(body || null, { status: res.status, headers: res.headers })
  } finally {
    await close().catch(() => {})
  }
}
