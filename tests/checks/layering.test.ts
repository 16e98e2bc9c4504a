import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
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
 *
 * And between the top-level folders (docs/adr/0036-conventions-as-checks.md), each imports only
 * the folders beneath it, FOLDERS_BENEATH; a thing two of them need lives in the lower one. No
 * module takes part in a circle of value imports (a type-only import may close one: it is gone
 * when the code runs).
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
  !spec.includes('/') ||
  !/^(shared|functions|scripts|local-platform|dashboard|clients|tests|benchmarks)\//.test(spec)

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

const TOP_FOLDERS = [
  'shared',
  'clients',
  'functions',
  'dashboard',
  'local-platform',
  'scripts',
  'tests',
  'benchmarks',
]

/**
 * What each top-level folder may import besides itself. The deployed code is at the bottom
 * (shared/, then the functions and the dashboard, the two front ends over it, and the generated
 * client, which imports nothing of ours); local-platform/ composes the functions and the dashboard
 * as a deployment does; scripts/ are commands over all of that; tests/ check everything; benchmarks/
 * drive the platform with the tests' support code.
 */
const FOLDERS_BENEATH: Record<string, string[]> = {
  shared: [],
  clients: [],
  functions: ['shared'],
  dashboard: ['shared', 'clients'],
  'local-platform': ['shared', 'functions', 'dashboard'],
  scripts: ['shared', 'clients', 'functions', 'dashboard', 'local-platform'],
  tests: ['shared', 'clients', 'functions', 'dashboard', 'local-platform', 'scripts'],
  benchmarks: ['shared', 'clients', 'functions', 'dashboard', 'local-platform', 'scripts', 'tests'],
}

const topFolder = (path: string) => path.split('/')[0]!

function folderViolations(graph: ImportGraph): string[] {
  const violations: string[] = []
  for (const [file, imports] of graph) {
    const from = topFolder(file)
    for (const target of imports) {
      if (isPackage(target)) continue
      const to = topFolder(target)
      if (to !== from && !FOLDERS_BENEATH[from]?.includes(to))
        violations.push(`${file} -> ${target}: ${from}/ imports ${to}/, which is not beneath it`)
    }
  }
  return violations
}

/** The module a local specifier names, as the resolvers here find it (`./x.js` may be `./x.ts`). */
function resolveLocal(spec: string): string {
  if (existsSync(spec) && statSync(spec).isFile()) return spec
  for (const candidate of [spec.replace(/\.js$/, '.ts'), `${spec}.ts`, `${spec}.tsx`, `${spec}/index.ts`])
    if (existsSync(candidate)) return candidate
  return spec
}

/**
 * The static imports that load a module when this one runs: not `import type`, not an import whose
 * every name is a type, not a dynamic import() (it runs later, on demand).
 */
function valueImportsOf(file: string, text: string): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ESNext, false)
  const found: string[] = []
  for (const st of sf.statements) {
    let spec: ts.Expression | undefined
    if (ts.isImportDeclaration(st)) {
      const clause = st.importClause
      const typeOnly =
        clause &&
        (clause.isTypeOnly ||
          (!clause.name &&
            clause.namedBindings !== undefined &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((e) => e.isTypeOnly)))
      if (!typeOnly) spec = st.moduleSpecifier
    } else if (ts.isExportDeclaration(st) && st.moduleSpecifier) {
      const typeOnly =
        st.isTypeOnly ||
        (st.exportClause !== undefined &&
          ts.isNamedExports(st.exportClause) &&
          st.exportClause.elements.every((e) => e.isTypeOnly))
      if (!typeOnly) spec = st.moduleSpecifier
    }
    if (!spec || !ts.isStringLiteral(spec)) continue
    const target = spec.text.startsWith('.')
      ? normalize(join(dirname(file), spec.text))
      : spec.text.replace(pathAlias, '$1/')
    if (!isPackage(target)) found.push(resolveLocal(target))
  }
  return found
}

/** Every circle of the graph (its strongly connected components of more than one module, or a self-import). */
function circles(graph: ImportGraph): string[][] {
  let next = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  const connect = (v: string) => {
    index.set(v, next)
    low.set(v, next++)
    stack.push(v)
    onStack.add(v)
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue
      if (!index.has(w)) {
        connect(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = []
      let w: string
      do {
        w = stack.pop()!
        onStack.delete(w)
        component.push(w)
      } while (w !== v)
      if (component.length > 1 || graph.get(v)?.includes(v)) found.push(component.sort())
    }
  }
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) connect(v)
  return found.sort((a, b) => a[0]!.localeCompare(b[0]!))
}

