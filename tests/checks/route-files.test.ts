import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

/**
 * The route convention of CONTRIBUTING.md ("A route"), checked on every file under
 * functions/<fn>/routes/ (docs/adr/0036-conventions-as-checks.md):
 *
 * - one route a file: one `defineRoute(...)`, exported as `route`, and one `register…` function;
 *   anything else it exports is a type (a response type a test or the client imports). A helper
 *   two routes share is not a route and lives beside routes/, not in it;
 * - no pool and no SQL: the handler calls a service, which reaches the database as the caller.
 *   Refused: a tagged template (postgres.js's sql`…`), the names `sql` and `asOwner` (the pool on
 *   FunctionDeps and the owner handle on ServiceContext, however they are reached), and imports of
 *   `postgres` or shared/infra/db.ts.
 */

// Files that break the rule while the helper named beside them moves them; each entry goes when
// that branch lands (the test also fails on an entry whose file is clean). None now: the
// assistant's helpers live beside its routes/ (turn-answer.ts, tool-scopes.ts).
const PENDING: Record<string, string> = {}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return files(path)
    return name.endsWith('.ts') ? [path] : []
  })
}

const routeFiles = () =>
  readdirSync('functions')
    .filter((fn) => statSync(join('functions', fn, 'routes'), { throwIfNoEntry: false })?.isDirectory())
    .flatMap((fn) => files(join('functions', fn, 'routes')))
    .map((path) => relative('.', path).split('\\').join('/'))

const isExported = (node: ts.Node) =>
  ts.canHaveModifiers(node) &&
  (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword)

/** What is wrong with one file under routes/, by its text; empty when it keeps the convention. */
function routeFileProblems(text: string): string[] {
  const sf = ts.createSourceFile('route.ts', text, ts.ScriptTarget.ESNext, true)
  const problems: string[] = []
  let routes = 0
  const values: string[] = []
  for (const st of sf.statements) {
    if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier)) {
      const spec = st.moduleSpecifier.text
      if (spec === 'postgres' || /(^|\/)infra\/db\.ts$/.test(spec)) problems.push(`imports ${spec}`)
    }
    if (ts.isExportDeclaration(st) && !st.isTypeOnly) values.push('a re-export')
    if (!isExported(st)) continue
    if (ts.isVariableStatement(st))
      for (const d of st.declarationList.declarations) values.push(d.name.getText(sf))
    else if (ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st))
      values.push(st.name?.text ?? 'default')
  }
  const visit = (node: ts.Node) => {
    if (
      ts.isCallExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'defineRoute'
    )
      routes++
    if (ts.isTaggedTemplateExpression(node)) problems.push(`SQL: ${node.tag.getText(sf)}\`…\``)
    if (ts.isIdentifier(node) && (node.text === 'sql' || node.text === 'asOwner'))
      problems.push(`the pool: ${node.text}`)
    ts.forEachChild(node, visit)
  }
  visit(sf)
  if (routes === 0) problems.push('declares no route (a helper belongs beside routes/)')
  if (routes > 1) problems.push(`declares ${routes} routes`)
  const registers = values.filter((v) => v.startsWith('register'))
  if (routes > 0 && (!values.includes('route') || registers.length !== 1))
    problems.push('exports `route` and one `register…`')
  const others = values.filter((v) => v !== 'route' && !v.startsWith('register'))
  if (others.length) problems.push(`exports values other than the route: ${others.join(', ')}`)
  return [...new Set(problems)]
}

describe('route files', () => {
  it('each holds one route, exports only it (and types), and reaches no pool and no SQL', () => {
    const all = routeFiles()
    expect(all.length).toBeGreaterThan(150)
    const found = Object.fromEntries(
      all.map((f) => [f, routeFileProblems(readFileSync(f, 'utf8'))] as const).filter(([, p]) => p.length),
    )
    const unlisted = Object.fromEntries(Object.entries(found).filter(([f]) => !(f in PENDING)))
    expect(unlisted).toEqual({})
    // An entry whose file has gone or been put right is taken off the list.
    expect(Object.keys(PENDING).filter((f) => !(f in found))).toEqual([])
  })

  it('refuses each kind of breach (the check can fail)', () => {
    const header = `import { defineRoute } from '@shared/infra/http/define-route.ts'\n`
    const ok = `${header}export const route = defineRoute(member, { method: 'get', path: '/' })
export type Answer = { id: string }
export const registerGet = (app: App) => app.openapi(route, async (c) => c.json(await read(serviceContext(c)), 200))`
    expect(routeFileProblems(ok)).toEqual([])
    expect(routeFileProblems(`${ok}\nexport const other = defineRoute(member, {})`)).toEqual([
      'declares 2 routes',
      'exports values other than the route: other',
    ])
    expect(routeFileProblems(`export function answerRead(c: Context) { return c.json({}) }`)).toEqual([
      'declares no route (a helper belongs beside routes/)',
      'exports values other than the route: answerRead',
    ])
    expect(
      routeFileProblems(`${ok.replace('await read(', 'await readRows(c.var.deps.sql, ')}
const drop = (deps: Deps) => deps.sql\`delete from private.x\``),
    ).toEqual(['the pool: sql', 'SQL: deps.sql`…`'])
    expect(routeFileProblems(ok.replace('serviceContext(c)', 'ctx.asOwner'))).toEqual(['the pool: asOwner'])
    expect(routeFileProblems(`import postgres from 'postgres'\n${ok}`)).toEqual(['imports postgres'])
    expect(routeFileProblems(`import { connect } from '@shared/infra/db.ts'\n${ok}`)).toEqual([
      'imports @shared/infra/db.ts',
    ])
    expect(routeFileProblems(ok.replace('export const registerGet', 'const registerGet'))).toEqual([
      'exports `route` and one `register…`',
    ])
  })
})
