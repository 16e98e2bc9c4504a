import type { FunctionDeps } from '@shared/infra/deps.ts'
import { createFunctionApp } from '@shared/infra/http/function-app.ts'
import { registerCreateAlert } from './routes/alerts/create.ts'
import { registerDeleteAlert } from './routes/alerts/delete.ts'
import { registerListAlerts } from './routes/alerts/list.ts'
import { registerGetAnalytics } from './routes/analytics/get.ts'
import { registerCheckUsageAlertsJob } from './routes/jobs/check-usage-alerts.ts'
import { registerGetDailyUsage } from './routes/usage/daily.ts'
import { registerGetUsage } from './routes/usage/get.ts'

export const functionName = 'usage'

/** Usage metering, quotas, overage, usage alerts and the Analytics API. */
export function createApp(deps: FunctionDeps) {
  const app = createFunctionApp(
    functionName,
    deps,
    'Usage metering, quotas, overage, usage alerts and the Analytics API',
  )
  for (const register of [
    registerCheckUsageAlertsJob,
    registerGetUsage,
    registerGetDailyUsage,
    registerListAlerts,
    registerCreateAlert,
    registerDeleteAlert,
    registerGetAnalytics,
  ])
    register(app)
  return app
}
