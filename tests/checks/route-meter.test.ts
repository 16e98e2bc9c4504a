import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * A route that declares `meter` in its defineRoute is metered only if its file registers it with
 * meteredRoute (shared/infra/http/route-meter.ts), which meters after validation and before the
 * handler; registered with app.openapi, its requests would go uncounted. And meteredRoute on a
 * route without a meter is refused when the function starts. So: every route file that declares a
 * meter registers with meteredRoute, and every one that registers with it declares a meter.
 */
const routeFiles = readdirSync('functions', { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.ts') && f.split('/').includes('routes'))
  .map((f) => join('functions', f))

/** The defineRoute call's text up to its closing `})`, where `meter:` would stand. */
const declaresMeter = (text: string) =>
  /defineRoute\([\s\S]*?\n\}\)/.exec(text)?.[0].includes('\n  meter:') ?? false
const registersMetered = (text: string) => /\bmeteredRoute\(app, route,/.test(text)

describe('metered routes', () => {
  it('are registered with meteredRoute exactly when their defineRoute declares a meter', () => {
    const declared = routeFiles.filter((f) => declaresMeter(readFileSync(f, 'utf8')))
    const registered = routeFiles.filter((f) => registersMetered(readFileSync(f, 'utf8')))
    expect(declared.length).toBeGreaterThan(0)
    expect(registered.sort()).toEqual(declared.sort())
  })

  it('tells a declared meter from a route without one', () => {
    const route = (meter: string, register: string) =>
      `export const route = defineRoute(member, {\n  method: 'get',\n  path: '/',\n${meter}  responses: {},\n})\n\nexport const r = (app: App) =>\n  ${register}(app, route, async (c) => c.json({}))\n`
    expect(declaresMeter(route("  meter: 'content',\n", 'meteredRoute'))).toBe(true)
    expect(declaresMeter(route('', 'app.openapi'))).toBe(false)
    expect(registersMetered(route('', 'meteredRoute'))).toBe(true)
  })
})
