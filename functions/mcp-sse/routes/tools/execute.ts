import { z } from '@hono/zod-openapi'
import { ServiceError, validationError } from '../../../../shared/infra/errors.ts'
import type { App } from '../../../../shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '../../../../shared/infra/http/define-route.ts'
import { errorResponses, jsonContent } from '../../../../shared/infra/http/openapi.ts'
import { platformTools } from '../../../../shared/services/tools/platform-tools.ts'
import { keyScopes, toolAuth } from './auth.ts'

const executeBody = z
  .object({
    tool: z.string().min(1).max(200).openapi({ example: 'platform:list_content' }),
    params: z.record(z.string(), z.unknown()).default({}),
  })
  .strict()

const executeResult = z.object({ tool: z.string(), result: z.unknown() })

export const route = defineRoute(toolAuth, {
  method: 'post',
  path: '/tools/execute',
  summary: 'Execute a tool',
  request: { body: { content: { 'application/json': { schema: executeBody } }, required: true } },
  responses: {
    200: jsonContent(executeResult, 'The tool result'),
    ...errorResponses(400, 401, 403, 404, 429),
  },
})

export type ExecuteToolResponse = z.infer<typeof executeResult>

export const registerExecuteTool = (app: App) =>
  app.openapi(route, async (c) => {
    const { tool: name, params } = c.req.valid('json')
    const tool = platformTools.find((t) => t.name === name)
    if (!tool) throw new ServiceError('NOT_FOUND', `No tool named ${name}`)
    if (!keyScopes(c).includes(tool.scope)) {
      throw new ServiceError('INSUFFICIENT_PERMISSIONS', `The tool ${name} needs the scope ${tool.scope}`)
    }
    const parsed = tool.params.safeParse(params)
    if (!parsed.success) throw validationError(parsed.error.issues, `Invalid params for ${name}`, ['params'])
    return c.json({ tool: name, result: await tool.run(serviceContext(c), parsed.data) }, 200)
  })
