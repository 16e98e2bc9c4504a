import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { type Browser, chromium, type Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { buildDashboard } from '../dashboard/build.ts'
import { hotPathOf } from '../shared/infra/hot-path/hot-path.ts'
import { REFUSAL_WINDOW_MS } from '../shared/infra/hot-path/request-log.ts'
import { startTestPlatform, type TestPlatform } from './support/platform.ts'

/**
 * The request log in a real browser (Debian's chromium, playwright-core) against the whole
 * platform: the Request log page with its filters, and a key's page with its latest requests and
 * its 24-hour chart, wide and 390 px narrow, with no console error. DASHBOARD_SCREENSHOTS=<folder>
 * saves the screenshots.
 */

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const SHOTS = process.env.DASHBOARD_SCREENSHOTS
const OWNER = { email: 'owner@log.example', password: 'owner password 1' }

let tp: TestPlatform
let browser: Browser
let page: Page
let dashboardUrl: string
const consoleErrors: string[] = []

async function shot(name: string, width = 1280): Promise<void> {
  const before = page.viewportSize()
  if (width !== before?.width) await page.setViewportSize({ width, height: width < 1000 ? 844 : 800 })
  await page.waitForTimeout(100)
  if (width < 1000) {
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(overflow, `${name} scrolls sideways at ${width} px`).toBeLessThanOrEqual(0)
  }
  if (SHOTS) {
    mkdirSync(SHOTS, { recursive: true })
    await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: width >= 1000 })
  }
  if (before && width !== before.width) await page.setViewportSize(before)
}

async function go(hash: string): Promise<void> {
  await page.goto(`${dashboardUrl}${hash}`)
  await page.reload()
  await page.locator('main h1').first().waitFor()
}

const pageToken = () =>
  page.evaluate(() => {
    const key = Object.keys(localStorage).find((k) => k.endsWith('-auth-token'))!
    return JSON.parse(localStorage.getItem(key)!).access_token as string
  })

const browserMissing = !existsSync(CHROMIUM) && !process.env.CI
if (browserMissing)
  console.warn(
    `tests/dashboard-request-log.test.ts skipped: no chromium at ${CHROMIUM} (apt-get install chromium)`,
  )

beforeAll(async () => {
  if (browserMissing) return
  await buildDashboard()
  tp = await startTestPlatform()
  dashboardUrl = `${tp.baseUrl}/dashboard/`
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
  page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage()
  page.setDefaultTimeout(15_000)
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(`${m.text()} (${m.location().url})`)
  })
  page.on('pageerror', (e) => consoleErrors.push(String(e)))
}, 90_000)

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail' && page)
    await page
      .screenshot({ path: join(process.env.TMPDIR ?? '/tmp', 'dashboard-request-log-failure.png') })
      .catch(() => {})
})

afterAll(async () => {
  await browser?.close()
  await tp?.close()
})

