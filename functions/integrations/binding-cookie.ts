import type { AppEnv } from '@shared/infra/http/app-env.ts'
import type { Context } from 'hono'
import { setCookie } from 'hono/cookie'

/** Binds an authorization's state to this browser: the callback completes it only where this cookie is. */
export function setBindingCookie(
  c: Context<AppEnv>,
  binding: { cookieName: string; value: string; path: string; maxAgeSeconds: number; secure: boolean },
): void {
  setCookie(c, binding.cookieName, binding.value, {
    httpOnly: true,
    sameSite: 'Lax',
    secure: binding.secure,
    path: binding.path,
    maxAge: binding.maxAgeSeconds,
  })
}
