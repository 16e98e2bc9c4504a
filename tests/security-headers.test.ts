import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { serve } from '@hono/node-server'
import { createFunctionApp } from '@shared/infra/http/function-app.ts'
import bcrypt from 'bcryptjs'
import { type Browser, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildDashboard } from '../dashboard/build.ts'
import { setupTimeout, startTestPlatform, type TestPlatform, type TestTenant } from './support/platform.ts'

/**
 * The security headers of HTML answers, and what they are for: no page of the platform can be
 * framed (the MCP consent page above all: a framed, invisible Approve button hands an attacker's
 * client the owner's tools), and the dashboard and the API reference still work under their
 * Content-Security-Policy in a real browser. A dashboard on a static host deployed without the
 * headers refuses to run framed by itself.
 */

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const browserMissing = !existsSync(CHROMIUM) && !process.env.CI
const PASSWORD = 'frame test password 1'

let tp: TestPlatform
let owner: TestTenant

beforeAll(async () => {
  await buildDashboard()
  tp = await startTestPlatform()
  owner = await tp.createTenant({ tenant: 'Frame Co' })
  await tp.db.sql`update auth.users set encrypted_password = ${await bcrypt.hash(PASSWORD, 4)}
                  where id = ${owner.userId}`
}, 90_000)

afterAll(async () => {
  await tp?.close()
})

function expectDocumentHeaders(res: Response, what: string) {
  expect(res.headers.get('content-type'), what).toMatch(/^text\/html/)
  expect(res.headers.get('x-frame-options'), what).toBe('DENY')
  expect(res.headers.get('x-content-type-options'), what).toBe('nosniff')
  expect(res.headers.get('referrer-policy'), what).toBe('no-referrer')
  const csp = res.headers.get('content-security-policy') ?? ''
  expect(csp, what).toContain("frame-ancestors 'none'")
  expect(csp, what).toContain("object-src 'none'")
  expect(csp, what).toContain("base-uri 'none'")
  // No page runs inline script it was not built with.
  const scriptSrc = (csp.match(/(?:^|;\s*)script-src ([^;]*)/)?.[1] ?? csp.match(/default-src ([^;]*)/)?.[1])!
  expect(scriptSrc, what).not.toContain("'unsafe-inline'")
  expect(scriptSrc, what).not.toContain("'unsafe-eval'")
  return csp
}

describe('security headers over HTTP', () => {
  it('every HTML page of the local platform forbids framing and sniffing and sends a policy', async () => {
    const html = { accept: 'text/html' }
    const index = await tp.request('/', { headers: html })
    const dashboard = await tp.request('/dashboard/')
    const docs = await tp.request('/docs')
    const mailbox = await tp.request('/_dev/mailbox', { headers: html })
    for (const [res, what] of [
      [index, 'GET /'],
      [dashboard, 'GET /dashboard/'],
      [docs, 'GET /docs'],
      [mailbox, 'GET /_dev/mailbox'],
    ] as const) {
      expect(res.status, what).toBe(200)
      expectDocumentHeaders(res, what)
    }
    // The dashboard: its own files only, no inline style either.
    // Beside 'self', only origins (this platform's, DASHBOARD_URL's): no keyword, no scheme.
    const policy = dashboard.headers.get('content-security-policy')!
    const directive = (name: string) => policy.match(new RegExp(`(?:^|; )${name} ([^;]*)`))?.[1]
    for (const name of ['script-src', 'style-src', 'connect-src'])
      expect(directive(name), name).toMatch(/^'self'( https?:\/\/[\w.-]+(:\d+)?)*$/)
    expect(directive('connect-src')).toContain(tp.baseUrl)
    // The reference page: its own script files only (its configuration is one of them).
    expect(docs.headers.get('content-security-policy')).toMatch(/script-src 'self'(;|$)/)
    // An SVG opened on its own is a page too (it can hold script): the same headers.
    const svg = await tp.request('/dashboard/favicon.svg')
    expect(svg.headers.get('content-type')).toMatch(/^image\/svg\+xml/)
    expect(svg.headers.get('x-frame-options')).toBe('DENY')
    expect(svg.headers.get('content-security-policy')).toContain("default-src 'none'")
    // The script-less pages: no script at all.
    expect(index.headers.get('content-security-policy')).toContain("default-src 'none'")
    expect(mailbox.headers.get('content-security-policy')).toContain("default-src 'none'")
  })

  it('every other answer is nosniff, from the platform and from the functions', async () => {
    for (const path of [
      '/health',
      '/functions/v1/content/health',
      '/v1/content',
      '/auth/v1/.well-known/jwks.json',
      '/dashboard/app.js',
      '/docs/openapi.json',
      '/docs/config.js',
      '/no-such-path',
    ]) {
      const res = await tp.request(path)
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff')
      await res.arrayBuffer()
    }
  })

  it("a function's own HTML answer gets the same headers from the function frame", async () => {
    const app = createFunctionApp('frame-probe', tp.instances[0]!.platform.deps, 'An HTML route')
    app.get('/page', (c) => c.html('<!doctype html><p>A page</p>'))
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' })
    await new Promise((resolve) => server.once('listening', resolve))
    try {
      const { port } = server.address() as AddressInfo
      const res = await fetch(`http://127.0.0.1:${port}/frame-probe/page`)
      expect(res.status).toBe(200)
      expect(expectDocumentHeaders(res, 'a function page')).toContain("default-src 'none'")
      const json = await fetch(`http://127.0.0.1:${port}/frame-probe/health`)
      expect(json.headers.get('x-content-type-options')).toBe('nosniff')
      expect(json.headers.get('x-frame-options')).toBeNull()
    } finally {
      server.close()
    }
  })

  it('the dashboard build writes the same headers for static hosts', async () => {
    const outdir = mkdtempSync(join(tmpdir(), 'dashboard-headers-'))
    try {
      await buildDashboard({ outdir, supabaseUrl: 'https://abcd.supabase.co/', anonKey: 'sb_publishable_x' })
      const served = await tp.request('/dashboard/')
      const file = readFileSync(join(outdir, '_headers'), 'utf8')
      const vercel = JSON.parse(readFileSync(join(outdir, 'vercel.json'), 'utf8'))
      const fromVercel = Object.fromEntries(
        vercel.headers[0].headers.map((h: { key: string; value: string }) => [h.key, h.value]),
      )
      expect(vercel.headers[0].source).toBe('/(.*)')
      expect(file.startsWith('/*\n')).toBe(true)
      for (const name of ['X-Frame-Options', 'X-Content-Type-Options', 'Referrer-Policy']) {
        expect(file).toContain(`\n  ${name}: ${served.headers.get(name)}\n`)
        expect(fromVercel[name]).toBe(served.headers.get(name))
      }
      // The served policy, with the Supabase project in connect-src and no other origin.
      const hosted = served.headers
        .get('content-security-policy')!
        .replaceAll(/ http:\/\/127\.0\.0\.1:\d+/g, '')
        .replace("connect-src 'self'", "connect-src 'self' https://abcd.supabase.co")
      expect(file).toContain(`\n  Content-Security-Policy: ${hosted}\n`)
      expect(fromVercel['Content-Security-Policy']).toBe(hosted)
    } finally {
      rmSync(outdir, { recursive: true, force: true })
    }
  })
})