describe.skipIf(browserMissing)('the request log in a browser', { timeout: 60_000 }, () => {
  let keyId: string
  /** Rows the key's four requests made (the two refusals may share one). */
  let rows = 0

  it("lists the workspace's requests and narrows them by key, status and path", async () => {
    await page.goto(dashboardUrl)
    await page.getByRole('tab', { name: 'Create an account' }).click()
    await page.getByLabel('E-mail').fill(OWNER.email)
    await page.getByLabel('Password').fill(OWNER.password)
    await page.getByRole('button', { name: 'Sign up' }).click()
    await page.getByLabel('Workspace name').fill('Log Co')
    await page.getByRole('button', { name: 'Create workspace' }).click()
    await page.getByRole('heading', { name: 'Welcome to Log Co' }).waitFor()

    const token = await pageToken()
    const made = await tp.json('/api/api-keys', {
      token,
      body: {
        name: 'Website build',
        environment: 'production',
        scopes: ['content:read'],
        rate_limit_per_minute: 2,
      },
    })
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    keyId = made.body.id
    const statuses: number[] = []
    for (const path of ['/v1/content', '/v1/content?limit=5', '/v1/content', '/v1/content']) {
      const res = await tp.request(path, { token: made.body.key })
      await res.arrayBuffer()
      statuses.push(res.status)
    }
    expect(statuses).toContain(429)
    // The refusals over the limit are counted per key and minute: written now, as after the minute.
    await hotPathOf(tp.instances[0]!.platform.deps).requestLog.flush(Date.now() + REFUSAL_WINDOW_MS)
    const deadline = Date.now() + 5000
    const written = async () =>
      (
        await tp.db.sql<{ rows: number; requests: number }[]>`
          select count(*)::int as rows, coalesce(sum(requests), 0)::int as requests
          from public.api_request_log where key_id = ${keyId}`
      )[0]!
    while ((await written()).requests < 4) {
      if (Date.now() > deadline) throw new Error('the requests were never written')
      await new Promise((r) => setTimeout(r, 100))
    }
    rows = (await written()).rows

    await page.getByRole('link', { name: 'Request log' }).click()
    await page.getByRole('heading', { name: 'Request log' }).waitFor()
    const keyRows = page.locator('table.request-log tbody tr', { hasText: 'Website build' })
    await keyRows.first().waitFor()
    expect(await keyRows.count()).toBe(rows)
    await page.getByText('over the limit').first().waitFor()
    await shot('request-log')
    await shot('request-log-narrow', 390)

    await page.getByLabel('Status').selectOption('429')
    await page.locator('table.request-log tbody tr').first().waitFor()
    // Two refusals: one row counting both, or (across a flush) one each.
    const refusalRows = rows - statuses.filter((s) => s !== 429).length
    await expect
      .poll(() => page.locator('table.request-log tbody tr').evaluateAll((r) => r.length))
      .toBe(refusalRows)
    expect(await page.locator('table.request-log .pill').allTextContents()).toEqual(
      Array.from({ length: refusalRows }, () => '429'),
    )
    if (refusalRows === 1) await page.getByText('over the limit: 2 requests refused').waitFor()

    await page.getByLabel('Status').selectOption('')
    await page.getByLabel('Key', { exact: true }).selectOption(keyId)
    await page.getByLabel('Path starts with').fill('/api/')
    await page.getByRole('button', { name: 'Filter' }).click()
    await page.getByText('No requests match.').waitFor()
    await page.getByLabel('Path starts with').fill('/v1/content')
    await page.getByRole('button', { name: 'Filter' }).click()
    await keyRows.first().waitFor()
    expect(await keyRows.count()).toBe(rows)

    // The dashboard's own requests name the member who made them (written within the flush bound).
    await page.getByLabel('Key', { exact: true }).selectOption('')
    await page.getByLabel('Path starts with').fill('/api/')
    const memberRows = page.locator('table.request-log tbody tr', { hasText: 'owner signed in' })
    await expect
      .poll(async () => {
        await page.getByRole('button', { name: 'Filter' }).click()
        await page.locator('table.request-log tbody tr').first().waitFor()
        return memberRows.count()
      })
      .toBeGreaterThan(0)
  })

  it("shows a key's latest requests and its last 24 hours", async () => {
    await go('#/keys')
    await page.getByRole('link', { name: 'Website build' }).click()
    await page.getByRole('heading', { name: /Website build/ }).waitFor()
    const chart = page.getByRole('img', { name: /Last 24 hours: 4 requests, \d refused or failed/ })
    await chart.waitFor()
    expect(await chart.locator('rect.day').count()).toBe(24)
    expect(await page.locator('table.request-log tbody tr').count()).toBe(rows)
    await shot('api-key-requests')
    await shot('api-key-requests-narrow', 390)
    await page.getByRole('link', { name: "All of this key's requests in the request log" }).click()
    await page.getByRole('heading', { name: 'Request log' }).waitFor()
    await expect.poll(() => page.getByLabel('Key', { exact: true }).inputValue()).toBe(keyId)
    await page.locator('table.request-log tbody tr').first().waitFor()
    expect(await page.locator('table.request-log tbody tr').count()).toBe(rows)
    expect(consoleErrors).toEqual([])
  })
})
