import { editorRoles, type Scope } from '../caller.ts'
import type { RouteAuth } from './authenticate.ts'

/**
 * The route-auth presets: who may call a route, named once and used by name in every
 * `defineRoute`. A role rule applies to the acting person (a user's own role, a key's creator's
 * current role); a scope applies to keys only.
 *
 * A published-only key is a caller kind of its own (`published_key`), and no preset but
 * `publishedReader` names it: every route refuses it unless it says it reads published content
 * (docs/adr/0029-published-only-key-is-its-own-caller.md). A route added later is closed to it.
 */

/** Any member of the tenant, signed in (the dashboard); keys cannot reach these routes. */
export const member = { allow: ['user'] } as const satisfies RouteAuth

/** The tenant's owners and admins, signed in. */
export const ownerOrAdmin = { allow: ['user'], roles: ['owner', 'admin'] } as const satisfies RouteAuth

/** Any signed-in user, with or without a tenant yet (sign-up, switching, accepting an invitation). */
export const signedIn = { allow: ['user', 'user_without_tenant'] } as const satisfies RouteAuth

/** Any member, or a platform key with `scope`. */
export const memberOrKey = <const S extends Scope>(scope: S) =>
  ({ allow: ['user', 'platform_key'], scope }) as const satisfies RouteAuth

/**
 * The published content reads (the Content API's GET routes): any member, a platform key with
 * content:read, or a published-only key, which row-level security shows published articles,
 * their sites and their tags only. The one preset that lets a published-only key in.
 */
export const publishedReader = {
  allow: ['user', 'platform_key', 'published_key'],
  scope: 'content:read',
} as const satisfies RouteAuth

/**
 * The tenant's editors (owners, admins, members: not contributors), or a platform key with
 * `scope` whose creator is still one: publishing, scheduling, and managing sites and tags.
 */
export const editorOrKey = <const S extends Scope>(scope: S) =>
  ({ allow: ['user', 'platform_key'], scope, roles: editorRoles }) as const satisfies RouteAuth

/** Owners and admins, or a platform key with `scope` whose creator is still one. */
export const ownerOrAdminOrKey = <const S extends Scope>(scope: S) =>
  ({ allow: ['user', 'platform_key'], scope, roles: ['owner', 'admin'] }) as const satisfies RouteAuth

/** The service-role key only: the platform's own operations (billing). */
export const serviceRole = { allow: ['service'] } as const satisfies RouteAuth

/** Scheduled jobs (pg_cron, the outbox kick, the local scheduler): the service-role key only. */
export const job = { allow: ['service'] } as const satisfies RouteAuth

/**
 * Who may call a server function (scrape-social, generate-article, sync-affiliate): a signed-in
 * user (Supabase convention: `apikey: <anon key>` + `Authorization: Bearer <access token>`), a
 * platform key with content:write, or the service-role key naming the tenant (`tenant_id`).
 */
export const serverFunctionAuth = {
  allow: ['user', 'platform_key', 'service'],
  scope: 'content:write',
} as const satisfies RouteAuth

/** Routes that take no credentials (OAuth callbacks, invitation look-ups) say so explicitly. */
export const publicRoute = { allow: [] } as const satisfies RouteAuth

/**
 * A WebSub hub at a source's push callback (verification of intent, content distribution): no
 * credentials, the callback's address carries an unguessable per-subscription token the route
 * compares, and pushed bodies are signed with the subscription's secret. Only a request with no
 * credentials at all becomes this caller, and no other preset names it: every other route answers
 * it 401 (docs/adr/0042-websub-push-for-feeds.md).
 */
export const websubHub = { allow: ['websub_hub'] } as const satisfies RouteAuth
