import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildDashboard } from '../dashboard/build.ts'
import { eventTypes } from '../shared/infra/events.ts'
import { chromiumMissing, openBrowser, screenshot, signUpWithWorkspace } from './support/chromium.ts'
import { startTestPlatform, type TestPlatform } from './support/platform.ts'
import { startReceiver, type WebhookReceiver } from './support/webhook-receiver.ts'

/**
 * An editor's first week, in Chromium at 1280 and 390 px: the Webhooks page offers every event of
 * the catalog and an edit keeps the ones it does not show; a published-only key is made with its
 * allowed origins and its page shows both; restoring a revision of a published article waits in the
 * editor for Update; the meta description stops at its limit, so it cannot block the autosave.
 * DASHBOARD_SCREENSHOTS=<folder> saves the screenshots (docs/dashboard/ keeps them).
 */

const USER = { email: 'editor@week.example', password: 'editor week password' }
const missing = chromiumMissing('tests/dashboard-editor-week.test.ts')

let tp: TestPlatform
let receiver: WebhookReceiver
let browser: Browser
let page: Page
let consoleErrors: string[]
let dashboardUrl: string

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

beforeAll(async () => {
  if (missing)
    return // Built and started side by side; each bounded by what it does, not by the machine's load.
  ;[, tp, receiver] = await Promise.all([buildDashboard(), startTestPlatform(), startReceiver()])
  dashboardUrl = `${tp.baseUrl}/dashboard/`
  ;({ browser, page, consoleErrors } = await openBrowser())
  await signUpWithWorkspace(page, dashboardUrl, USER, 'Week')
}, 180_000)
afterAll(async () => {
  await browser?.close()
  await receiver?.close()
  await tp?.close()
})

