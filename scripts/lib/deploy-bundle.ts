import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, normalize, relative, resolve } from 'node:path'
import ts from 'typescript'

/**
 * What `supabase functions deploy` uploads for a function: its entry point, the local files
 * reachable from it, and its import map (supabase/config.toml names both). Used by
 * scripts/deploy-check.ts; tests/deploy-bundle.test.ts holds the rules.
 */
export interface FunctionEntry {
  name: string
  /** Repository-relative paths. */
  entrypoint: string
  importMap: string
}

/**
 * The functions and their entry points and import maps, as the Supabase CLI resolves them from
 * supabase/config.toml: `entrypoint` and `import_map` relative to supabase/; without an
 * `import_map`, the `deno.json` (or `deno.jsonc`) beside the entry point, the CLI's per-function
 * convention. A function with neither is an error here (every function imports packages).
 */
export function configuredFunctions(root: string): FunctionEntry[] {
  const toml = readFileSync(join(root, 'supabase/config.toml'), 'utf8')
  const entries: FunctionEntry[] = []
  for (const block of toml.split(/^\[functions\./m).slice(1)) {
    const name = block.slice(0, block.indexOf(']'))
    const field = (key: string) => block.match(new RegExp(`^${key}\\s*=\\s*"([^"]+)"`, 'm'))?.[1]
    const entrypoint = relative(
      root,
      resolve(root, 'supabase', field('entrypoint') ?? `functions/${name}/index.ts`),
    )
    const configured = field('import_map')
    const beside = ['deno.json', 'deno.jsonc']
      .map((f) => join(dirname(entrypoint), f))
      .find((f) => existsSync(join(root, f)))
    const importMap = configured ? relative(root, resolve(root, 'supabase', configured)) : beside
    if (!importMap)
      throw new Error(
        `supabase/config.toml: function ${name} has no import_map and no deno.json beside ${entrypoint}`,
      )
    entries.push({ name, entrypoint, importMap })
  }
  return entries
}

/** Every specifier a module imports, type-only and dynamic imports included (the CLI uploads those too). */
function importsOf(file: string): string[] {
  return ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles.map((f) => f.fileName)
}

/**
 * The local files reachable from an entry point, and every problem with its imports.
 * `imports` is the import map: a bare specifier must be in it (exactly, or by a "prefix/" entry),
 * mapped to an npm: package or, for the repository's path aliases, to a folder of the repository
 * (relative to `importMapDir`, the import map's folder). `used` lists the map's keys the files use.
 */
export function bundleOf(
  root: string,
  entry: string,
  imports: Record<string, string>,
  importMapDir = '',
): { files: string[]; problems: string[]; used: string[] } {
  const files = new Set<string>()
  const used = new Set<string>()
  const problems: string[] = []
  const refuse = (target: string) =>
    target.startsWith('jsr:')
      ? 'a jsr: import (only npm: packages resolve here)'
      : /^https?:/.test(target)
        ? 'an https: import (only npm: packages resolve here)'
        : null
  const visit = (file: string) => {
    if (files.has(file)) return
    files.add(file)
    for (const spec of importsOf(join(root, file))) {
      const where = `${file}: '${spec}'`
      if (spec.startsWith('./') || spec.startsWith('../')) {
        const target = normalize(join(dirname(file), spec))
        if (target.startsWith('..')) problems.push(`${where} leaves the repository`)
        else if (!existsSync(join(root, target))) problems.push(`${where} does not exist`)
        else visit(target)
        continue
      }
      if (spec.startsWith('node:') || spec.startsWith('npm:')) continue
      const direct = refuse(spec)
      if (direct) {
        problems.push(`${where} is ${direct}`)
        continue
      }
      const key =
        spec in imports ? spec : Object.keys(imports).find((k) => k.endsWith('/') && spec.startsWith(k))
      const mapped = key === undefined ? undefined : imports[key]! + spec.slice(key.length)
      if (key !== undefined) used.add(key)
      if (!mapped) problems.push(`${where} is not in the import map`)
      else if (mapped.startsWith('./') || mapped.startsWith('../')) {
        // A path alias ("@shared/": "./shared/"), relative to the import map's folder.
        const target = normalize(join(importMapDir, mapped))
        if (target.startsWith('..')) problems.push(`${where} maps to ${mapped}, outside the repository`)
        else if (!existsSync(join(root, target)))
          problems.push(`${where} maps to ${mapped}, which does not exist`)
        else visit(target)
      } else if (!mapped.startsWith('npm:'))
        problems.push(`${where} maps to ${mapped}: ${refuse(mapped) ?? 'not an npm: package'}`)
    }
  }
  visit(entry)
  return { files: [...files].sort(), problems, used: [...used].sort() }
}
