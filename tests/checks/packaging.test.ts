import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { functionModules } from '@local-platform/functions.ts'
import { functionImportMaps, renderSupabaseConfig } from '@scripts/lib/supabase-config.ts'
import { functionPath } from '@shared/infra/http/function-path.ts'
import { publicRoutes, toFunctionPath } from '@shared/infra/http/public-routes.ts'
import { describe, expect, it } from 'vitest'

const functionDirs = readdirSync('functions').filter((n) => existsSync(`functions/${n}/index.ts`))

describe('edge packaging', () => {
  it('supabase/config.toml declares every function (regenerate with npm run supabase:config)', () => {
    expect(readFileSync('supabase/config.toml', 'utf8')).toBe(renderSupabaseConfig())
    for (const name of functionDirs) expect(renderSupabaseConfig()).toContain(`[functions.${name}]`)
  })

  it("each function's deno.json is the root deno.json's entries it uses (regenerate with npm run supabase:config)", () => {
    const maps = functionImportMaps()
    expect([...maps.keys()].sort()).toEqual(functionDirs.map((n) => `functions/${n}/deno.json`).sort())
    for (const [path, text] of maps) expect(readFileSync(path, 'utf8'), path).toBe(text)
  })

  it('the local platform serves every function, and every public route names one', () => {
    expect(functionModules.map((m) => m.functionName).sort()).toEqual([...functionDirs].sort())
    for (const route of publicRoutes) expect(functionDirs).toContain(route.fn)
  })

  it('routes the Supabase, platform and public forms of a path to the same function path', () => {
    expect(functionPath('api-keys', '/api-keys/123')).toBe('/123')
    expect(functionPath('api-keys', '/functions/v1/api-keys')).toBe('/')
    expect(functionPath('api-keys', '/api/api-keys/123/revoke')).toBe('/123/revoke')
    expect(functionPath('usage', '/api/usage-alerts/9')).toBe('/alerts/9')
    expect(functionPath('usage', '/api/api-keys')).toBe('/api/api-keys')
  })

  it('maps public paths to function paths by the longest prefix', () => {
    expect(toFunctionPath('/api/api-keys')).toBe('/functions/v1/api-keys')
    expect(toFunctionPath('/api/api-keys/123/revoke')).toBe('/functions/v1/api-keys/123/revoke')
    expect(toFunctionPath('/v1/content')).toBe('/functions/v1/content')
    expect(toFunctionPath('/api/api-keysx')).toBeNull()
    expect(toFunctionPath('/nowhere')).toBeNull()
  })

  it('every function entry is a Deno entry over its app factory', () => {
    for (const name of functionDirs) {
      const entry = readFileSync(`functions/${name}/index.ts`, 'utf8')
      expect(entry).toContain('serveOnDeno(createApp(deps).fetch)')
      expect(readFileSync(`functions/${name}/app.ts`, 'utf8')).toContain(`functionName = '${name}'`)
    }
  })
})