/** A page on another origin of this machine: what an attacker's site serves. */
async function startPageServer(body: (path: string) => string): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8')
    res.end(body(req.url ?? '/'))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }
}

/** The dashboard's build folder on a host that sends no security headers at all. */
async function startBareStaticHost(dir: string): Promise<{ server: Server; origin: string }> {
  const types: Record<string, string> = {
    html: 'text/html',
    js: 'text/javascript',
    css: 'text/css',
    svg: 'image/svg+xml',
  }
  const server = createServer((req, res) => {
    const name = new URL(req.url ?? '/', 'http://x').pathname.slice(1) || 'index.html'
    if (!/^[\w-]+\.(html|js|css|svg)$/.test(name) || !existsSync(join(dir, name))) {
      res.statusCode = 404
      return res.end()
    }
    res.setHeader('content-type', types[name.split('.').pop()!]!)
    res.end(readFileSync(join(dir, name)))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }
}

/** An MCP client's authorization request, as an attacker starts it: the consent page's address. */
async function attackersConsentUrl(callback: string): Promise<{ url: string; requestId: string }> {
  const registered = await tp.json('/mcp/oauth/register', {
    body: { client_name: 'Innocent Notes', redirect_uris: [callback] },
  })
  expect(registered.status).toBe(201)
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: registered.body.client_id,
    redirect_uri: callback,
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
    state: 'attacker',
  })
  const res = await fetch(`${tp.baseUrl}/mcp/oauth/authorize?${query}`, { redirect: 'manual' })
  expect(res.status).toBe(302)
  const url = res.headers.get('location')!
  return { url, requestId: new URL(url).hash.replace('#/oauth/consent/', '') }
}

const framingPage = (src: string) => `<!doctype html><title>Win a prize</title>
  <button style="position:absolute;top:300px;left:40px">Click to win</button>
  <iframe src="${src}" width="900" height="700" style="opacity:0.01;position:absolute;top:0;left:0"></iframe>`

