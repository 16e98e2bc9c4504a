import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, normalize, relative } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

/**
 * The layering rule of docs/adr/0005-services-beneath-front-ends.md, checked on the import graph:
 *
 *   shared/infra     imports only shared/infra (and packages);
 *   shared/services  imports shared/infra and shared/services, never Hono or shared/infra/http,
 *                    so the same operation serves REST, the tool server, jobs and server functions;
 *   functions/<f>    imports shared/ and its own folder, never another function;
 *   nothing in shared/ or functions/ imports scripts/, local-platform/, dashboard/, tests/ or benchmarks/.
 */

type ImportGraph = Map<string, string[]>

// tsconfig.json's paths (and deno.json's imports): `@shared/x` is `shared/x`.
const pathAlias = /^@(shared|functions|scripts|local-platform|dashboard|clients|tests|benchmarks)\//

// The TypeScript compiler's own pre-processor finds every module reference: static, type-only,
// side-effect (`import './x.ts'`), re-export and dynamic imports, and none inside strings or comments.
function importsOf(file: string, text: string): string[] {
  const { importedFiles } = ts.preProcessFile(text, true, true)
  return importedFiles.map(({ fileName: spec }) =>
    spec.startsWith('.') ? normalize(join(dirname(file), spec)) : spec.replace(pathAlias, '$1/'),
  )
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return /\.tsx?$/.test(name) ? [path] : []
  })
}

const isPackage = (spec: string) =>
  !spec.includes('/') || !/^(shared|functions|scripts|local-platform|dashboard|clients|tests|benchmarks)\//.test(spec)

function layerViolations(graph: ImportGraph): string[] {
  const violations: string[] = []
  for (const [file, imports] of graph) {
    for (const target of imports) {
      const refuse = (why: string) => violations.push(`${file} -> ${target}: ${why}`)
      const local = !isPackage(target)
      if (local && /^(scripts|local-platform|dashboard|tests|benchmarks)\//.test(target))
        refuse('production code imports a tool or test')
      if (file.startsWith('shared/infra/')) {
        if (local && !target.startsWith('shared/infra/')) refuse('infrastructure imports only infrastructure')
      } else if (file.startsWith('shared/services/')) {
        if (local && !target.startsWith('shared/infra/') && !target.startsWith('shared/services/'))
          refuse('services import only infrastructure and services')
        if (target.startsWith('shared/infra/http/'))
          refuse('services are transport-free (no shared/infra/http)')
        if (target === 'hono' || target.startsWith('hono/')) refuse('services are transport-free (no Hono)')
      } else if (file.startsWith('functions/')) {
        const own = file.split('/').slice(0, 2).join('/')
        if (local && target.startsWith('functions/') && !target.startsWith(`${own}/`))
          refuse('a function never imports another function')
      } else if (file.startsWith('shared/')) {
        refuse('shared/ holds only infra/ and services/')
      }
    }
  }
  return violations
}

describe('layering', () => {
  it('holds for the whole tree', () => {
    const graph: ImportGraph = new Map()
    for (const root of ['shared', 'functions']) {
      for (const path of sourceFiles(root)) {
        const file = relative('.', path)
        graph.set(file, importsOf(file, readFileSync(path, 'utf8')))
      }
    }
    expect(graph.size).toBeGreaterThan(50)
    expect(layerViolations(graph)).toEqual([])
  })

  it('climbs at most one folder in a relative import; further is a path alias (@shared/...)', () => {
    const climbing = (file: string, text: string) =>
      ts
        .preProcessFile(text, true, true)
        .importedFiles.map((f) => f.fileName)
        .filter((spec) => spec.startsWith('../../'))
        .map((spec) => `${file}: ${spec}`)
    // The check can fail.
    expect(climbing('shared/services/x/y.ts', `import { a } from '../../infra/db.ts'`)).toEqual([
      'shared/services/x/y.ts: ../../infra/db.ts',
    ])
    const found = ['shared', 'functions', 'scripts', 'local-platform', 'tests', 'benchmarks'].flatMap((root) =>
      sourceFiles(root).flatMap((path) => climbing(relative('.', path), readFileSync(path, 'utf8'))),
    )
    expect(found).toEqual([])
  })

  it('refuses each kind of violation (the check can fail)', () => {
    const graph: ImportGraph = new Map([
      ['shared/infra/db.ts', ['shared/services/content/queries.ts', 'postgres']],
      [
        'shared/services/content/queries.ts',
        ['shared/infra/http/app-env.ts', 'hono', 'functions/content/app.ts'],
      ],
      ['functions/content/app.ts', ['functions/usage/app.ts', 'shared/services/content/queries.ts']],
      ['functions/usage/app.ts', ['local-platform/local-env.ts', 'functions/usage/routes/get.ts']],
    ])
    const found = layerViolations(graph)
    expect(found).toEqual([
      'shared/infra/db.ts -> shared/services/content/queries.ts: infrastructure imports only infrastructure',
      'shared/services/content/queries.ts -> shared/infra/http/app-env.ts: services are transport-free (no shared/infra/http)',
      'shared/services/content/queries.ts -> hono: services are transport-free (no Hono)',
      'shared/services/content/queries.ts -> functions/content/app.ts: services import only infrastructure and services',
      'functions/content/app.ts -> functions/usage/app.ts: a function never imports another function',
      'functions/usage/app.ts -> local-platform/local-env.ts: production code imports a tool or test',
    ])
  })

  it('reads relative, re-export, dynamic, type-only and side-effect imports, not strings', () => {
    const text = [
      `import { a } from '../../infra/db.ts'`,
      `export { b } from './b.ts'`,
      `const c = await import('../c.ts')`,
      `import type { D } from 'hono'`,
      `import '../../../functions/other/app.ts'`,
      `import { g } from '@functions/usage/app.ts'`,
      `const note = "import { e } from '../e.ts'" // import { f } from '../f.ts'`,
    ].join('\n')
    expect(importsOf('shared/services/x/y.ts', text).sort()).toEqual(
      [
        'shared/infra/db.ts',
        'shared/services/x/b.ts',
        'shared/services/c.ts',
        'hono',
        'functions/other/app.ts',
        'functions/usage/app.ts',
      ].sort(),
    )
  })
})
