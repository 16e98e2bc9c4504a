/**
 * `npm run build:dashboard`: bundles the tenant dashboard (dashboard/src) with esbuild
 * into dist/dashboard/: index.html, app.js, app.css, favicon.svg. The result is a static site for any host;
 * it reads its settings from config.js beside index.html (window.DASHBOARD_CONFIG = {supabaseUrl,
 * supabaseAnonKey}), which the local platform serves itself and which
 *   npm run build:dashboard -- --supabase-url https://<project>.supabase.co --anon-key <key>
 * writes for a deployment. Beside them go the security headers for static hosts, in the two
 * common forms: `_headers` (Netlify, Cloudflare Pages) and `vercel.json`; the policy lets the
 * dashboard call the given Supabase URL (or any *.supabase.co project without one).
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { basename, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { gzipSync } from 'node:zlib'
import { DOCUMENT_HEADERS, dashboardCsp } from '@shared/infra/http/security-headers.ts'
import { build } from 'esbuild'
import { dashboardOutDir } from './out-dir.ts'

const here = fileURLToPath(new URL('.', import.meta.url))

export interface DashboardBuild {
  outdir: string
  /** What the first page loads: app.js, the chunks it imports, app.css and index.html; raw and gzip. */
  bytes: number
  gzipBytes: number
  /** The chunks loaded later by import(), each raw and gzip-compressed, by file name. */
  lazy: { file: string; bytes: number; gzipBytes: number }[]
}

export async function buildDashboard(
  opts: { outdir?: string; supabaseUrl?: string; anonKey?: string } = {},
): Promise<DashboardBuild> {
  const outdir = opts.outdir ?? dashboardOutDir
  mkdirSync(outdir, { recursive: true })
  // Splitting: a dynamic import() becomes a chunk of its own, fetched when first needed. Chunks lie
  // flat beside app.js (a static host serves one folder; the local platform serves flat names only).
  const result = await build({
    entryPoints: { app: join(here, 'src/main.tsx') },
    // Pages are TSX on preact's automatic runtime (dashboard/tsconfig.json says the same to tsc).
    jsx: 'automatic',
    jsxImportSource: 'preact',
    outdir,
    splitting: true,
    chunkNames: '[name]-[hash]',
    metafile: true,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2020',
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
  })
  copyFileSync(join(here, 'src/app.css'), join(outdir, 'app.css'))
  copyFileSync(join(here, 'src/favicon.svg'), join(outdir, 'favicon.svg'))
  if (opts.supabaseUrl && opts.anonKey) {
    const config = { supabaseUrl: opts.supabaseUrl, supabaseAnonKey: opts.anonKey }
    writeFileSync(join(outdir, 'config.js'), `window.DASHBOARD_CONFIG = ${JSON.stringify(config)}\n`)
  }
  const headers = staticHostHeaders(opts.supabaseUrl)
  writeFileSync(join(outdir, '_headers'), headersFile(headers))
  writeFileSync(join(outdir, 'vercel.json'), `${JSON.stringify(vercelConfig(headers), null, 2)}\n`)
  // The first load: app.js and what it imports statically; every other chunk is lazy.
  const outputs = result.metafile.outputs
  const name = (path: string) => basename(path)
  const eager = new Set<string>()
  const visit = (path: string) => {
    if (eager.has(name(path))) return
    eager.add(name(path))
    for (const i of outputs[path]?.imports ?? []) if (i.kind === 'import-statement') visit(i.path)
  }
  visit(Object.keys(outputs).find((p) => name(p) === 'app.js')!)
  const size = (f: string) => {
    const data = readFileSync(join(outdir, f))
    return { bytes: data.length, gzipBytes: gzipSync(data).length }
  }
  // The chunks app.js imports are fetched with it, not after it has been parsed.
  const preload = [...eager]
    .filter((f) => f !== 'app.js')
    .map((f) => `  <link rel="modulepreload" href="${f}" />\n`)
    .join('')
  const page = readFileSync(join(here, 'src/index.html'), 'utf8')
  writeFileSync(join(outdir, 'index.html'), page.replace('  <script type="module"', `${preload}$&`))
  let bytes = 0
  let gzipBytes = 0
  for (const f of ['index.html', 'app.css', ...eager]) {
    const s = size(f)
    bytes += s.bytes
    gzipBytes += s.gzipBytes
  }
  const lazy = Object.keys(outputs)
    .map(name)
    .filter((f) => f.endsWith('.js') && !eager.has(f))
    .map((file) => ({ file, ...size(file) }))
  return { outdir, bytes, gzipBytes, lazy }
}

/** The headers a static host sends with every file of the dashboard. */
export function staticHostHeaders(supabaseUrl?: string): [string, string][] {
  const api = supabaseUrl ? new URL(supabaseUrl).origin : 'https://*.supabase.co'
  return [...DOCUMENT_HEADERS, ['Content-Security-Policy', dashboardCsp([api])]]
}

/** Netlify's and Cloudflare Pages' `_headers` form: a path, then indented `Name: value` lines. */
export function headersFile(headers: [string, string][]): string {
  return `/*\n${headers.map(([name, value]) => `  ${name}: ${value}\n`).join('')}`
}

/** Vercel's `headers` setting for every path. */
export function vercelConfig(headers: [string, string][]) {
  return { headers: [{ source: '/(.*)', headers: headers.map(([key, value]) => ({ key, value })) }] }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      'supabase-url': { type: 'string' },
      'anon-key': { type: 'string' },
      outdir: { type: 'string' },
    },
  })
  const result = await buildDashboard({
    outdir: values.outdir,
    supabaseUrl: values['supabase-url'],
    anonKey: values['anon-key'],
  })
  const kib = (n: number) => (n / 1024).toFixed(1)
  console.log(
    `dashboard ${result.outdir}: ${kib(result.bytes)} KiB, ${kib(result.gzipBytes)} KiB gzip on first load` +
      result.lazy
        .map((c) => `\n  + ${c.file}: ${kib(c.bytes)} KiB, ${kib(c.gzipBytes)} KiB gzip, loaded when needed`)
        .join('') +
      (values['supabase-url']
        ? ''
        : '\n(no config.js written: pass --supabase-url and --anon-key for a deployment)'),
  )
}
