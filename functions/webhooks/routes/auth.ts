import type { RouteAuth } from '@shared/infra/http/authenticate.ts'

/** Subscriptions are managed from the dashboard by signed-in users; members read, owners and admins manage. */
export const readAuth = { allow: ['user'] } as const satisfies RouteAuth
export const writeAuth = { allow: ['user'], roles: ['owner', 'admin'] } as const satisfies RouteAuth
/** Job routes take only the service-role key (pg_cron, the outbox kick, the local scheduler). */
export const jobAuth = { allow: ['service'] } as const satisfies RouteAuth
