/**
 * `npm run build`: bundles every function's Deno entry with esbuild into dist/<name>.js
 * (ESM; Node built-ins left as imports, which Deno provides) and prints each bundle's size.
 * Supabase deploys from the sources (supabase/config.toml); the bundles show what each
 * function weighs and prove that its whole import graph resolves.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'

const functions = readdirSync('functions')
  .filter((name) => existsSync(`functions/${name}/index.ts`))
  .sort()
const rows: string[] = []
for (const name of functions) {
  const outfile = `dist/${name}.js`
  await build({
    entryPoints: [`functions/${name}/index.ts`],
    outfile,
    bundle: true,
    format: 'esm',
    // Node built-ins (postgres.js needs net/tls) stay imports: Deno provides them, as does Node.
    platform: 'node',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
  })
  const bytes = statSync(outfile).size
  const gzip = gzipSync(readFileSync(outfile)).length
  rows.push(
    `${name.padEnd(20)} ${(bytes / 1024).toFixed(1).padStart(8)} KiB   ${(gzip / 1024).toFixed(1).padStart(7)} KiB gzip`,
  )
}
console.log(`function             bundle          compressed\n${rows.join('\n')}`)
