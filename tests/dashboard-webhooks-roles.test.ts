import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { type Browser, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildDashboard } from '../dashboard/build.ts'
import { MASKED } from '../shared/services/webhooks/dispatcher.ts'
import { addMember, startTestPlatform, type TestPlatform } from './support/platform.ts'
import { startReceiver, type WebhookReceiver } from './support/webhook-receiver.ts'

/**
 * In a real browser: a webhook subscription's URL and events edited on its page, an attempt's
 * request and response in the delivery log (signatures masked), and the article page as a
 * contributor sees it (no Publish, Submit for review, then "submitted for review", in the editor and
 * on the Articles list).
 * DASHBOARD_SCREENSHOTS=<folder> saves the screenshots.
 */

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const SHOTS = process.env.DASHBOARD_SCREENSHOTS
const USER = { email: 'desk@roles.example', password: 'desk password 12' }

let tp: TestPlatform
let first: WebhookReceiver
let second: WebhookReceiver
let browser: Browser
let page: Page
let dashboardUrl: string

async function shot(name: string): Promise<void> {
  if (!SHOTS) return
  mkdirSync(SHOTS, { recursive: true })
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true })
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
if (browserMissing) console.warn(`tests/dashboard-webhooks-roles.test.ts skipped: no chromium at ${CHROMIUM}`)

beforeAll(async () => {
  if (browserMissing) return
  await buildDashboard()
  ;[tp, first, second] = await Promise.all([startTestPlatform(), startReceiver(), startReceiver()])
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
  await page.goto(dashboardUrl)
  await page.getByRole('tab', { name: 'Create an account' }).click()
  await page.getByLabel('E-mail').fill(USER.email)
  await page.getByLabel('Password').fill(USER.password)
  await page.getByRole('button', { name: 'Sign up' }).click()
  await page.getByLabel('Workspace name').fill('Desk')
  await page.getByRole('button', { name: 'Create workspace' }).click()
  await page.getByRole('heading', { name: 'Welcome to Desk' }).waitFor()
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await Promise.all([first?.close(), second?.close(), tp?.close()])
})

describe.skipIf(browserMissing)('webhooks and roles in the dashboard', () => {
  it("edits a subscription's URL and events, and shows an attempt's masked request and its response", async () => {
    const token = await pageToken()
    const sub = await tp.json('/api/webhooks', {
      token,
      body: { url: first.url, events: ['api_key.created'] },
    })
    expect(sub.status).toBe(201)
    await go(`#/webhooks/${sub.body.id}`)
    await page.getByText('Edit URL and events').click()
    const form = page.getByRole('form', { name: 'Edit the webhook subscription' })
    await form.getByLabel('Endpoint URL').fill(second.url)
    await form.getByRole('checkbox', { name: 'site.created' }).check()
    await form.getByRole('button', { name: 'Save' }).click()
    await page.getByRole('heading', { name: second.url }).waitFor()
    const got = await tp.json(`/api/webhooks/${sub.body.id}`, { token })
    expect(got.body).toMatchObject({ url: second.url, events: ['site.created', 'api_key.created'] })

    // A URL the outbound guard refuses is refused here too, with the API's message.
    await page.getByText('Edit URL and events').click()
    await form.getByLabel('Endpoint URL').fill('https://169.254.169.254/latest')
    await form.getByRole('button', { name: 'Save' }).click()
    await form.getByRole('alert').waitFor()
    expect((await tp.json(`/api/webhooks/${sub.body.id}`, { token })).body.url).toBe(second.url)

    await tp.json('/v1/content/sites', { token, body: { name: 'Front page' } })
    const row = page.locator('tr[data-event="site.created"]')
    const deadline = Date.now() + 15_000
    while ((await row.count()) === 0 && Date.now() < deadline) {
      await page.getByRole('button', { name: 'Refresh' }).click()
      await page.waitForTimeout(300)
    }
    await row.getByText('Request and response').click()
    const detail = await row.locator('details.attempt').textContent()
    expect(detail).toContain(`x-service-signature: ${MASKED}`)
    expect(detail).toContain('"type":"site.created"')
    expect(second.received).toHaveLength(1)
    expect(detail).not.toContain(String(second.received[0]!.headers['x-service-signature']))
    await shot('webhook-attempt-detail')
  })

  it('shows a contributor no Publish or Delete on another’s article, and "submitted for review" on its own', async () => {
    const token = await pageToken()
    const site = await tp.json('/v1/content/sites', { token, body: { name: 'Newsroom' } })
    const mine = await tp.json('/v1/content/articles', {
      token,
      body: { site_id: site.body.id, title: 'My draft' },
    })
    const [me] = await tp.db.sql`select user_id, tenant_id from public.tenant_members m
      join auth.users u on u.id = m.user_id where u.email = ${USER.email}`
    const editor = await addMember(tp, me!.tenant_id, 'owner')
    const theirs = await tp.json('/v1/content/articles', {
      token: editor.token,
      body: { site_id: site.body.id, title: 'The editor’s draft' },
    })
    await tp.db.sql`update public.tenant_members set role = 'contributor' where user_id = ${me!.user_id}`

    await go(`#/articles/${theirs.body.id}`)
    await page.getByRole('heading', { name: 'The editor’s draft' }).waitFor()
    expect(await page.getByRole('button', { name: 'Publish' }).count()).toBe(0)
    expect(await page.getByRole('button', { name: 'Delete' }).count()).toBe(0)
    expect(await page.getByRole('button', { name: 'Submit for review' }).count()).toBe(0)

    await go(`#/articles/${mine.body.id}`)
    await page.getByRole('heading', { name: 'My draft' }).waitFor()
    expect(await page.getByRole('button', { name: 'Publish' }).count()).toBe(0)
    await page.getByRole('button', { name: 'Submit for review' }).click()
    await page.getByText('submitted for review', { exact: true }).waitFor()
    await shot('article-submitted-for-review')
    const seen = await tp.json(`/v1/content/articles/${mine.body.id}`, { token: editor.token })
    expect(seen.body.review_requested_at).toEqual(expect.any(String))
    // The Articles list marks the draft that waits for review, and only that one.
    await go('#/articles')
    const row = (id: string) => page.locator(`tr[data-article="${id}"]`)
    await row(mine.body.id).waitFor()
    await row(theirs.body.id).waitFor()
    const pill = (id: string) => row(id).locator('.pill.pending', { hasText: 'submitted for review' })
    expect(await pill(mine.body.id).count()).toBe(1)
    expect(await pill(theirs.body.id).count()).toBe(0)
    await shot('articles-submitted-for-review')
    // "Waiting for review" lists that draft alone.
    await page.getByLabel('Filter by status').selectOption('review')
    await expect.poll(() => page.locator('tr[data-article]').count()).toBe(1)
    await row(mine.body.id).waitFor()
    // The site's own list marks it too.
    await go(`#/sites/${site.body.id}`)
    await row(mine.body.id).waitFor()
    await row(theirs.body.id).waitFor()
    expect(await pill(mine.body.id).count()).toBe(1)
    expect(await pill(theirs.body.id).count()).toBe(0)
    await go('#/team')
    expect(await page.locator('main').textContent()).toContain('Your role: contributor')
  })
})
