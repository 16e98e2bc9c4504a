import type { FunctionDeps } from '../../shared/infra/deps.ts'
import { createFunctionApp } from '../../shared/infra/http/function-app.ts'
import { registerExecuteTool } from './routes/tools/execute.ts'
import { registerListTools } from './routes/tools/list.ts'

export const functionName = 'mcp-sse'

/**
 * The tool server at {mcp_url}: tool-server keys (X-API-Key: mcp_live_/mcp_dev_/srv_) at
 * 100 requests per minute. A key sees the tools whose scope it holds.
 */
export function createApp(deps: FunctionDeps) {
  const app = createFunctionApp(functionName, deps, 'Tool server for agents')
  for (const register of [registerListTools, registerExecuteTool]) register(app)
  return app
}
