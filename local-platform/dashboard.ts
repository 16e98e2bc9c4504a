import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { dashboardOutDir } from '@dashboard/out-dir.ts'
import { dashboardCsp } from '@shared/infra/http/security-headers.ts'
import type { Hono } from 'hono'
import { compress } from 'hono/compress'

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.map': 'application/json',
}

/**
 * Serves the built dashboard at /dashboard/ from the build folder, like any static host would,
 * with its config.js made per request: the Supabase URL is this platform's own origin and the
 * key is its anon key.
 */
export function serveDashboard(
  app: Hono,
  opts: {
    anonKey: string
    dir?: string /** DASHBOARD_URL's origin, where users open it. */
    publicOrigin?: string
  },
): void {
  const dir = opts.dir ?? dashboardOutDir
  app.get('/dashboard', (c) => c.redirect('/dashboard/', 302))
  app.use('/dashboard/*', compress())
  app.get('/dashboard/config.js', (c) => {
    const config = { supabaseUrl: new URL(c.req.url).origin, supabaseAnonKey: opts.anonKey }
    return c.body(`window.DASHBOARD_CONFIG = ${JSON.stringify(config)}\n`, 200, {
      'content-type': types['.js']!,
      'cache-control': 'no-store',
    })
  })
  app.get('/dashboard/*', async (c) => {
    const name = c.req.path.slice('/dashboard/'.length) || 'index.html'
    // Flat folder of known files: no path separators, no dot-files.
    if (!/^[\w-]+(\.[\w-]+)+$/.test(name)) return c.notFound()
    const type = types[name.slice(name.lastIndexOf('.'))]
    if (!type) return c.notFound()
    const body = await readFile(join(dir, name)).catch(() => null)
    if (!body) {
      if (name === 'index.html') {
        return c.text('The dashboard is not built: run npm run build:dashboard', 404)
      }
      return c.notFound()
    }
    return c.body(body, 200, {
      'content-type': type,
      'cache-control': name === 'index.html' ? 'no-cache' : 'public, max-age=300',
      // The page's own origin ('self'), and where else its files may come from when a front-end
      // server on another origin (DASHBOARD_URL) passes them on: this platform's origin as the
      // request names it, which config.js also sends the API calls to.
      ...(type === types['.html']
        ? {
            'content-security-policy': dashboardCsp(
              [],
              [...new Set([new URL(c.req.url).origin, ...(opts.publicOrigin ? [opts.publicOrigin] : [])])],
            ),
          }
        : {}),
    })
  })
}
