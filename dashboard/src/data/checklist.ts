/** The first-run checklist's reads: whether the workspace has each thing yet, one small read each. */
import { call, platform } from '../api.ts'

/** Done once a list has a row. */
const some = (list: () => Promise<{ data: unknown[] }>) => async () => ((await list()).data ?? []).length > 0

export const checks = {
  site: some(() => call(platform.GET('/v1/content', { params: { query: { type: 'site', limit: 1 } } }))),
  source: some(() => call(platform.GET('/api/sources', { params: { query: { limit: 1 } } }))),
  integration: some(() => call(platform.GET('/api/connections'))),
  aiCredential: async () =>
    (await call(platform.GET('/api/credentials', { params: { query: { limit: 100 } } }))).data.some(
      (c) => c.provider.category === 'AI',
    ),
  apiKey: some(() => call(platform.GET('/api/api-keys', { params: { query: { limit: 1 } } }))),
  webhook: some(() => call(platform.GET('/api/webhooks', { params: { query: { limit: 1 } } }))),
}
