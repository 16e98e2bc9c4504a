import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import bcrypt from 'bcryptjs'
import { type Browser, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildDashboard } from '../dashboard/build.ts'
import { type McpTestServer, startMcpServer } from './support/mcp-server.ts'
import { startTestPlatform, type TestPlatform, type TestTenant } from './support/platform.ts'

/**
 * The integrations page in a real browser: the catalog offers only categories with integrations,
 * an OAuth integration this deployment cannot offer names the operator's settings, an MCP server
 * without a token connects without one, and an OAuth-protected one (the platform's own tool
 * server) connects from the same form through its sign-in and consent.
 * DASHBOARD_SCREENSHOTS=<folder> saves screenshots there.
 */

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const SHOTS = process.env.DASHBOARD_SCREENSHOTS
const PASSWORD = 'integrations password 1'
const browserMissing = !existsSync(CHROMIUM) && !process.env.CI

let tp: TestPlatform
let open: McpTestServer
let owner: TestTenant
let browser: Browser
let page: Page

async function shot(name: string) {
  if (!SHOTS) return
  mkdirSync(SHOTS, { recursive: true })
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true })
}

beforeAll(async () => {
  if (browserMissing) return
  await buildDashboard()
  ;[tp, open] = await Promise.all([
    // A public address nothing answers at (the redirects there are sent on below): the platform
    // registers at the authorization server rather than naming itself by its document.
    startTestPlatform({ env: { PUBLIC_URL: 'http://127.0.0.1:9' } }),
    startMcpServer({ transport: 'streamableHttp', auth: { type: 'none' } }),
  ])
  owner = await tp.createTenant({ tenant: 'Catalog Co' })
  await tp.db.sql`update auth.users set encrypted_password = ${await bcrypt.hash(PASSWORD, 4)}
    where id = ${owner.userId}`
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  })
  page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage()
  // The platform's configured public and dashboard addresses name the default port; the test
  // platform listens on another. Redirects there are sent on to the real one (cookies are per host).
  const config = tp.instances[0]!.platform.deps.config
  for (const configured of new Set([
    new URL(config.PUBLIC_URL).origin,
    new URL(config.DASHBOARD_URL).origin,
  ])) {
    if (configured === new URL(tp.baseUrl).origin) continue
    await page.route(
      (url) => url.origin === configured,
      (route) => {
        const url = new URL(route.request().url())
        return route.fulfill({
          status: 302,
          headers: { location: `${tp.baseUrl}${url.pathname}${url.search}` },
        })
      },
    )
  }
  await page.goto(`${tp.baseUrl}/dashboard/`)
  await page.getByLabel('E-mail').fill(owner.email)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('form', { name: 'Sign in' }).getByRole('button', { name: 'Sign in' }).click()
  await page.getByRole('heading', { name: 'Welcome to Catalog Co' }).waitFor()
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await Promise.all([open?.close(), tp?.close()])
})

const openCatalog = async () => {
  await page.goto(`${tp.baseUrl}/dashboard/#/integrations`)
  await page.reload()
  await page.getByRole('heading', { name: 'Catalog' }).waitFor()
  await page.getByRole('article', { name: 'Custom MCP server' }).waitFor()
}

const connectForm = async (auth: string, url: string, name: string) => {
  await page
    .getByRole('article', { name: 'Custom MCP server' })
    .getByRole('button', { name: 'Connect MCP server' })
    .click()
  await page.getByLabel('Server URL').fill(url)
  await page.getByLabel('Display name (optional)').fill(name)
  await page.getByLabel('Authentication').selectOption(auth)
}

describe.skipIf(browserMissing)('the integrations catalog in a browser', () => {
  it('offers only categories with integrations, and names the settings an OAuth integration needs', async () => {
    await openCatalog()
    const filters = await page.getByRole('group', { name: 'Category' }).getByRole('button').allTextContents()
    expect(filters[0]).toBe('All')
    for (const f of filters.slice(1)) expect(f).toMatch(/\((?:[1-9]\d*)\)$/)
    expect(filters.join(' ')).not.toMatch(/analytics|crm|ecommerce/)
    // No OAuth client configured here: the card says what the operator sets, no greyed button.
    const notion = page.getByRole('article', { name: 'Notion' })
    expect(await notion.locator('[data-oauth-settings]').textContent()).toContain(
      'OAUTH_NOTION_CLIENT_ID and OAUTH_NOTION_CLIENT_SECRET',
    )
    expect(await notion.getByRole('button', { name: /OAuth/ }).count()).toBe(0)
    expect(await page.locator('button[disabled]').count()).toBe(0)
    await shot('integrations-catalog')
  })

  it('connects an MCP server that takes no token without one', async () => {
    await openCatalog()
    await connectForm('none', open.url, 'Open tools')
    // The token field is gone for a server without credentials.
    expect(await page.getByLabel('Token', { exact: true }).count()).toBe(0)
    await shot('integrations-connect-none')
    await page.getByRole('button', { name: 'Connect', exact: true }).click()
    await page.getByRole('heading', { name: 'Open tools' }).waitFor({ timeout: 30_000 })
    // Its tools, listed without a credential (the table loads after the heading).
    await page.getByText('custom-mcp:echo', { exact: true }).first().waitFor()
  })

  it('connects an OAuth-protected MCP server from the same form: sign-in, consent, back connected', async () => {
    await openCatalog()
    await connectForm('oauth', `${tp.baseUrl}/mcp`, 'Own tool server')
    await page.getByRole('button', { name: 'Connect', exact: true }).click()
    // The server's authorization server: here the platform's own consent page.
    await page.getByRole('heading', { name: 'Connect an MCP client' }).waitFor({ timeout: 30_000 })
    expect(await page.locator('.client-name').textContent()).toBe('Tenant platform integrations')
    await shot('integrations-oauth-consent')
    await page.getByRole('button', { name: 'Approve' }).click()
    await page.getByText('Connected custom-mcp.').waitFor({ timeout: 30_000 })
    await openCatalog()
    const row = page.getByRole('row', { name: /Own tool server/ })
    expect(await row.textContent()).toContain('MCP (streamable_http, OAuth)')
    await shot('integrations-oauth-connected')
  })
})
