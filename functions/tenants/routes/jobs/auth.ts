import type { RouteAuth } from '@shared/infra/http/authenticate.ts'

/** Any member sees the tenant's jobs; a platform key needs content:read. */
export const jobsReadAuth = {
  allow: ['user', 'platform_key'],
  scope: 'content:read',
} as const satisfies RouteAuth
