import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildDashboard } from '../dashboard/build.ts'
import { chromiumMissing, openBrowser, screenshot, signUpWithWorkspace } from './support/chromium.ts'
import { startTestPlatform, type TestPlatform } from './support/platform.ts'

/**
 * The MCP consent page in Chromium: an owner approves an MCP client's sign-in with or without tool
 * search, and the code it gives carries that choice to the grant, which lists the tools that way (docs/mcp.md "Tool search").
 * DASHBOARD_SCREENSHOTS=<folder> saves the screenshot.
 */

const USER = { email: 'owner@consent.example', password: 'owner consent password' }
const missing = chromiumMissing('tests/dashboard-mcp-consent.test.ts')

let tp: TestPlatform
let browser: Browser
let page: Page
let consoleErrors: string[]

beforeAll(async () => {
  if (missing) return
  ;[, tp] = await Promise.all([buildDashboard(), startTestPlatform()])
  ;({ browser, page, consoleErrors } = await openBrowser())
  await signUpWithWorkspace(page, `${tp.baseUrl}/dashboard/`, USER, 'Consent Co')
}, 180_000)
afterAll(async () => {
  await browser?.close()
  await tp?.close()
})

/** A client's authorization request, as an MCP client starts it: its consent page's address. */
async function authorizationRequest(name: string): Promise<string> {
  const callback = 'http://127.0.0.1:9/callback'
  const registered = await tp.json('/mcp/oauth/register', {
    body: { client_name: name, redirect_uris: [callback] },
  })
  expect(registered.status).toBe(201)
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: registered.body.client_id,
    redirect_uri: callback,
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
    state: 'consent-test',
  })
  const res = await fetch(`${tp.baseUrl}/mcp/oauth/authorize?${query}`, { redirect: 'manual' })
  expect(res.status).toBe(302)
  return res.headers.get('location')!
}

/** What each approved request will grant, by client (the grant is made when the code is exchanged). */
const decided = async () =>
  (
    await tp.db.sql<{ client_name: string; tool_listing: string }[]>`
      select c.client_name, r.tool_listing from private.mcp_oauth_requests r
      join private.mcp_oauth_clients c on c.client_id = r.client_id
      where r.code_hash is not null order by c.client_name desc`
  ).map((g) => [g.client_name, g.tool_listing])

describe.skipIf(missing)('the MCP consent page', () => {
  it('approves a client with tool search when it is ticked, and with every tool when it is not', async () => {
    for (const [name, search] of [
      ['Notes with search', true],
      ['Notes with everything', false],
    ] as const) {
      const consent = await authorizationRequest(name)
      // The approval sends the browser back to the client's callback (nothing listens there).
      await page.route('http://127.0.0.1:9/**', (route) => route.fulfill({ status: 200, body: 'back' }))
      await page.goto(consent)
      await page.reload()
      await page.getByRole('heading', { name: 'Connect an MCP client' }).waitFor()
      await page.getByText(name).waitFor()
      const box = page.getByRole('checkbox', { name: /Tool search/ })
      expect(await box.isChecked()).toBe(false)
      if (search) {
        await box.check()
        await screenshot(page, 'mcp-consent-tool-search')
      }
      await page.getByRole('button', { name: 'Approve' }).click()
      await page.waitForURL('http://127.0.0.1:9/**')
    }
    expect(await decided()).toEqual([
      ['Notes with search', 'search'],
      ['Notes with everything', 'all'],
    ])
    expect(consoleErrors).toEqual([])
  })
})
