import type { FunctionDeps } from '@shared/infra/deps.ts'
import { createFunctionApp } from '@shared/infra/http/function-app.ts'
import { registerCreateApiKey } from './routes/create.ts'
import { registerGetApiKey } from './routes/get.ts'
import { registerListApiKeys } from './routes/list.ts'
import { registerListRequestLog } from './routes/request-log/list.ts'
import { registerKeyRequests } from './routes/requests.ts'
import { registerRevokeApiKey } from './routes/revoke.ts'

export const functionName = 'api-keys'

/** Platform and tool-server API keys, managed by signed-in owners and admins, and their request log. */
export function createApp(deps: FunctionDeps) {
  const app = createFunctionApp(functionName, deps, 'Platform and tool-server API keys')
  for (const register of [
    registerCreateApiKey,
    registerListApiKeys,
    registerListRequestLog,
    registerGetApiKey,
    registerKeyRequests,
    registerRevokeApiKey,
  ])
    register(app)
  return app
}
