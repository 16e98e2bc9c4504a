import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildDashboard } from '../dashboard/build.ts'
import { chromiumMissing, openBrowser, screenshot, signUpWithWorkspace } from './support/chromium.ts'
import { startTestPlatform, type TestPlatform } from './support/platform.ts'

/**
 * The article editor's Translations panel in a real browser (Debian's chromium, playwright-core)
 * against the whole platform: a published article's group shown with its states, a French draft
 * made from the panel and opened in the editor, and the group side by side from the draft.
 * DASHBOARD_SCREENSHOTS=<folder> saves the screenshots.
 */

const OWNER = { email: 'translator@editor.example', password: 'translator password 1' }

let tp: TestPlatform
let browser: Browser
let page: Page
let consoleErrors: string[] = []

const browserMissing = chromiumMissing('tests/dashboard-translations.test.ts')

beforeAll(async () => {
  if (browserMissing) return
  await buildDashboard()
  tp = await startTestPlatform()
  ;({ browser, page, consoleErrors } = await openBrowser())
}, 90_000)
afterAll(async () => {
  await browser?.close()
  await tp?.close()
})

describe.skipIf(browserMissing)('the Translations panel', { timeout: 60_000 }, () => {
  it('shows the group side by side with states and drafts a translation in a locale it lacks', async () => {
    const dashboardUrl = `${tp.baseUrl}/dashboard/`
    await signUpWithWorkspace(page, dashboardUrl, OWNER, 'Jardin Co')
    const [row] = await tp.db.sql<{ user_id: string; tenant_id: string }[]>`
      select m.user_id, m.tenant_id from public.tenant_members m join auth.users u on u.id = m.user_id
      where u.email = ${OWNER.email}`
    const token = await tp.tokenFor({ userId: row!.user_id, email: OWNER.email, tenantId: row!.tenant_id })
    const site = await tp.json('/v1/content/sites', {
      token,
      body: { name: 'Garden notes', domain: 'garden.example.com', locales: ['en', 'fr', 'de'] },
    })
    expect(site.status, JSON.stringify(site.body)).toBe(201)
    const made = await tp.json('/v1/content/articles', {
      token,
      body: { site_id: site.body.id, title: 'Pruning roses', body: 'Cut above an outward bud.' },
    })
    await tp.json(`/v1/content/articles/${made.body.id}/publish`, { method: 'POST', token })

    await page.goto(`${dashboardUrl}#/articles/${made.body.id}`)
    const panel = page.getByRole('region', { name: 'Translations' })
    await panel.locator('tr[data-locale="en"]').waitFor()
    expect(await panel.locator('tr[data-locale="en"]').textContent()).toContain('published')
    await panel.getByLabel('New translation in').selectOption('fr')
    await panel.getByRole('button', { name: 'Draft translation' }).click()

    // The draft opens in the editor; its panel shows the source beside it.
    await page.waitForFunction((id) => !location.hash.endsWith(id), made.body.id)
    const draftId = (await page.evaluate(() => location.hash)).split('/').at(-1)!
    await page.locator('.editor-title', { hasText: 'Pruning roses' }).waitFor()
    const group = page.getByRole('region', { name: 'Translations' })
    await group.locator('tr[data-locale="fr"]').waitFor()
    expect(await group.locator('tr[data-locale="fr"]').textContent()).toContain('draft')
    expect(await group.locator('tr[data-locale="en"]').textContent()).toContain('published')
    expect(await group.locator('tr[data-locale="fr"]').getAttribute('aria-current')).toBe('page')
    // Only German is left to offer.
    expect(await group.getByLabel('New translation in').locator('option').allInnerTexts()).toEqual([
      expect.stringContaining('de'),
    ])
    const draft = await tp.json(`/v1/content/articles/${draftId}`, { token })
    expect(draft.body).toMatchObject({ locale: 'fr', translation_of: made.body.id, status: 'draft' })
    await group.scrollIntoViewIfNeeded()
    await screenshot(page, 'editor-translations')
    await screenshot(page, 'editor-translations-narrow', 390)
    expect(consoleErrors).toEqual([])
  })
})
