import type { RouteAuth } from '@shared/infra/http/authenticate.ts'

/** Stores and the delivery log are managed from the dashboard: signed-in users only. */
export const readAuth = { allow: ['user'] } as const satisfies RouteAuth
export const writeAuth = { allow: ['user'], roles: ['owner', 'admin'] } as const satisfies RouteAuth

/**
 * Synced orders and products: any member, or a platform key with content:read. The spec has no
 * commerce scope; shop data is read-only content the tenant publishes from, so content:read.
 */
export const dataAuth = {
  allow: ['user', 'platform_key'],
  scope: 'content:read',
} as const satisfies RouteAuth

/** Scheduled jobs: the service-role key only. */
export const jobAuth = { allow: ['service'] } as const satisfies RouteAuth
