import { checkOrigin, keyScopes, toolAuth, triggeredBy } from '@functions/mcp-sse/tool-auth.ts'
import { z } from '@hono/zod-openapi'
import { ServiceError } from '@shared/infra/errors.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import { callTool } from '@shared/services/tools/tool-set.ts'

const executeBody = z
  .object({
    tool: z.string().min(1).max(200).openapi({ example: 'platform:list_content' }),
    params: z.record(z.string(), z.unknown()).default({}),
  })
  .strict()
  .openapi({ example: { tool: 'platform:list_content', params: { limit: 10 } } })

const executeResult = z.object({ tool: z.string(), result: z.unknown() })

export const route = defineRoute(toolAuth, {
  method: 'post',
  path: '/tools/execute',
  summary: 'Execute a tool',
  description:
    'A refused call (scope, permission, restriction, connection needing re-authorization, integration not connected) is 403; params failing the inputSchema 400; a provider or MCP server that fails 422 UNPROCESSABLE.',
  request: { body: { content: { 'application/json': { schema: executeBody } }, required: true } },
  responses: {
    200: jsonContent(executeResult, 'The tool result'),
    ...errorResponses(400, 401, 403, 404, 413, 422, 429),
  },
})

export const registerExecuteTool = (app: App) =>
  app.openapi(route, async (c) => {
    checkOrigin(c)
    const { tool, params } = c.req.valid('json')
    const outcome = await callTool(serviceContext(c), tool, params, {
      scopes: keyScopes(c),
      triggeredBy: triggeredBy(c),
      timeoutMs: c.var.deps.config.MCP_TOOL_TIMEOUT_MS,
    })
    switch (outcome.status) {
      case 'ok':
        return c.json({ tool, result: outcome.result }, 200)
      case 'refused':
        throw new ServiceError('INSUFFICIENT_PERMISSIONS', outcome.message)
      case 'invalid':
        throw new ServiceError('VALIDATION_ERROR', outcome.message, { details: outcome.details })
      case 'failed':
        throw new ServiceError(outcome.code ?? 'UNPROCESSABLE', outcome.message)
    }
  })