describe.skipIf(missing)("an editor's week in the dashboard", () => {
  it('offers every event of the catalog, and editing a subscription keeps content.scheduled, content.unpublished and source.items_added', async () => {
    const token = await pageToken()
    const events = ['content.scheduled', 'content.unpublished', 'source.items_added']
    // No subscription yet: the form to add one is open.
    await go('#/webhooks')
    const create = page.getByRole('form', { name: 'Add a webhook subscription' })
    await create.getByRole('checkbox', { name: 'source.items_added' }).waitFor()
    const offered = await create
      .locator('input[name="events"]')
      .evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value))
    expect(offered).toEqual([...eventTypes])
    await screenshot(page, 'webhooks-events')
    await screenshot(page, 'webhooks-events-narrow', 390)
    const sub = await tp.json('/api/webhooks', { token, body: { url: receiver.url, events } })
    expect(sub.status, JSON.stringify(sub.body)).toBe(201)

    await go(`#/webhooks/${sub.body.id}`)
    await page.getByText('Edit URL and events').click()
    const form = page.getByRole('form', { name: 'Edit the webhook subscription' })
    for (const e of events) expect(await form.getByRole('checkbox', { name: e }).isChecked(), e).toBe(true)
    await form.getByLabel('Endpoint URL').fill(`${receiver.url}/v2`)
    await form.getByRole('button', { name: 'Save' }).click()
    await page.getByRole('heading', { name: `${receiver.url}/v2` }).waitFor()
    const got = await tp.json(`/api/webhooks/${sub.body.id}`, { token })
    expect(got.body).toMatchObject({ url: `${receiver.url}/v2` })
    expect([...got.body.events].sort()).toEqual([...events].sort())
  })

  it("makes a published-only key with its allowed origins, and the key's page shows both", async () => {
    await go('#/keys')
    const form = page.getByRole('form', { name: 'Create an API key' })
    await form.getByLabel('Name').fill('static site')
    await form.getByRole('checkbox', { name: /Published-only/ }).check()
    // Its one scope is fixed: the scope list gives way to the allowed origins.
    expect(await form.locator('input[name="scopes"]').count()).toBe(0)
    await form
      .getByLabel('Allowed origins (optional)')
      .fill('https://blog.example.com\nhttps://www.example.com')
    await screenshot(page, 'api-keys-published-only')
    await form.getByRole('button', { name: 'Create key' }).click()
    await page.getByText('New key “static site”').waitFor()
    const token = await pageToken()
    const listed = await tp.json('/api/api-keys?limit=100', { token })
    const key = listed.body.data.find((k: { name: string }) => k.name === 'static site')
    expect(key).toMatchObject({
      published_only: true,
      scopes: ['content:read'],
      allowed_origins: ['https://blog.example.com', 'https://www.example.com'],
    })
    await go(`#/keys/${key.id}`)
    const facts = page.locator('dl.facts')
    await facts.waitFor()
    const text = await facts.textContent()
    expect(text).toContain('Published-only')
    expect(text).toContain('https://blog.example.com')
    expect(text).toContain('https://www.example.com')
    await screenshot(page, 'api-key-published-only')
    await screenshot(page, 'api-key-published-only-narrow', 390)
  })

  it('restoring a revision of a published article waits in the editor for Update; readers keep the live one', async () => {
    const token = await pageToken()
    const site = await tp.json('/v1/content/sites', { token, body: { name: 'Desk' } })
    const made = await tp.json('/v1/content/articles', {
      token,
      body: {
        site_id: site.body.id,
        title: 'First take',
        slug: 'first-take',
        meta_description: 'The first.',
      },
    })
    const id = made.body.id
    await tp.json(`/v1/content/articles/${id}`, {
      token,
      method: 'PATCH',
      body: { title: 'Final take', slug: 'final-take', meta_description: 'The final one.' },
    })
    expect((await tp.json(`/v1/content/articles/${id}/publish`, { token, method: 'POST' })).status).toBe(200)
    const live = (await tp.json(`/v1/content/articles/${id}`, { token })).body

    await go(`#/articles/${id}`)
    await page.getByRole('heading', { name: 'Final take' }).waitFor()
    await page.getByRole('button', { name: 'Restore revision 1' }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Restore' }).click()
    await page.getByText('Revision 1 is in the editor, not yet live').waitFor()
    expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe('First take')
    await page.locator('[data-state="Unsaved changes"]').waitFor()
    // Nothing changed for readers: same revision, slug and description.
    const after = (await tp.json(`/v1/content/articles/${id}`, { token })).body
    expect([after.revision_id, after.slug, after.meta_description, after.edited_since_published]).toEqual([
      live.revision_id,
      'final-take',
      'The final one.',
      false,
    ])
    await screenshot(page, 'editor-restore-published')
    // Update is the deliberate step.
    await page.getByRole('button', { name: 'Update' }).click()
    await page.locator('[data-state="Saved"]').waitFor()
    const updated = (await tp.json(`/v1/content/articles/${id}`, { token })).body
    expect([updated.title, updated.slug, updated.meta_description, updated.edited_since_published]).toEqual([
      'First take',
      'first-take',
      'The first.',
      true,
    ])
  })

  it('stops the meta description at its 500 characters, so a long one cannot block the autosave', async () => {
    const token = await pageToken()
    const site = await tp.json('/v1/content/sites', { token, body: { name: 'Drafts' } })
    const made = await tp.json('/v1/content/articles', {
      token,
      body: { site_id: site.body.id, title: 'Draft' },
    })
    await go(`#/articles/${made.body.id}`)
    const description = page.getByLabel('Meta description')
    await description.fill('m'.repeat(600))
    expect((await description.inputValue()).length).toBe(500)
    await page.getByLabel('Body (Markdown)').fill('Saved with it.')
    await page.locator('[data-state="Saved"]').waitFor()
    const saved = (await tp.json(`/v1/content/articles/${made.body.id}`, { token })).body
    expect([saved.body, saved.meta_description.length]).toEqual(['Saved with it.', 500])
    expect(consoleErrors.filter((e) => !e.includes('the server responded with a status of'))).toEqual([])
  })
})
