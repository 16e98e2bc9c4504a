import type { RouteAuth } from '@shared/infra/http/authenticate.ts'

/**
 * Credentials are managed from the dashboard by signed-in users; keys cannot reach them. Members
 * read, owners and admins manage.
 */
export const readAuth = { allow: ['user'] } as const satisfies RouteAuth
export const writeAuth = { allow: ['user'], roles: ['owner', 'admin'] } as const satisfies RouteAuth
/** The provider catalog is also open to the anon key. */
export const catalogAuth = { allow: ['user', 'anon'] } as const satisfies RouteAuth
/** Job routes take only the service-role key (pg_cron, the local scheduler). */
export const jobAuth = { allow: ['service'] } as const satisfies RouteAuth
