import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildDashboard } from '../dashboard/build.ts'
import { chromiumMissing, openBrowser, screenshot, signUpWithWorkspace } from './support/chromium.ts'
import { startTestPlatform, type TestPlatform } from './support/platform.ts'

/**
 * Plain words in forms, in Chromium at 1280 and 390 px: the Tags page (list, rename, delete), a
 * refusal beside the field it names (a taken slug naming its holder by name or title, in the Tags
 * page and the editor), no API call in a message to an editor, the workspace renamed from the Team
 * page, and a long workspace name cut with its whole text in a tooltip.
 * DASHBOARD_SCREENSHOTS=<folder> saves the screenshots (docs/dashboard/ keeps them).
 */

const USER = { email: 'editor@tags.example', password: 'editor tags password' }
const LONG = 'The Northern Gardening and Kitchen Quarterly Editorial Workspace'
const missing = chromiumMissing('tests/dashboard-tags.test.ts')

/** The console's errors but the browser's own line for each refusal the test asks for (400, 409). */
const unexpected = () => consoleErrors.filter((e) => !/status of (400|409)/.test(e))

let tp: TestPlatform
let browser: Browser
let page: Page
let consoleErrors: string[]
let dashboardUrl: string
let token: string

beforeAll(async () => {
  if (missing) return
  ;[, tp] = await Promise.all([buildDashboard(), startTestPlatform()])
  dashboardUrl = `${tp.baseUrl}/dashboard/`
  ;({ browser, page, consoleErrors } = await openBrowser())
  await signUpWithWorkspace(page, dashboardUrl, USER, LONG)
  token = await page.evaluate(() => {
    const key = Object.keys(localStorage).find((k) => k.endsWith('-auth-token'))!
    return JSON.parse(localStorage.getItem(key)!).access_token as string
  })
}, 180_000)
afterAll(async () => {
  await browser?.close()
  await tp?.close()
})