describe.skipIf(browserMissing)('in a browser', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--no-first-run',
      ],
    })
  }, setupTimeout())
  // A shared machine's browser can be slow to render a page: each wait may take a minute.
  const newContext = async () => {
    const context = await browser.newContext()
    context.setDefaultTimeout(60_000)
    return context
  }
  afterAll(async () => {
    await browser?.close()
  })

  /** Signs the owner in on the dashboard at `dashboardUrl`, as a person does. */
  async function signIn(page: Page, dashboardUrl: string) {
    await page.goto(dashboardUrl)
    await page.getByLabel('E-mail').fill(owner.email)
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByRole('form', { name: 'Sign in' }).getByRole('button', { name: 'Sign in' }).click()
    await page.getByRole('button', { name: 'Sign out' }).waitFor()
  }

  /** Console lines where the browser refused something under a Content-Security-Policy. */
  function cspViolations(page: Page): string[] {
    const seen: string[] = []
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) seen.push(m.text())
    })
    return seen
  }

  it('the consent page, framed on another site, does not load: the owner cannot be clicked through it', async () => {
    let codeSent = false
    const callback = await startPageServer((path) => {
      if (path.startsWith('/callback')) codeSent = true
      return 'ok'
    })
    const { url, requestId } = await attackersConsentUrl(`${callback.origin}/callback`)
    const attacker = await startPageServer(() => framingPage(url))
    const context = await newContext()
    try {
      const page = await context.newPage()
      await signIn(page, `${tp.baseUrl}/dashboard/`)
      // The signed-in owner visits the attacker's page and clicks its button.
      const refused = cspViolations(page)
      await page.goto(attacker.origin)
      await expect.poll(() => refused.join('\n'), { timeout: 10_000 }).toContain("frame-ancestors 'none'")
      const frame = page.frames().find((f) => f !== page.mainFrame())!
      expect(await frame.getByRole('button', { name: 'Approve' }).count()).toBe(0)
      await page.mouse.click(60, 310)
      await page.waitForTimeout(500)
      expect(codeSent).toBe(false)
      // The request is still undecided: no code was made.
      const [request] = await tp.db
        .sql`select code_hash from private.mcp_oauth_requests where id = ${requestId}`
      expect(request).toEqual({ code_hash: null })
    } finally {
      await context.close()
      attacker.server.close()
      callback.server.close()
    }
  }, 120_000)

  it('a dashboard on a static host without the headers refuses to run inside a frame', async () => {
    const outdir = mkdtempSync(join(tmpdir(), 'dashboard-bare-'))
    await buildDashboard({ outdir, supabaseUrl: tp.baseUrl, anonKey: tp.anonKey })
    const host = await startBareStaticHost(outdir)
    const callback = await startPageServer(() => 'ok')
    const { requestId } = await attackersConsentUrl(`${callback.origin}/callback`)
    const consent = `${host.origin}/#/oauth/consent/${requestId}`
    const attacker = await startPageServer(() => framingPage(consent))
    const context = await newContext()
    try {
      const page = await context.newPage()
      await signIn(page, `${host.origin}/`)
      // On its own the page works: the owner sees the request and could approve it.
      await page.goto(consent)
      await page.reload()
      await page.getByRole('heading', { name: 'Connect an MCP client' }).waitFor()
      await page.getByRole('button', { name: 'Approve' }).waitFor()
      // Framed, the same page shows nothing to click.
      await page.goto(attacker.origin)
      const frame = page.frames().find((f) => f !== page.mainFrame())!
      await frame.getByRole('alert').filter({ hasText: 'does not run inside another page' }).waitFor()
      expect(await frame.getByRole('button', { name: 'Approve' }).count()).toBe(0)
      expect(await frame.getByRole('heading', { name: 'Connect an MCP client' }).count()).toBe(0)
    } finally {
      await context.close()
      attacker.server.close()
      callback.server.close()
      host.server.close()
      rmSync(outdir, { recursive: true, force: true })
    }
  }, 120_000)

  it('the dashboard signs in and renders its pages under its policy, with nothing refused', async () => {
    const context = await newContext()
    try {
      const page = await context.newPage()
      const refused = cspViolations(page)
      await signIn(page, `${tp.baseUrl}/dashboard/`)
      for (const hash of ['#/home', '#/keys', '#/integrations', '#/usage', '#/mcp-clients', '#/team']) {
        await page.goto(`${tp.baseUrl}/dashboard/${hash}`)
        await page.locator('main h1').first().waitFor()
      }
      // The stylesheet applied (a style-src refusal would leave the page unstyled).
      const font = await page.locator('body').evaluate((el) => getComputedStyle(el).fontFamily)
      expect(font).not.toBe('')
      expect(refused).toEqual([])
    } finally {
      await context.close()
    }
  }, 120_000)

  it('the API reference renders under its policy, with nothing refused', async () => {
    const context = await newContext()
    try {
      const page = await context.newPage()
      const refused = cspViolations(page)
      await page.goto(`${tp.baseUrl}/docs`)
      // Scalar's reference, rendered from the first document it fetched.
      await page.getByRole('heading', { name: 'api-keys' }).waitFor({ timeout: 90_000 })
      await page.getByRole('heading', { name: /Create an API key/ }).waitFor()
      expect(refused).toEqual([])
    } finally {
      await context.close()
    }
  }, 120_000)
})
