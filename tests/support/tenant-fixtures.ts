import { expect } from 'vitest'
import { productIds } from '../../shared/services/usage/metering.ts'
import type { TestPlatform, TestTenant } from './platform.ts'

/**
 * One record of each tenant-owned resource, made through the API as `tenant`, for tests that
 * check another tenant cannot reach them (the security matrix). Returns their ids by name.
 */
export async function tenantFixtures(tp: TestPlatform, tenant: TestTenant): Promise<Record<string, string>> {
  const post = async (path: string, body: unknown) => {
    const res = await tp.json(path, { token: tenant.token, body })
    expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300)
    return res.body
  }
  const apiKey = await post('/api/api-keys', {
    name: 'fixture',
    environment: 'production',
    scopes: ['content:read'],
    rate_limit_per_minute: 10,
  })
  const providers = await tp.json('/api/providers', { token: tenant.token })
  const credential = await post('/api/credentials', {
    provider_id: providers.body.data[0].id,
    name: 'fixture',
    environment: 'production',
    credential: 'sk-fixture-secret-0123456789',
  })
  const usageAlert = await post('/api/usage-alerts', {
    product_id: productIds.content,
    threshold_percent: 50,
    notification_type: 'email',
    notification_target: 'fixture@example.com',
  })
  return { apiKey: apiKey.id, credential: credential.id, usageAlert: usageAlert.id, user: tenant.userId }
}
