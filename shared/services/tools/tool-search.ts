import { z } from '@hono/zod-openapi'
import type { ServiceContext } from '@shared/infra/deps.ts'
import { ServiceError } from '@shared/infra/errors.ts'
import { type CallOptions, callTool, listTools, type ToolEntry, type ToolOutcome } from './tool-set.ts'

/**
 * Tool search (docs/mcp.md "Tool search", ADR 0043). A tool-server key or an MCP OAuth grant with
 * `tool_listing: 'search'` is offered two tools instead of every tool it may call: `search_tools`
 * finds tools by name, integration and description, and `call_tool` calls one by name. Both run
 * through the same listTools / callTool as a direct call, so the tool subset, the scopes, the
 * connections' permissions and the usage log apply exactly as they do there; a tool found by
 * search may also be called directly by its name.
 */
export const SEARCH_TOOLS = 'search_tools'
export const CALL_TOOL = 'call_tool'

const searchToolsArgs = z
  .object({
    query: z.string().max(200).optional(),
    integration: z
      .string()
      .max(64)
      .regex(/^[a-z0-9-]+$/)
      .optional(),
    limit: z.number().int().min(1).max(50).default(10),
  })
  .strict()

const callToolArgs = z
  .object({
    name: z.string().min(1).max(200),
    arguments: z.record(z.string(), z.unknown()).default({}),
  })
  .strict()

type ObjectSchema = { type: 'object' } & Record<string, unknown>

/** The two tools a searching client is offered, in MCP's tools/list form. */
export const searchListing: {
  name: string
  title: string
  description: string
  inputSchema: ObjectSchema
  annotations?: { readOnlyHint: boolean; openWorldHint: boolean }
}[] = [
  {
    name: SEARCH_TOOLS,
    title: 'Search tools',
    description:
      "Finds the tools you can call: words matched against each tool's name, integration and description (all words must match), optionally only one integration's (slug, e.g. slack or platform). Returns each tool's name, description and inputSchema; call one with call_tool.",
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', maxLength: 200, description: 'words to look for, e.g. "post message"' },
        integration: { type: 'string', maxLength: 64, description: 'only this integration, e.g. slack' },
        limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
      },
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: CALL_TOOL,
    title: 'Call a tool',
    description:
      'Calls a tool found with search_tools: its name and its arguments (as its inputSchema says). Answers as the tool does.',
    inputSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', maxLength: 200, description: 'the tool name search_tools gave' },
        arguments: { type: 'object', description: "the tool's arguments" },
      },
      required: ['name'],
      additionalProperties: false,
    },
  },
]

/** The integration a tool belongs to: its connection's slug, or 'platform'. */
const integrationOf = (t: ToolEntry) => t.connection?.integration_slug ?? 'platform'

/**
 * Matches tools: every word of the query must occur in the tool's names, integration or
 * description (case-insensitive); tools whose name holds more of the words come first. A few
 * hundred tools at most, so a scan is enough.
 */
function searchTools(tools: ToolEntry[], args: z.output<typeof searchToolsArgs>) {
  const words = (args.query ?? '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
  const scored: { tool: ToolEntry; score: number }[] = []
  for (const tool of tools) {
    if (args.integration && integrationOf(tool) !== args.integration) continue
    const name = `${tool.name} ${tool.mcpName}`.toLowerCase()
    const text = `${name} ${integrationOf(tool)} ${tool.description}`.toLowerCase()
    if (!words.every((w) => text.includes(w))) continue
    scored.push({ tool, score: words.filter((w) => name.includes(w)).length })
  }
  scored.sort((a, b) => b.score - a.score)
  return {
    total: scored.length,
    tools: scored.slice(0, args.limit).map(({ tool }) => ({
      name: tool.mcpName,
      integration: integrationOf(tool),
      description: tool.description,
      inputSchema: tool.inputSchema,
    })),
  }
}

const invalid = (tool: string, issues: z.core.$ZodIssue[]): ToolOutcome => ({
  status: 'invalid',
  message: `Invalid arguments for ${tool}`,
  details: issues.map((i) => ({ field: ['params', ...i.path.map(String)].join('.'), message: i.message })),
})

/**
 * A tools/call of the MCP server: search_tools and call_tool, or any tool by its own name. Unknown
 * names throw NOT_FOUND as callTool does; call_tool of an unknown name is a failed call that says
 * where to look.
 */
export async function callOrSearch(
  ctx: ServiceContext,
  name: string,
  args: Record<string, unknown>,
  opts: CallOptions,
): Promise<ToolOutcome> {
  if (name === SEARCH_TOOLS) {
    const parsed = searchToolsArgs.safeParse(args)
    if (!parsed.success) return invalid(SEARCH_TOOLS, parsed.error.issues)
    return { status: 'ok', result: searchTools(await listTools(ctx, opts.scopes), parsed.data) }
  }
  if (name !== CALL_TOOL) return callTool(ctx, name, args, opts)
  const parsed = callToolArgs.safeParse(args)
  if (!parsed.success) return invalid(CALL_TOOL, parsed.error.issues)
  const target = parsed.data.name
  if (target === SEARCH_TOOLS || target === CALL_TOOL)
    return { status: 'failed', message: `call_tool calls the tools search_tools finds, not ${target}` }
  try {
    return await callTool(ctx, target, parsed.data.arguments, opts)
  } catch (err) {
    if (err instanceof ServiceError && err.code === 'NOT_FOUND')
      return { status: 'failed', message: `No tool named ${target}; find tools with search_tools` }
    throw err
  }
}
