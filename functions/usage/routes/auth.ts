import type { RouteAuth } from '@shared/infra/http/authenticate.ts'

/** The usage report: signed-in users, or keys with billing:read. */
export const usageAuth = {
  allow: ['user', 'platform_key'],
  scope: 'billing:read',
} as const satisfies RouteAuth
/** The Analytics API: signed-in users, or keys with analytics:read. */
export const analyticsAuth = {
  allow: ['user', 'platform_key'],
  scope: 'analytics:read',
} as const satisfies RouteAuth
/** Usage alerts are managed from the dashboard: members read, owners and admins manage. */
export const alertReadAuth = { allow: ['user'] } as const satisfies RouteAuth
export const alertWriteAuth = { allow: ['user'], roles: ['owner', 'admin'] } as const satisfies RouteAuth
/** Job routes take only the service-role key (pg_cron, the local scheduler). */
export const jobAuth = { allow: ['service'] } as const satisfies RouteAuth