describe.skipIf(missing)('plain words in forms', () => {
  it('lists, renames and deletes tags; a taken slug shows beside its field naming the holder', async () => {
    const site = await tp.json('/v1/content/sites', { token, body: { name: 'The Garden Post' } })
    for (const name of ['Garden', 'Kitchen'])
      expect((await tp.json('/v1/content/tags', { token, body: { name } })).status).toBe(201)
    const article = await tp.json('/v1/content/articles', {
      token,
      body: { site_id: site.body.id, title: 'Leeks in winter', body: 'Leeks.', tags: ['kitchen'] },
    })
    expect(article.status, JSON.stringify(article.body)).toBe(201)

    await page.goto(`${dashboardUrl}#/tags`)
    await page.getByRole('heading', { name: 'Tags', exact: true }).waitFor()
    const rows = page.locator('table.tag-table tbody tr')
    await page.locator('tr[data-tag="kitchen"]').waitFor()
    expect(await rows.count()).toBe(2)
    await screenshot(page, 'tags')
    await screenshot(page, 'tags-narrow', 390)
    await page.setViewportSize({ width: 1280, height: 800 })

    // Renaming onto a slug another tag holds: the message sits beside Slug and names "Kitchen".
    await page.getByRole('button', { name: 'Rename the tag Garden' }).click()
    const form = page.getByRole('form', { name: 'Rename the tag Garden' })
    await form.getByLabel('Name').fill('Gardening')
    await form.getByLabel('Slug').fill('kitchen')
    await form.getByRole('button', { name: 'Save' }).click()
    const beside = form.locator('label.field.invalid small.field-error')
    await beside.waitFor()
    expect(await beside.textContent()).toBe('taken by the tag "Kitchen"')
    expect(await form.getByLabel('Slug').getAttribute('aria-invalid')).toBe('true')
    await screenshot(page, 'tags-slug-taken')
    await screenshot(page, 'tags-slug-taken-narrow', 390)
    await page.setViewportSize({ width: 1280, height: 800 })
    // Nothing was written.
    expect(
      (await tp.json('/v1/content/tags', { token })).body.data.map((t: { name: string }) => t.name),
    ).toEqual(expect.arrayContaining(['Garden', 'Kitchen']))

    await form.getByLabel('Slug').fill('gardening')
    await form.getByRole('button', { name: 'Save' }).click()
    await page.locator('tr[data-tag="gardening"]').waitFor()
    expect(await page.locator('tr[data-tag="gardening"] .tag-name').textContent()).toBe('Gardening')

    // Deleting a tag takes it off its articles; the article stays.
    await page.getByRole('button', { name: 'Delete the tag Kitchen' }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click()
    await page.locator('tr[data-tag="kitchen"]').waitFor({ state: 'detached' })
    const after = await tp.json(`/v1/content/articles/${article.body.id}`, { token })
    expect(after.status).toBe(200)
    expect(after.body.tags).toEqual([])
    expect(unexpected()).toEqual([])
  }, 120_000)

  it("shows the editor's taken slug beside Slug by the holder's title, and no API call in a message", async () => {
    const site = await tp.json('/v1/content/sites', { token, body: { name: 'The Slug Post' } })
    const holder = await tp.json('/v1/content/articles', {
      token,
      body: { site_id: site.body.id, title: 'Tulips bloom early', slug: 'tulips' },
    })
    const mine = await tp.json('/v1/content/articles', {
      token,
      body: { site_id: site.body.id, title: 'Rain returns', slug: 'rain' },
    })
    expect([holder.status, mine.status]).toEqual([201, 201])
    await page.goto(`${dashboardUrl}#/articles/${mine.body.id}`)
    await page.getByLabel('Slug', { exact: true }).fill('tulips')
    // The draft saves itself; the refusal names the other article by its title beside Slug.
    const beside = page.locator('#slug-error')
    await beside.waitFor({ timeout: 15_000 })
    expect(await beside.textContent()).toBe('taken by the article "Tulips bloom early"')
    expect(await page.getByLabel('Slug', { exact: true }).getAttribute('aria-invalid')).toBe('true')
    await beside.scrollIntoViewIfNeeded()
    await screenshot(page, 'editor-slug-taken', 1280, false)
    await screenshot(page, 'editor-slug-taken-narrow', 390, false)
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.getByLabel('Slug', { exact: true }).fill('rain-in-spring')
    await beside.waitFor({ state: 'detached', timeout: 15_000 })

    // A time in the past: the API's message names its publish call; the editor reads "press Publish".
    await page.getByLabel('Publish at').fill('2020-01-01T09:00')
    await page.getByRole('button', { name: 'Schedule', exact: true }).click()
    const error = page
      .getByRole('region', { name: 'Publishing' })
      .locator('.error')
      .or(page.locator('section[aria-label="Publishing"] .error'))
    await error.first().waitFor()
    const text = (await error.first().textContent()) ?? ''
    expect(text).toContain('press Publish')
    expect(text).not.toMatch(/\/v1\/|\/api\/|POST /)
    expect(unexpected()).toEqual([])
  }, 120_000)

  it('renames the workspace from the Team page; a long name is cut with its whole text as a tooltip', async () => {
    await page.goto(`${dashboardUrl}#/team`)
    const switcher = page.getByLabel('Workspace', { exact: true })
    expect(await switcher.getAttribute('title')).toBe(LONG)
    await page.getByRole('button', { name: 'Rename workspace' }).click()
    const form = page.getByRole('form', { name: 'Rename the workspace' })
    await form.getByLabel('Workspace name').fill('')
    await form.getByLabel('Workspace name').fill('Garden Quarterly')
    await screenshot(page, 'team-rename')
    await screenshot(page, 'team-rename-narrow', 390)
    await page.setViewportSize({ width: 1280, height: 800 })
    await form.getByRole('button', { name: 'Save name' }).click()
    await page.waitForFunction(
      () =>
        (document.querySelector('select[aria-label="Workspace"]') as HTMLSelectElement | null)?.title ===
        'Garden Quarterly',
      undefined,
      { timeout: 15_000 },
    )
    expect(await page.locator('.workspace-name strong').textContent()).toBe('Garden Quarterly')
    const current = await tp.json('/api/tenants/current', { token })
    expect(current.body.name).toBe('Garden Quarterly')
    expect(unexpected()).toEqual([])
  }, 120_000)
})
