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
import { copyFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { gzipSync } from 'node:zlib'
import { DOCUMENT_HEADERS, dashboardCsp } from '@shared/infra/http/security-headers.ts'
import { build } from 'esbuild'

import { dashboardOutDir } from '../local-platform/dashboard.ts'

const here = fileURLToPath(new URL('.', import.meta.url))

export interface DashboardBuild {
  outdir: string
  /** app.js + app.css + index.html, raw and gzip-compressed, in bytes. */
  bytes: number
  gzipBytes: number
}

export async function buildDashboard(
  opts: { outdir?: string; supabaseUrl?: string; anonKey?: string } = {},
): Promise<DashboardBuild> {
  const outdir = opts.outdir ?? dashboardOutDir
  mkdirSync(outdir, { recursive: true })
  await build({
    entryPoints: [join(here, 'src/main.ts')],
    outfile: join(outdir, 'app.js'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2020',
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
  })
  copyFileSync(join(here, 'src/index.html'), join(outdir, 'index.html'))
  copyFileSync(join(here, 'src/app.css'), join(outdir, 'app.css'))
  copyFileSync(join(here, 'src/favicon.svg'), join(outdir, 'favicon.svg'))
  if (opts.supabaseUrl && opts.anonKey) {
    const config = { supabaseUrl: opts.supabaseUrl, supabaseAnonKey: opts.anonKey }
    writeFileSync(join(outdir, 'config.js'), `window.DASHBOARD_CONFIG = ${JSON.stringify(config)}\n`)
  }
  const headers = staticHostHeaders(opts.supabaseUrl)
  writeFileSync(join(outdir, '_headers'), headersFile(headers))
  writeFileSync(join(outdir, 'vercel.json'), `${JSON.stringify(vercelConfig(headers), null, 2)}\n`)
  let bytes = 0
  let gzipBytes = 0
  for (const f of ['index.html', 'app.js', 'app.css']) {
    bytes += statSync(join(outdir, f)).size
    gzipBytes += gzipSync(readFileSync(join(outdir, f))).length
  }
  return { outdir, bytes, gzipBytes }
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
  console.log(
    `dashboard ${result.outdir}: ${(result.bytes / 1024).toFixed(1)} KiB, ${(result.gzipBytes / 1024).toFixed(1)} KiB gzip` +
      (values['supabase-url']
        ? ''
        : '\n(no config.js written: pass --supabase-url and --anon-key for a deployment)'),
  )
}
