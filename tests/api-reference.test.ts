import { existsSync, mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import SwaggerParser from '@apidevtools/swagger-parser'
import { type Browser, chromium } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { functionModules } from '../local-platform/functions.ts'
import { publicRoutes } from '../shared/infra/http/public-routes.ts'
import { setupTimeout, startTestPlatform, type TestPlatform } from './support/platform.ts'

/**
 * The API reference at /docs: one OpenAPI 3.1 document for every function, at the public paths,
 * shown by Scalar's bundle served from the platform. A real browser opens it and every request it
 * makes is recorded: any to another origin fails the test (the page must work offline).
 * API_REFERENCE_SCREENSHOT=<file> saves what the browser showed.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const browserMissing = !existsSync(CHROMIUM) && !process.env.CI
/** The first render's upper bound in the test: loose, as CI's cores are shared (measured ~1.5–3 s idle). */
const RENDER_BOUND_MS = 10_000

let tp: TestPlatform
// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document, read generically
let doc: any

beforeAll(async () => {
  tp = await startTestPlatform()
  doc = (await tp.json('/docs/openapi.json')).body
}, 120_000)

afterAll(async () => {
  await tp?.close()
})

describe('the /docs page', () => {
  it('loads only scripts of this origin, with no inline script, and turns off fonts, proxy and telemetry', async () => {
    const html = await (await tp.request('/docs')).text()
    expect([...html.matchAll(/<script([^>]*)>/g)].map(([, attrs]) => attrs)).toEqual([
      ' type="module" src="/docs/scalar.js"',
      ' type="module" src="/docs/config.js"',
    ])
    expect(html).not.toMatch(/https?:\/\//)
    const script = await (await tp.request('/docs/config.js')).text()
    const config = JSON.parse(script.match(/^Scalar\.createApiReference\('#app', (.*)\)\n$/)![1]!)
    expect(config).toMatchObject({
      url: '/docs/openapi.json',
      withDefaultFonts: false,
      proxyUrl: '',
      telemetry: false,
    })
    expect(script).not.toMatch(/https?:\/\//)
  })
})

describe('the API reference document', () => {
  it('is valid OpenAPI 3.1', async () => {
    expect(doc.openapi).toBe('3.1.0')
    // The validator dereferences in place: give it a copy.
    await expect(SwaggerParser.validate(structuredClone(doc))).resolves.toBeTruthy()
  })

  it('holds every operation of every function once, at its public path where the route table has one', async () => {
    let operations = 0
    for (const m of functionModules) {
      const own = (await tp.json(`/functions/v1/${m.functionName}/openapi.json`)).body
      for (const [path, item] of Object.entries<Record<string, unknown>>(own.paths)) {
        for (const method of Object.keys(item)) {
          operations++
          const functionPath = `/functions/v1/${m.functionName}${path === '/' ? '' : path}`
          const found = Object.entries<Record<string, { 'x-function-path'?: string }>>(doc.paths).filter(
            ([, ops]) => ops[method]?.['x-function-path'] === functionPath,
          )
          expect(
            found.map(([p]) => p),
            `${method} ${functionPath}`,
          ).toHaveLength(1)
          const [publicPath] = found[0]!
          const route = publicRoutes.find((r) => r.fn === m.functionName && publicPath.startsWith(r.prefix))
          if (!path.startsWith('/jobs/') && route) expect(publicPath.startsWith('/functions/v1/')).toBe(false)
          expect(doc.paths[publicPath][method].tags).toEqual([m.functionName])
        }
      }
    }
    const merged = Object.values<Record<string, unknown>>(doc.paths).flatMap((ops) => Object.keys(ops))
    expect(merged).toHaveLength(operations)
    expect(doc.paths['/api/usage-alerts/{id}'].delete['x-function-path']).toBe(
      '/functions/v1/usage/alerts/{id}',
    )
    expect(doc.paths['/v1/content'].get.description).toContain(
      'Supabase address: `GET /functions/v1/content`',
    )
    expect(doc.tags.map((t: { name: string }) => t.name)).toEqual(functionModules.map((m) => m.functionName))
  })
})

describe.skipIf(browserMissing)('the API reference in a browser', () => {
  let browser: Browser

  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
    })
  }, setupTimeout())

  afterAll(async () => {
    await browser?.close()
  })

  it('shows the sidebar and the first operation soon after the page is opened', async () => {
    // Each try in a fresh context: nothing cached. The goal is under 3 s on an idle 2-core machine
    // (docs/performance.md has the figures); CI shares its cores with the other test files, so the
    // better of two tries is held to a loose bound that catches a return to the old ~10 s.
    const firstRender = async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
      const page = await context.newPage()
      const started = performance.now()
      await page.goto(`${tp.baseUrl}/docs`)
      await page
        .locator('nav, aside')
        .getByText('api-keys', { exact: true })
        .first()
        .waitFor({ timeout: 30_000 })
      const sidebar = performance.now() - started
      await page.getByRole('heading', { level: 3, name: 'Create an API key' }).waitFor({ timeout: 30_000 })
      const firstOperation = performance.now() - started
      await context.close()
      console.info(
        `/docs first render: sidebar ${Math.round(sidebar)} ms, first operation ${Math.round(firstOperation)} ms`,
      )
      return firstOperation
    }
    const best = Math.min(await firstRender(), await firstRender())
    expect(best).toBeLessThan(RENDER_BOUND_MS)
  }, 90_000)

  it('asks nothing of any other host, shows every function, and finds any of them in one search', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    const requests: string[] = []
    page.on('request', (req) => requests.push(req.url()))
    const failed: string[] = []
    page.on('requestfailed', (req) => failed.push(req.url()))
    const errors: string[] = []
    page.on('pageerror', (err) => errors.push(String(err)))

    await page.goto(`${tp.baseUrl}/docs`)
    await page.getByText('Tenant Platform API').first().waitFor({ timeout: 30_000 })
    // The sidebar lists each function as a group.
    for (const name of ['api-keys', 'content', 'webhooks', 'assistant'])
      await expect(page.getByText(name, { exact: true }).first().isVisible()).resolves.toBe(true)

    // One search covers every function: a term from one and a term from another.
    await page.keyboard.press('Control+k')
    const search = page.getByRole('combobox').or(page.locator('input[type="search"]')).first()
    await search.waitFor()
    await search.fill('Revoke an API key')
    await page.getByText('Revoke an API key').first().waitFor()
    await search.fill('usage alert')
    await expect(page.getByRole('option').filter({ hasText: /alert/i }).count()).resolves.toBeGreaterThan(0)
    const shot = process.env.API_REFERENCE_SCREENSHOT
    if (shot) {
      mkdirSync(dirname(shot), { recursive: true })
      await page.screenshot({ path: shot })
    }
    await page.keyboard.press('Escape')
    await page.waitForTimeout(1500) // anything the page starts late (fonts, telemetry) is asked by now

    const origin = new URL(tp.baseUrl).origin
    const offsite = requests.filter((url) => !url.startsWith('data:') && new URL(url).origin !== origin)
    expect(offsite).toEqual([])
    expect(failed).toEqual([])
    expect(errors).toEqual([])
    expect(requests).toEqual(
      expect.arrayContaining([
        `${origin}/docs/scalar.js`,
        `${origin}/docs/config.js`,
        `${origin}/docs/openapi.json`,
      ]),
    )
    await page.close()
  }, 90_000)
})
