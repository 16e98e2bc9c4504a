import type { FunctionDeps } from '@shared/infra/deps.ts'
import { createFunctionApp } from '@shared/infra/http/function-app.ts'
import { registerListCatalog } from './routes/catalog/list.ts'
import { registerConnectMcp } from './routes/connections/connect.ts'
import { registerDeleteConnection } from './routes/connections/delete.ts'
import { registerRediscover } from './routes/connections/discover.ts'
import { registerGetConnection } from './routes/connections/get.ts'
import { registerListConnections } from './routes/connections/list.ts'
import { registerRenameConnection } from './routes/connections/rename.ts'
import { registerRefreshTokensJob } from './routes/jobs/refresh-tokens.ts'
import { registerAuthorize } from './routes/oauth/authorize.ts'
import { registerCallback } from './routes/oauth/callback.ts'
import { registerClientMetadata } from './routes/oauth/client-metadata.ts'
import { registerListPermissions } from './routes/permissions/list.ts'
import { registerSetPermission } from './routes/permissions/set.ts'
import { registerStats } from './routes/stats.ts'

export const functionName = 'integrations'

export { DEFAULT_TOOL_ALLOWED } from '@shared/services/integrations/connections.ts'

/**
 * Integrations hub: catalog, OAuth and MCP connections, tool permissions, usage. Every route takes
 * any signed-in member; writes need owner or admin, checked in the service after the input is
 * validated, so an unknown integration answers 400 or 404 before a member's 403.
 */
export function createApp(deps: FunctionDeps) {
  const app = createFunctionApp(
    functionName,
    deps,
    'Integrations hub: catalog, OAuth and MCP connections, tool permissions, usage',
  )
  for (const register of [
    registerListCatalog,
    registerAuthorize,
    registerCallback,
    registerClientMetadata,
    registerConnectMcp,
    registerStats,
    registerListConnections,
    registerGetConnection,
    registerRenameConnection,
    registerDeleteConnection,
    registerRediscover,
    registerSetPermission,
    registerListPermissions,
    registerRefreshTokensJob,
  ])
    register(app)
  return app
}
