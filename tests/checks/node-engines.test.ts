import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

/**
 * The Node version the README and package.json promise (the lowest `engines.node` allows) runs
 * every installed package: none asks for more (npm install's EBADENGINE warnings). CI machines run
 * Node 20, so a dependency that wants Node 22 is pinned to a release that does not. Two trees are
 * let be, as Node never runs them for the platform: `@scalar/api-reference`, whose browser build
 * the platform serves as files to the /docs page (ADR 0045), and `ai7`, AI SDK 7 by alias, which
 * only tests/assistant-ai-sdk.test.ts loads (it runs there on Node 20, so a break shows there).
 */

/** Packages whose code Node only reads (a browser build) or only a test loads, with all they bring. */
const NOT_RUN_BY_THE_PLATFORM = ['node_modules/@scalar/api-reference', 'node_modules/ai7']

type LockPackage = { engines?: { node?: string }; dependencies?: Record<string, string> }

/** Every lockfile path reached from `roots` through dependencies, resolved as Node resolves them. */
function reachedFrom(packages: Record<string, LockPackage>, roots: string[]): Set<string> {
  const resolve = (from: string, name: string): string | undefined => {
    for (let base = from; ; ) {
      const candidate = `${base ? `${base}/` : ''}node_modules/${name}`
      if (packages[candidate]) return candidate
      if (!base) return undefined
      const cut = base.lastIndexOf('/node_modules/')
      base = cut < 0 ? '' : base.slice(0, cut)
    }
  }
  const seen = new Set(roots.filter((r) => packages[r]))
  const todo = [...seen]
  for (let path = todo.pop(); path !== undefined; path = todo.pop())
    for (const name of Object.keys(packages[path]?.dependencies ?? {})) {
      const found = resolve(path, name)
      if (found && !seen.has(found)) {
        seen.add(found)
        todo.push(found)
      }
    }
  return seen
}

type Version = [number, number, number]
const parse = (v: string): Version => {
  const [a = 0, b = 0, c = 0] = v
    .replace(/^v/, '')
    .split('.')
    .map((n) => (/^\d+$/.test(n) ? Number(n) : 0))
  return [a, b, c]
}
const compare = (a: Version, b: Version) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]

/** Whether `version` satisfies an npm range made of ||-alternatives of >=, >, <=, <, ^, ~ and bare versions. */
function satisfies(version: string, range: string): boolean {
  const v = parse(version)
  return range.split('||').some((alternative) =>
    (alternative.trim().match(/(>=|<=|>|<|\^|~)?\s*v?[\dx*.]+/g) ?? ['*']).every((comparator) => {
      const [, op = '', rest = ''] = comparator.match(/^(>=|<=|>|<|\^|~)?\s*(.*)$/) ?? []
      if (rest === '*' || rest === 'x') return true
      const bound = parse(rest)
      const parts = rest
        .replace(/^v/, '')
        .split('.')
        .filter((p) => /^\d+$/.test(p)).length
      const c = compare(v, bound)
      switch (op) {
        case '>=':
          return c >= 0
        case '>':
          return c > 0
        case '<=':
          return c <= 0
        case '<':
          return c < 0
        case '^':
          return c >= 0 && v[0] === bound[0]
        case '~':
          return c >= 0 && v[0] === bound[0] && (parts < 2 || v[1] === bound[1])
        default:
          // A bare version: as many parts as it names (20 is any 20.x).
          return v.slice(0, parts).every((n, i) => n === bound[i])
      }
    }),
  )
}

describe('the Node version the README promises', () => {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8'))
  const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'))
  const promised = String(pkg.engines.node).replace(/^>=\s*/, '')

  it("is the README's, and satisfies every installed package's engines.node", () => {
    expect(readFileSync('README.md', 'utf8')).toContain(`Node ${promised}+`)
    const packages = lock.packages as Record<string, LockPackage>
    const notRun = reachedFrom(packages, NOT_RUN_BY_THE_PLATFORM)
    const wanting = Object.entries(packages)
      .filter(
        ([path, p]) =>
          path &&
          !notRun.has(path) &&
          typeof p.engines?.node === 'string' &&
          !satisfies(promised, p.engines.node),
      )
      .map(([path, p]) => `${path.replace(/^node_modules\//, '')} wants node ${p.engines!.node}`)
    expect(wanting).toEqual([])
  })

  it('reads npm ranges as npm does, for the forms the lockfile holds', () => {
    expect(satisfies('20.19.0', '>=22.19.0')).toBe(false)
    expect(satisfies('20.19.0', '^20.19.0 || >=22.12.0')).toBe(true)
    expect(satisfies('20.19.0', '^20.0.0 || ^22.0.0 || >=24.0.0')).toBe(true)
    expect(satisfies('20.19.0', '^12.20.0 || ^14.13.1 || >=16.0.0')).toBe(true)
    expect(satisfies('20.19.0', '^18 || >=20')).toBe(true)
    expect(satisfies('20.19.0', '>=20.19.1')).toBe(false)
    expect(satisfies('20.19.0', '>=0.6.x')).toBe(true)
    expect(satisfies('20.19.0', '>=v12.22.7')).toBe(true)
  })
})
