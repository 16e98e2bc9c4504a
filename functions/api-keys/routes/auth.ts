import type { RouteAuth } from '@shared/infra/http/authenticate.ts'

/** Keys are managed from the dashboard by signed-in users only; a key cannot mint keys. */
export const readAuth = { allow: ['user'] } as const satisfies RouteAuth
export const writeAuth = { allow: ['user'], roles: ['owner', 'admin'] } as const satisfies RouteAuth
