import { createRoute, z } from '@hono/zod-openapi'
import { type FunctionDeps, serviceContextFor } from '../../shared/infra/deps.ts'
import { ServiceError } from '../../shared/infra/errors.ts'
import { authenticate, tenantCaller } from '../../shared/infra/http/authenticate.ts'
import { createFunctionApp } from '../../shared/infra/http/function-app.ts'
import { errorResponses } from '../../shared/infra/http/openapi.ts'
import { describeTool, platformTools } from '../../shared/services/tools/platform-tools.ts'

export const functionName = 'mcp-sse'

const toolSchema = z
  .object({ name: z.string(), description: z.string(), inputSchema: z.record(z.string(), z.unknown()) })
  .openapi('Tool')

const security = [{ toolKey: [] }]

const listRoute = createRoute({
  method: 'get',
  path: '/tools/list',
  summary: 'The tools available to this key',
  security,
  responses: {
    200: {
      description: 'Tools',
      content: { 'application/json': { schema: z.object({ tools: z.array(toolSchema) }) } },
    },
    ...errorResponses(401, 429),
  },
})

const executeBody = z
  .object({
    tool: z.string().min(1).max(200).openapi({ example: 'platform:list_content' }),
    params: z.record(z.string(), z.unknown()).default({}),
  })
  .strict()

const executeRoute = createRoute({
  method: 'post',
  path: '/tools/execute',
  summary: 'Execute a tool',
  security,
  request: { body: { content: { 'application/json': { schema: executeBody } }, required: true } },
  responses: {
    200: {
      description: 'The tool result',
      content: { 'application/json': { schema: z.object({ tool: z.string(), result: z.unknown() }) } },
    },
    ...errorResponses(400, 401, 403, 404, 429),
  },
})

/**
 * The tool server at {mcp_url}: tool-server keys (X-API-Key: mcp_live_/mcp_dev_/srv_) at
 * 100 requests per minute. A key sees the tools whose scope it holds.
 */
export function createApp(deps: FunctionDeps) {
  const app = createFunctionApp(functionName, deps, 'Tool server for agents')
  app.use('/tools/*', authenticate({ allow: ['tool_key'] }))

  const keyScopes = (c: Parameters<typeof tenantCaller>[0]) => {
    const caller = tenantCaller(c)
    return 'scopes' in caller ? caller.scopes : []
  }

  app.openapi(listRoute, (c) => {
    const scopes = keyScopes(c)
    return c.json({ tools: platformTools.filter((t) => scopes.includes(t.scope)).map(describeTool) }, 200)
  })

  app.openapi(executeRoute, async (c) => {
    const { tool: name, params } = c.req.valid('json')
    const caller = tenantCaller(c)
    const tool = platformTools.find((t) => t.name === name)
    if (!tool) throw new ServiceError('NOT_FOUND', `No tool named ${name}`)
    if (!keyScopes(c).includes(tool.scope)) {
      throw new ServiceError('INSUFFICIENT_PERMISSIONS', `The tool ${name} needs the scope ${tool.scope}`)
    }
    const parsed = tool.params.safeParse(params)
    if (!parsed.success) {
      const details = parsed.error.issues.map((i) => ({
        field: ['params', ...i.path].join('.'),
        message: i.message,
      }))
      throw new ServiceError('VALIDATION_ERROR', `Invalid params for ${name}`, { details })
    }
    return c.json({ tool: name, result: await tool.run(serviceContextFor(deps, caller), parsed.data) }, 200)
  })
  return app
}
