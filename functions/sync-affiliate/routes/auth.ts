import type { RouteAuth } from '@shared/infra/http/authenticate.ts'

/** Destinations and programs are managed by owners and admins; members and content:read keys read. */
export const readAuth = {
  allow: ['user', 'platform_key'],
  scope: 'content:read',
} as const satisfies RouteAuth
export const writeAuth = {
  allow: ['user', 'platform_key'],
  scope: 'content:write',
  roles: ['owner', 'admin'],
} as const satisfies RouteAuth
