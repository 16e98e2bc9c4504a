import type { RouteAuth } from '@shared/infra/http/authenticate.ts'

/** Sign-up, the tenant list, switching and accepting an invitation: any signed-in user, with or without a tenant. */
export const signedInAuth = { allow: ['user', 'user_without_tenant'] } as const satisfies RouteAuth
/** The current tenant, its members and invitations: its members (role checks that depend on the input are in the services). */
export const memberAuth = { allow: ['user'] } as const satisfies RouteAuth
export const adminAuth = { allow: ['user'], roles: ['owner', 'admin'] } as const satisfies RouteAuth
/** Billing (the plan): only the service-role key; later a billing provider's webhook. */
export const serviceAuth = { allow: ['service'] } as const satisfies RouteAuth
/** Job routes take only the service-role key (pg_cron, the local scheduler). */
export const jobAuth = { allow: ['service'] } as const satisfies RouteAuth
