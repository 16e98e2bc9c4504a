import { readdirSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { apiReferenceDocument, type FunctionDocument } from '@shared/infra/http/openapi.ts'
import { toPublicPath } from '@shared/infra/http/public-routes.ts'
import { contentSecurityPolicy } from '@shared/infra/http/security-headers.ts'
import type { Hono } from 'hono'

const require = createRequire(import.meta.url)

/**
 * Scalar's browser build: the ES module build, which loads what the first render needs (22 of its
 * 231 chunks) rather than the 4.9 MB classic bundle whole. The package exports no `browser/` path,
 * so it is found beside the package's entry (`dist/index.js`).
 */
const browserBuild = join(dirname(require.resolve('@scalar/api-reference')), 'browser')

type FunctionHandler = (req: Request) => Response | Promise<Response>

/**
 * What the reference page configures (served as /docs/config.js, so the page has no inline
 * script). Everything comes from this origin: no web fonts from Scalar's font host (the page uses
 * the system's fonts), no request proxy (the "try it" client calls this origin directly), no
 * telemetry, no developer toolbar and no agent (both link to Scalar's services).
 */
const apiReferenceConfig = {
  url: '/docs/openapi.json',
  withDefaultFonts: false,
  proxyUrl: '',
  telemetry: false,
  showDeveloperTools: 'never',
  agent: { disabled: true },
  mcp: { disabled: true },
  hideClientButton: true,
  documentDownloadType: 'json',
} as const

const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tenant Platform API</title>
</head>
<body>
<div id="app"></div>
<script type="module" src="/docs/scalar.js"></script>
<script type="module" src="/docs/config.js"></script>
</body>
</html>
`

/**
 * The reference page's policy: its scripts and documents come from this origin only. Scalar adds
 * its own <style> elements at run time, hence inline style; the page itself has no inline script.
 */
const referencePolicy = contentSecurityPolicy({
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'", 'data:'],
  'form-action': ["'none'"],
})

/**
 * The interactive API reference at /docs: one OpenAPI document for every function
 * (/docs/openapi.json, apiReferenceDocument), shown by Scalar's standalone bundle served from
 * this platform, so the page works offline and asks no other host for anything.
 */
export function serveApiReference(root: Hono, handlers: Map<string, FunctionHandler>): void {
  root.get('/docs', (c) => c.html(page, 200, { 'Content-Security-Policy': referencePolicy }))
  // The module's entry (0.7 MB) and its chunks, each read once on first use. Only the build's own
  // chunk names are served: the name is looked up, never joined to a path from the request.
  const files = new Map<string, Promise<string>>()
  const read = (file: string) => {
    const known = files.get(file)
    if (known) return known
    const text = readFile(join(browserBuild, file), 'utf8')
    files.set(file, text)
    return text
  }
  const chunks = new Set(readdirSync(join(browserBuild, 'chunks')).filter((f) => f.endsWith('.js')))
  const script = async (file: string) =>
    new Response(await read(file), {
      headers: {
        'content-type': 'text/javascript; charset=utf-8',
        'cache-control': 'public, max-age=86400',
      },
    })
  root.get('/docs/scalar.js', () => script('standalone.esm.js'))
  root.get('/docs/chunks/:file', (c) => {
    const file = c.req.param('file')
    return chunks.has(file) ? script(`chunks/${file}`) : c.notFound()
  })
  root.get('/docs/config.js', (c) =>
    c.body(`Scalar.createApiReference('#app', ${JSON.stringify(apiReferenceConfig)})\n`, 200, {
      'content-type': 'text/javascript; charset=utf-8',
    }),
  )
  // Built once from the functions' own documents (they do not change while the process runs).
  let document: Promise<unknown> | undefined
  root.get('/docs/openapi.json', async (c) => {
    document ??= Promise.all(
      [...handlers].map(async ([name, handler]) => {
        const res = await handler(new Request(`http://platform.local/functions/v1/${name}/openapi.json`))
        return { name, document: (await res.json()) as FunctionDocument['document'] }
      }),
    ).then((docs) => apiReferenceDocument(docs, toPublicPath))
    return c.json(await document)
  })
}
