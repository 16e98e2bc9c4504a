import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, normalize } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { bundleOf, configuredFunctions } from '../scripts/lib/deploy-bundle.ts'

/**
 * The rules of the bare-bundle check (scripts/deploy-check.ts, run in CI): what the CLI uploads
 * for a function, and which imports can resolve there. The check itself resolves and boots the
 * bundles; this holds the rules and the repository to them without the network.
 */
const root = process.cwd()
const tmp = mkdtempSync(join(tmpdir(), 'bundle-rules-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

function write(files: Record<string, string>) {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(tmp, path)), { recursive: true })
    writeFileSync(join(tmp, path), text)
  }
}

describe('bundle rules', () => {
  it("resolves a path alias relative to the import map's folder, and finds the deno.json beside an entry point", () => {
    write({
      'supabase/config.toml':
        '[functions.g]\nentrypoint = "../functions/g/index.ts"\n\n[functions.h]\nentrypoint = "../functions/h/index.ts"\nimport_map = "../import_map.json"\n',
      'functions/g/index.ts': "import { c } from '@shared/c.ts'",
      'functions/g/deno.json': '{"imports":{"@shared/":"../../shared/"}}',
      'functions/h/index.ts': 'export {}',
      'shared/c.ts': 'export const c = 4',
    })
    expect(configuredFunctions(tmp)).toEqual([
      { name: 'g', entrypoint: 'functions/g/index.ts', importMap: 'functions/g/deno.json' },
      { name: 'h', entrypoint: 'functions/h/index.ts', importMap: 'import_map.json' },
    ])
    const { files, problems, used } = bundleOf(
      tmp,
      'functions/g/index.ts',
      { '@shared/': '../../shared/' },
      'functions/g',
    )
    expect([files, problems, used]).toEqual([['functions/g/index.ts', 'shared/c.ts'], [], ['@shared/']])
  })

  it('follows local, type-only and dynamic imports, and refuses jsr:, https: and unmapped imports', () => {
    write({
      'functions/f/index.ts': [
        "import { a } from './a.ts'",
        "import type { T } from '../../shared/types.ts'",
        "import { Hono } from 'hono'",
        "import { z } from 'npm:zod@4'",
        "import { readFile } from 'node:fs/promises'",
        "import { assert } from 'jsr:@std/assert'",
        "import { serve } from 'https://deno.land/std/http/server.ts'",
        "import { x } from 'left-pad'",
        "import { y } from 'esm'",
        "import { Client } from '@modelcontextprotocol/sdk/client/index.js'",
        "import { c } from '@shared/c.ts'",
        "import { d } from '@shared/missing.ts'",
        "import { e } from '@outside/e.ts'",
        "const lazy = () => import('./lazy.ts')",
        "import { gone } from './missing.ts'",
      ].join('\n'),
      'functions/f/a.ts': "export const a = 1\nexport * from '../../shared/b.ts'",
      'functions/f/lazy.ts': 'export {}',
      'shared/types.ts': 'export type T = 1',
      'shared/b.ts': 'export const b = 2',
      'shared/c.ts': 'export const c = 4',
      'shared/unused.ts': 'export const unused = 3',
    })
    const { files, problems } = bundleOf(tmp, 'functions/f/index.ts', {
      hono: 'npm:hono@^4',
      esm: 'https://esm.sh/esm',
      '@modelcontextprotocol/sdk/': 'npm:/@modelcontextprotocol/sdk@^1/',
      '@shared/': './shared/',
      '@outside/': '../elsewhere/',
    })
    expect(files).toEqual([
      'functions/f/a.ts',
      'functions/f/index.ts',
      'functions/f/lazy.ts',
      'shared/b.ts',
      'shared/c.ts',
      'shared/types.ts',
    ])
    expect(problems).toEqual([
      "functions/f/index.ts: 'jsr:@std/assert' is a jsr: import (only npm: packages resolve here)",
      "functions/f/index.ts: 'https://deno.land/std/http/server.ts' is an https: import (only npm: packages resolve here)",
      "functions/f/index.ts: 'left-pad' is not in the import map",
      "functions/f/index.ts: 'esm' maps to https://esm.sh/esm: an https: import (only npm: packages resolve here)",
      "functions/f/index.ts: '@shared/missing.ts' maps to ./shared/missing.ts, which does not exist",
      "functions/f/index.ts: '@outside/e.ts' maps to ../elsewhere/e.ts, outside the repository",
      "functions/f/index.ts: './missing.ts' does not exist",
    ])
  })
})

describe('this repository', () => {
  const functions = configuredFunctions(root)

  it('configures every function folder with its entry point, and the CLI takes the deno.json beside it', () => {
    expect(functions.map((f) => f.name).sort().length).toBeGreaterThan(0)
    const toml = readFileSync(join(root, 'supabase/config.toml'), 'utf8')
    expect(toml).not.toMatch(/^import_map\s*=/m)
    for (const fn of functions) {
      expect(fn.entrypoint).toBe(`functions/${fn.name}/index.ts`)
      expect(fn.importMap).toBe(`functions/${fn.name}/deno.json`)
    }
  })

  it("gives each function a deno.json of npm: packages and the repository's own folders only", () => {
    for (const fn of functions) {
      const map = JSON.parse(readFileSync(join(root, fn.importMap), 'utf8')) as {
        imports: Record<string, string>
        nodeModulesDir?: string
      }
      expect(map.nodeModulesDir, fn.importMap).toBeUndefined()
      // A folder alias, resolved from the function's folder, is one of the repository's own folders.
      for (const target of Object.values(map.imports))
        if (!target.startsWith('npm:'))
          expect(normalize(join(dirname(fn.importMap), target)), fn.importMap).toMatch(
            /^(shared|functions)\/$/,
          )
    }
  })

  it.each(functions.map((f) => [f.name, f] as const))(
    '%s: every import resolves through its own deno.json, which lists nothing it does not use',
    (_, fn) => {
      const map = JSON.parse(readFileSync(join(root, fn.importMap), 'utf8')) as {
        imports: Record<string, string>
      }
      const { files, problems, used } = bundleOf(root, fn.entrypoint, map.imports, dirname(fn.importMap))
      expect(problems).toEqual([])
      expect(used).toEqual(Object.keys(map.imports).sort())
      expect(files).toContain(fn.entrypoint)
      expect(files.every((f) => /^(functions|shared)\//.test(f))).toBe(true)
    },
  )
})
