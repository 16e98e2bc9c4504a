import type { FunctionDeps } from '@shared/infra/deps.ts'
import { createFunctionApp } from '@shared/infra/http/function-app.ts'
import { registerCreateCredential } from './routes/credentials/create.ts'
import { registerDeleteCredential } from './routes/credentials/delete.ts'
import { registerGetCredential } from './routes/credentials/get.ts'
import { registerListCredentials } from './routes/credentials/list.ts'
import { registerRotateCredential } from './routes/credentials/rotate.ts'
import { registerUpdateCredential } from './routes/credentials/update.ts'
import { registerExpiryAlertsJob } from './routes/jobs/expiry-alerts.ts'
import { registerPruneUsageJob } from './routes/jobs/prune-usage.ts'
import { registerListProviders } from './routes/providers/list.ts'
import { registerListCredentialUsage } from './routes/usage/list.ts'

export const functionName = 'credentials'

/** Credentials vault: the provider catalog, encrypted provider credentials, their usage and jobs. */
export function createApp(deps: FunctionDeps) {
  const app = createFunctionApp(
    functionName,
    deps,
    'Credentials vault: provider catalog and encrypted provider credentials',
  )
  for (const register of [
    // Registered before '/{id}' so that 'providers' is not read as an id.
    registerListProviders,
    registerCreateCredential,
    registerListCredentials,
    registerGetCredential,
    registerUpdateCredential,
    registerRotateCredential,
    registerDeleteCredential,
    registerListCredentialUsage,
    registerExpiryAlertsJob,
    registerPruneUsageJob,
  ])
    register(app)
  return app
}
