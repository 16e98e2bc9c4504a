import type { RouteAuth } from '@shared/infra/http/authenticate.ts'

/**
 * Signed-in users only. Writes need owner or admin, checked in the service after the input is
 * validated (an unknown integration answers 400/404 before a member's 403, as it always has).
 */
export const userAuth = { allow: ['user'] } as const satisfies RouteAuth
/** The hourly token-refresh job: the platform's scheduler with the service role. */
export const serviceAuth = { allow: ['service'] } as const satisfies RouteAuth
