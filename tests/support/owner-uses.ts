import path from 'node:path'
import ts from 'typescript'

/**
 * Finds every place in services and functions that reaches the owner pool (the connection that
 * bypasses row-level security), with the TypeScript compiler's own symbols rather than a pattern
 * over the text: `FunctionDeps.sql` and `ServiceContext.asOwner`, whatever the variable is called
 * (`deps.sql`, `this.deps.sql`, `c.var.deps.sql`, `const { sql } = deps`, a Pick of FunctionDeps).
 */
export interface OwnerUse {
  /** Repository-relative path, forward slashes. */
  file: string
  /** The nearest named enclosing function, `Class.method`, or `(module)`. */
  fn: string
  line: number
  /** `sql` (FunctionDeps) or `asOwner` (ServiceContext). */
  handle: string
}

const SCANNED_ROOTS = ['shared/services/', 'functions/']
const OWNER_NAMES = new Set(['sql', 'asOwner'])

/**
 * The pool handed straight to `withTenant` / `readAsTenant` (shared/infra/db.ts) is not an owner
 * use: those run as role `authenticated` with the claims they are given (functions that act for a
 * user before a tenant context exists: creating a tenant, accepting an invitation).
 */
export function findOwnerUses(root: string): { uses: OwnerUse[]; files: number } {
  const configPath = path.join(root, 'tsconfig.json')
  const config = ts.readConfigFile(configPath, ts.sys.readFile)
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root)
  const rel = (f: string) => path.relative(root, f).split(path.sep).join('/')
  const scanned = parsed.fileNames.filter((f) => SCANNED_ROOTS.some((r) => rel(f).startsWith(r)))
  const depsFile = path.join(root, 'shared/infra/deps.ts')
  const program = ts.createProgram({ rootNames: [...scanned, depsFile], options: parsed.options })
  const checker = program.getTypeChecker()

  const depsSource = program.getSourceFile(depsFile)
  if (!depsSource) throw new Error('shared/infra/deps.ts not in the program')
  const ownerDeclarations = new Set<ts.Node>()
  for (const st of depsSource.statements) {
    if (!ts.isInterfaceDeclaration(st)) continue
    for (const m of st.members) {
      const name = m.name && ts.isIdentifier(m.name) ? m.name.text : ''
      if (
        (st.name.text === 'FunctionDeps' && name === 'sql') ||
        (st.name.text === 'ServiceContext' && name === 'asOwner')
      )
        ownerDeclarations.add(m)
    }
  }
  if (ownerDeclarations.size === 0)
    throw new Error('found neither FunctionDeps.sql nor ServiceContext.asOwner')

  const isOwner = (sym: ts.Symbol | undefined) => {
    if (!sym) return false
    const s = sym.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(sym) : sym
    return (s.declarations ?? []).some((d) => ownerDeclarations.has(d))
  }
  const dbFile = path.join(root, 'shared/infra/db.ts')
  const isTenantHelperArgument = (node: ts.Node) => {
    const call = node.parent
    if (!ts.isCallExpression(call) || call.arguments[0] !== node || !ts.isIdentifier(call.expression))
      return false
    let sym = checker.getSymbolAtLocation(call.expression)
    if (sym && sym.flags & ts.SymbolFlags.Alias) sym = checker.getAliasedSymbol(sym)
    const decl = sym?.declarations?.[0]
    return (
      (sym?.name === 'withTenant' || sym?.name === 'readAsTenant') &&
      decl !== undefined &&
      path.resolve(decl.getSourceFile().fileName) === dbFile
    )
  }

  const uses: OwnerUse[] = []
  for (const file of scanned) {
    const sf = program.getSourceFile(file)
    if (!sf) continue
    const record = (node: ts.Node, handle: string) => {
      if (isTenantHelperArgument(node)) return
      uses.push({
        file: rel(file),
        fn: enclosingName(node),
        line: sf.getLineAndCharacterOfPosition(node.getStart()).line + 1,
        handle,
      })
    }
    // Only names that can be the owner handle go to the checker (it is slow on everything else).
    const visit = (node: ts.Node) => {
      if (ts.isPropertyAccessExpression(node) && OWNER_NAMES.has(node.name.text)) {
        if (isOwner(checker.getSymbolAtLocation(node.name))) record(node, node.name.text)
      } else if (
        ts.isElementAccessExpression(node) &&
        ts.isStringLiteralLike(node.argumentExpression) &&
        OWNER_NAMES.has(node.argumentExpression.text)
      ) {
        const prop = checker.getTypeAtLocation(node.expression).getProperty(node.argumentExpression.text)
        if (isOwner(prop)) record(node, node.argumentExpression.text)
      } else if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) {
        const key = node.propertyName ?? node.name
        if ((ts.isIdentifier(key) || ts.isStringLiteralLike(key)) && OWNER_NAMES.has(key.text)) {
          const prop = checker.getTypeAtLocation(node.parent).getProperty(key.text)
          if (isOwner(prop)) record(node, key.text)
        }
      }
      ts.forEachChild(node, visit)
    }
    visit(sf)
  }
  return { uses, files: scanned.length }
}

function enclosingName(node: ts.Node): string {
  for (let n: ts.Node | undefined = node.parent; n; n = n.parent) {
    if (ts.isFunctionDeclaration(n) && n.name) return n.name.text
    if ((ts.isMethodDeclaration(n) || ts.isGetAccessor(n) || ts.isConstructorDeclaration(n)) && n.parent) {
      const cls = ts.isClassLike(n.parent) && n.parent.name ? `${n.parent.name.text}.` : ''
      const name = ts.isConstructorDeclaration(n) ? 'constructor' : n.name.getText()
      return `${cls}${name}`
    }
    if ((ts.isArrowFunction(n) || ts.isFunctionExpression(n)) && ts.isVariableDeclaration(n.parent))
      return n.parent.name.getText()
  }
  return '(module)'
}