// Circles the helpers named beside them are taking apart this round; each goes when that lands.
const PENDING_CIRCLES: string[][] = []

const repoFiles = (roots: string[]) =>
  roots.flatMap((root) =>
    sourceFiles(root)
      .filter((path) => !path.includes('node_modules'))
      .map((path) => relative('.', path).split('\\').join('/')),
  )

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
    const found = ['shared', 'functions', 'scripts', 'local-platform', 'tests', 'benchmarks'].flatMap(
      (root) =>
        sourceFiles(root).flatMap((path) => climbing(relative('.', path), readFileSync(path, 'utf8'))),
    )
    expect(found).toEqual([])
  })

  it("the README's map of functions to service areas is the import graph's", () => {
    const used = new Map<string, Set<string>>()
    for (const path of sourceFiles('functions')) {
      const file = relative('.', path)
      const fn = file.split('/')[1]!
      for (const target of importsOf(file, readFileSync(path, 'utf8'))) {
        const area = /^shared\/services\/([^/]+)\//.exec(target)?.[1]
        if (area) used.set(fn, (used.get(fn) ?? new Set()).add(area))
      }
    }
    const readme = readFileSync('README.md', 'utf8')
    const table = readme.slice(
      readme.indexOf('| function '),
      readme.indexOf('\n\n', readme.indexOf('| function ')),
    )
    const documented = new Map(
      table
        .split('\n')
        .slice(2)
        .map((row) => {
          const [fn, areas] = row
            .split('|')
            .slice(1, 3)
            .map((cell) => cell.trim())
          // Only the area names count: `assistant` (the turn in `assistant/turn/`) names `assistant`.
          const names = [...areas!.replace(/\([^)]*\)/g, '').matchAll(/`([^`]+)`/g)].map((m) => m[1]!)
          return [fn!.replaceAll('`', ''), new Set(names)] as const
        }),
    )
    const sorted = (m: Map<string, Set<string>>) =>
      Object.fromEntries(
        [...m].map(([k, v]) => [k, [...v].sort()]).sort(([a], [b]) => String(a).localeCompare(String(b))),
      )
    expect(sorted(documented)).toEqual(sorted(used))
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

  it('imports between the top-level folders go only downwards', () => {
    const graph: ImportGraph = new Map()
    for (const file of repoFiles(TOP_FOLDERS)) graph.set(file, importsOf(file, readFileSync(file, 'utf8')))
    expect(graph.size).toBeGreaterThan(500)
    expect(folderViolations(graph)).toEqual([])
    // The check can fail: the two edges local-platform/ and dashboard/ once had.
    expect(
      folderViolations(
        new Map([
          ['local-platform/start.ts', ['scripts/lib/migrations.ts', 'dashboard/build.ts', 'hono']],
          ['dashboard/build.ts', ['local-platform/dashboard.ts']],
          ['clients/typescript/src/index.ts', ['shared/infra/db.ts']],
        ]),
      ),
    ).toEqual([
      'local-platform/start.ts -> scripts/lib/migrations.ts: local-platform/ imports scripts/, which is not beneath it',
      'dashboard/build.ts -> local-platform/dashboard.ts: dashboard/ imports local-platform/, which is not beneath it',
      'clients/typescript/src/index.ts -> shared/infra/db.ts: clients/ imports shared/, which is not beneath it',
    ])
  })

  it('has no circle of value imports', () => {
    const graph: ImportGraph = new Map()
    for (const file of repoFiles(['shared', 'functions', 'dashboard', 'local-platform', 'scripts']))
      graph.set(file, valueImportsOf(file, readFileSync(file, 'utf8')))
    const found = circles(graph)
    const key = (c: string[]) => c.join(' <-> ')
    expect(found.map(key).filter((c) => !PENDING_CIRCLES.map(key).includes(c))).toEqual([])
    // A pending circle that is gone is taken off the list.
    expect(PENDING_CIRCLES.map(key).filter((c) => !found.map(key).includes(c))).toEqual([])
  })

  it('finds a value circle and lets a type-only one be (the check can fail)', () => {
    const read = (file: string, text: string) => [file, valueImportsOf(file, text)] as const
    const graph: ImportGraph = new Map([
      read('shared/a.ts', `import { b } from './b.ts'\nimport type { C } from './c.ts'`),
      read('shared/b.ts', `export { a } from '@shared/a.ts'`),
      read('shared/c.ts', `import { type A, type B } from './a.ts'\nconst d = await import('./d.ts')`),
      read('shared/d.ts', `import './c.ts'`),
    ])
    expect(circles(graph)).toEqual([['shared/a.ts', 'shared/b.ts']])
  })
})
