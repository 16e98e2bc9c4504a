import type { RouteAuth } from '@shared/infra/http/authenticate.ts'

export const readAuth = {
  allow: ['user', 'platform_key'],
  scope: 'content:read',
} as const satisfies RouteAuth
export const writeAuth = {
  allow: ['user', 'platform_key'],
  scope: 'content:write',
} as const satisfies RouteAuth

export const metered = ' Metered as one Content API request; past the Free quota: 429 QUOTA_EXCEEDED.'
