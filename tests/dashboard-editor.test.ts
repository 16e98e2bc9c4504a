import { join } from 'node:path'
import type { Browser, Dialog, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { buildDashboard, type DashboardBuild } from '../dashboard/build.ts'
import { chromiumMissing, openBrowser, screenshot, signUpWithWorkspace } from './support/chromium.ts'
import { addMember, startTestPlatform, type TestPlatform } from './support/platform.ts'

/**
 * The article editor and the Articles page in a real browser (Debian's chromium, playwright-core)
 * against the whole platform: a draft made and saved on its own, the preview by the API's own
 * renderer (a script in the Markdown neither kept nor run), the article's settings and SEO fields,
 * the leave guard (in the app and on unload), Publish and Schedule saving first, the schedule in
 * the workspace's time zone, a revision viewed and restored, and the list's filters, search and
 * pages. The steps build on each other. DASHBOARD_SCREENSHOTS=<folder> saves the screenshots.
 */

const OWNER = { email: 'editor@editor.example', password: 'editor password 1' }
const ZONE = 'America/New_York'
/** A feature image on an https host of the publication, answered by the test (below). */
const IMAGE = 'https://images.editor.test/first-frost.svg'
const IMAGE_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="500" viewBox="0 0 1200 500">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#cfe3f7"/><stop offset="1" stop-color="#4a78a8"/></linearGradient></defs>
  <rect width="1200" height="500" fill="url(#g)"/>
  <path d="M0 420 L220 260 L380 360 L600 180 L820 340 L1000 240 L1200 380 L1200 500 L0 500 Z" fill="#f4f8fc"/>
</svg>`

const MISSING = 'https://images.editor.test/missing.png'
const FIRST_BODY = [
  '## Before the frost',
  '',
  'Bring the **tender** plants in. Cover the rest with [fleece](https://example.com/fleece).',
  '',
  '- dahlias',
  '- pelargoniums',
  '',
  '<script>window.__xss = "script"</script>',
  // An image that fails to load: its onerror would run, were it kept.
  `<img src="${MISSING}" onerror="window.__xss = 'onerror'">`,
  '[a bad link](javascript:window.__xss=1)',
].join('\n')

let tp: TestPlatform
let browser: Browser
let page: Page
let built: DashboardBuild
let dashboardUrl: string
let token: string
let tenantId: string
let firstId: string
let consoleErrors: string[] = []
const requested: string[] = []

async function go(hash: string): Promise<void> {
  await page.goto(`${dashboardUrl}${hash}`)
  await page.reload()
  await page.locator('main h1').first().waitFor()
}

const saveState = () => page.locator('.save-state').getAttribute('data-state')
const article = async (id: string) => (await tp.json(`/v1/content/articles/${id}`, { token })).body
const body = () => page.getByLabel('Body (Markdown)')

const browserMissing = chromiumMissing('tests/dashboard-editor.test.ts')

beforeAll(async () => {
  if (browserMissing) return
  built = await buildDashboard()
  tp = await startTestPlatform()
  dashboardUrl = `${tp.baseUrl}/dashboard/`
  ;({ browser, page, consoleErrors } = await openBrowser())
  page.on('request', (r) => requested.push(r.url()))
  await page
    .context()
    .route('https://images.editor.test/**', (route) =>
      route.request().url() === IMAGE
        ? route.fulfill({ status: 200, contentType: 'image/svg+xml', body: IMAGE_SVG })
        : route.fulfill({ status: 404, body: '' }),
    )
}, 90_000)

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail' && page)
    await page
      .screenshot({
        path: join(process.env.TMPDIR ?? '/tmp', 'dashboard-editor-failure.png'),
        fullPage: true,
      })
      .catch(() => {})
})

afterAll(async () => {
  await browser?.close()
  await tp?.close()
})

describe.skipIf(browserMissing)('the article editor in a browser', { timeout: 60_000 }, () => {
  it('keeps the editor and its renderer out of the first load: chunks of their own, within the budget', () => {
    const renderer = built.lazy.find((c) => c.file.startsWith('render-'))
    expect(renderer, JSON.stringify(built.lazy)).toBeDefined()
    expect(built.lazy.find((c) => c.file.startsWith('editor-'))).toBeDefined()
    console.log(
      `dashboard first load ${(built.gzipBytes / 1024).toFixed(1)} KiB gzip; renderer chunk ` +
        `${(renderer!.gzipBytes / 1024).toFixed(1)} KiB gzip (${(renderer!.bytes / 1024).toFixed(1)} KiB)`,
    )
    expect(built.gzipBytes).toBeLessThan(150 * 1024)
    expect(built.gzipBytes + built.lazy.reduce((n, c) => n + c.gzipBytes, 0)).toBeLessThan(350 * 1024)
  })

  it('signs up into a workspace in New York time with two sites', async () => {
    await signUpWithWorkspace(page, dashboardUrl, OWNER, 'Editor Co')
    const [row] = await tp.db.sql<{ user_id: string; tenant_id: string }[]>`
      select m.user_id, m.tenant_id from public.tenant_members m join auth.users u on u.id = m.user_id
      where u.email = ${OWNER.email}`
    tenantId = row!.tenant_id
    token = await tp.tokenFor({ userId: row!.user_id, email: OWNER.email, tenantId })
    const zone = await tp.json('/api/tenants/current', {
      token,
      method: 'PATCH',
      body: { settings: { timezone: ZONE } },
    })
    expect(zone.status, JSON.stringify(zone.body)).toBe(200)
    for (const [name, domain] of [
      ['Garden notes', 'garden.example.com'],
      ['Kitchen', null],
    ]) {
      const site = await tp.json('/v1/content/sites', { token, body: { name, domain } })
      expect(site.status, JSON.stringify(site.body)).toBe(201)
    }
    expect((await tp.json('/v1/content/tags', { token, body: { name: 'Garden' } })).status).toBe(201)
  })

  it('starts a draft from the Articles page and saves it on its own as the author types', async () => {
    requested.length = 0
    await go('#/articles')
    await page.getByText('No articles yet').waitFor()
    // The editor and its renderer are not fetched for a page without them.
    const lazy = () => requested.filter((u) => /\/(render|editor)-\w+\.js$/.test(u))
    expect(lazy()).toEqual([])
    await page.locator('summary', { hasText: 'New article' }).click()
    const form = page.getByRole('form', { name: 'New article' })
    await form.getByLabel('Title').fill('First frost')
    await form.getByLabel('Site').selectOption({ label: 'Garden notes' })
    await form.getByRole('button', { name: 'Create and edit' }).click()
    await page.getByRole('heading', { name: 'First frost' }).waitFor()
    await page.getByRole('region', { name: 'Preview' }).getByText('First frost').waitFor()
    firstId = /#\/articles\/([\w-]+)/.exec(page.url())![1]!
    expect(await saveState()).toBe('Saved')

    await body().fill(FIRST_BODY)
    expect(await saveState()).toBe('Unsaved changes')
    await expect.poll(saveState, { timeout: 10_000 }).toBe('Saved')
    expect((await article(firstId)).body).toBe(FIRST_BODY)
    expect(lazy()).toHaveLength(2)
  })

  it('previews with the API’s renderer: the same HTML readers get, and no script kept or run', async () => {
    const preview = page.getByRole('region', { name: 'Preview' })
    await preview.locator('.rendered h2', { hasText: 'Before the frost' }).waitFor()
    const served = (await tp.json(`/v1/content/articles/${firstId}?formats=html`, { token })).body.html
    // Compared as the browser parses both (it writes `<br />` as `<br>`).
    expect(
      await preview.locator('.rendered').evaluate((el, html) => {
        const t = document.createElement('template')
        t.innerHTML = html
        return t.innerHTML === el.innerHTML
      }, served),
    ).toBe(true)
    expect(await preview.locator('.rendered strong').textContent()).toBe('tender')
    expect(await preview.locator('.rendered li').count()).toBe(2)
    expect(await preview.locator('script').count()).toBe(0)
    expect(await preview.locator('[onerror]').count()).toBe(0)
    expect(await preview.getByRole('link', { name: 'a bad link' }).count()).toBe(0)
    expect(await preview.getByRole('link', { name: 'fleece' }).getAttribute('rel')).toBe(
      'noopener noreferrer',
    )
    expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined()
    // The preview follows the text as it is typed (here without the hostile lines again).
    await body().fill(FIRST_BODY.split('\n<script>')[0]!)
    await body().press('End')
    await body().type('\n\n> Frost comes first to the low ground.')
    await preview.locator('.rendered blockquote', { hasText: 'low ground' }).waitFor()
    expect(await preview.locator('.rendered img').count()).toBe(0)
    await expect.poll(saveState, { timeout: 10_000 }).toBe('Saved')
    await screenshot(page, 'editor-draft')
    await screenshot(page, 'editor-narrow', 390)
  })

  it('edits the slug, excerpt, tags, feature image and SEO fields, with counts, and refuses an unsafe URL', async () => {
    await page.getByLabel('Slug').fill('first-frost-2026')
    await page.getByLabel('Excerpt').fill('What to bring in before the first night below zero.')
    // An existing tag is picked by its name; a new name makes a tag.
    await page.getByLabel('Add a tag').fill('garden')
    await page.getByLabel('Add a tag').press('Enter')
    await page.getByLabel('Add a tag').fill('Winter')
    await page.getByRole('button', { name: 'Add tag' }).click()
    await page.getByRole('button', { name: 'Remove the tag Winter' }).waitFor()
    await page.getByLabel('Feature image URL').fill(IMAGE)
    await page.getByLabel('Feature image alt text').fill('Frost on a hillside')
    const image = page.locator('img.feature-preview')
    await expect.poll(() => image.evaluate((i: HTMLImageElement) => i.naturalWidth)).toBe(1200)
    const metaTitle = 'First frost: the plants to bring in, and the ones that cope on their own'
    await page.getByLabel('Meta title').fill(metaTitle)
    await page.getByLabel('Meta description').fill('Tender plants in, hardy plants fleeced.')
    const count = page.locator('[data-count="Meta title"]')
    expect(await count.textContent()).toBe(`${metaTitle.length} / 300`)
    expect(await count.getAttribute('class')).toContain('warn')
    expect(await page.locator('[data-count="Meta description"]').textContent()).toBe('39 / 500')
    expect(await page.getByRole('img', { name: 'Search result preview' }).textContent()).toContain(
      'https://garden.example.com/first-frost-2026',
    )
    await expect.poll(saveState, { timeout: 10_000 }).toBe('Saved')
    const saved = await article(firstId)
    expect(saved).toMatchObject({
      slug: 'first-frost-2026',
      custom_excerpt: 'What to bring in before the first night below zero.',
      feature_image: { url: IMAGE, alt: 'Frost on a hillside' },
      meta_title: metaTitle,
      meta_description: 'Tender plants in, hardy plants fleeced.',
    })
    expect(saved.tags.map((t: { slug: string }) => t.slug)).toEqual(['garden', 'winter'])
    const [tags] = await tp.db.sql<{ n: number }[]>`
      select count(*)::int as n from public.tags where tenant_id = ${tenantId}`
    expect(tags!.n).toBe(2)
    await screenshot(page, 'editor-settings')

    // An http: canonical URL is refused by the API; the editor says which field and keeps the text.
    await page.getByLabel('Canonical URL').fill('http://garden.example.com/frost')
    await expect.poll(saveState, { timeout: 10_000 }).toBe('Not saved')
    expect(await page.locator('main .error').first().textContent()).toContain('canonical url')
    expect((await article(firstId)).canonical_url).toBeNull()
    // Publish saves first: with edits that cannot be saved, nothing is published.
    await page.getByRole('button', { name: 'Publish' }).click()
    // Publish asks first (the dialog names the article).
    await page.getByRole('dialog').getByRole('button', { name: 'Publish' }).click()
    await page.locator('.editor-bar .error', { hasText: 'Nothing was changed' }).waitFor()
    expect((await article(firstId)).status).toBe('draft')
    await page.getByLabel('Canonical URL').fill('https://garden.example.com/frost')
    await expect.poll(saveState, { timeout: 10_000 }).toBe('Saved')
    expect((await article(firstId)).canonical_url).toBe('https://garden.example.com/frost')
  })

  it('asks before leaving unsaved changes, in the app and on unload', async () => {
    await body().press('End')
    await body().type('\n\nOne more line.')
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Sites' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.waitFor()
    expect(await dialog.textContent()).toContain('changes that are not saved yet')
    await screenshot(page, 'editor-leave-guard', 1280, false)
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    expect(page.url()).toContain(`#/articles/${firstId}`)
    expect(await body().inputValue()).toContain('One more line.')

    // Unload: the browser's own prompt; dismissed, the page and the text stay.
    await body().type(' And another.')
    const prompted = new Promise<Dialog>((resolve) => page.once('dialog', resolve))
    await page.evaluate(() => setTimeout(() => location.reload(), 0))
    const unload = await prompted
    expect(unload.type()).toBe('beforeunload')
    await unload.dismiss()
    expect(await body().inputValue()).toContain('And another.')

    // Once saved, leaving asks nothing.
    await expect.poll(saveState, { timeout: 10_000 }).toBe('Saved')
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Sites' }).click()
    await page.getByRole('heading', { name: 'Sites', exact: true }).waitFor()
    expect(await page.getByRole('dialog').isVisible()).toBe(false)
  })

  it('publishes what was just typed (Publish saves first); a published article waits for Update', async () => {
    await go(`#/articles/${firstId}`)
    await page.getByLabel('Title', { exact: true }).fill('The first frost')
    // At once, before the draft would save on its own.
    await page.getByRole('button', { name: 'Publish' }).click()
    // Publish asks first (the dialog names the article).
    await page.getByRole('dialog').getByRole('button', { name: 'Publish' }).click()
    await expect.poll(() => page.locator('.editor-bar .pill').textContent()).toBe('published')
    const published = await article(firstId)
    expect(published.title).toBe('The first frost')
    const live = await tp.json(
      `/v1/content/articles/${firstId}/revisions/${published.published_revision_id}`,
      {
        token,
      },
    )
    expect(live.body.title).toBe('The first frost')
    expect(await saveState()).toBe('Saved')

    // Published text changes what readers get at once: it is saved by Update, not as it is typed.
    await body().press('End')
    await body().type('\n\nUpdated after publishing.')
    await page.waitForTimeout(2500)
    expect(await saveState()).toBe('Unsaved changes')
    expect((await article(firstId)).body).not.toContain('Updated after publishing.')
    await page.getByRole('button', { name: 'Update' }).click()
    await expect.poll(saveState).toBe('Saved')
    expect((await article(firstId)).body).toContain('Updated after publishing.')
    await page.getByText('edited since it was published').waitFor()
    await screenshot(page, 'editor-published')
  })

  it('schedules in the workspace’s time zone, saving first; a past time is refused; the schedule is cancelled', async () => {
    const made = await tp.json('/v1/content/articles', {
      token,
      body: {
        site_id: (await tp.json('/v1/content?type=site&q=garden', { token })).body.data[0].id,
        title: 'Bulbs for spring',
        body: 'Plant them now.',
      },
    })
    expect(made.status).toBe(201)
    await go(`#/articles/${made.body.id}`)
    const publishing = page.getByRole('region', { name: 'Publishing' })
    expect(await publishing.textContent()).toContain(`Publish at (${ZONE})`)
    await body().fill('Plant them now, pointed end up.')
    // 9:30 in New York in January is 14:30 UTC.
    await page.getByLabel('Publish at').fill('2030-01-15T09:30')
    expect(await publishing.locator('[data-iso]').getAttribute('data-iso')).toBe('2030-01-15T14:30:00Z')
    await publishing.getByRole('button', { name: 'Schedule' }).click()
    await expect.poll(() => page.locator('.editor-bar .pill').textContent()).toBe('scheduled')
    const scheduled = await article(made.body.id)
    expect(scheduled).toMatchObject({
      status: 'scheduled',
      publish_at: '2030-01-15T14:30:00.000Z',
      body: 'Plant them now, pointed end up.',
    })
    expect(await page.locator('.editor-bar').textContent()).toContain(`(${ZONE})`)
    expect(await page.locator('.editor-bar strong').textContent()).toMatch(/Jan 15, 2030.*9:30/)
    await screenshot(page, 'editor-scheduled')

    await page.getByLabel('Publish at').fill('2020-01-15T09:30')
    await publishing.getByRole('button', { name: 'Reschedule' }).click()
    await publishing.locator('.error', { hasText: 'publish at' }).waitFor()
    expect((await article(made.body.id)).publish_at).toBe('2030-01-15T14:30:00.000Z')
    await publishing.getByRole('button', { name: 'Cancel the schedule' }).click()
    await expect.poll(() => page.locator('.editor-bar .pill').textContent()).toBe('draft')
    expect((await article(made.body.id)).status).toBe('draft')
  })

  it('shows the revision history, views an old revision and restores it as a new one', async () => {
    await go(`#/articles/${firstId}`)
    const revisions = page.getByRole('region', { name: 'Revisions' })
    await revisions.locator('li[data-revision="1"]').waitFor()
    const count = await revisions.locator('li[data-revision]').count()
    expect(count).toBeGreaterThan(3)
    expect(await revisions.locator('li').first().textContent()).toContain('current')
    expect(await revisions.locator('li', { hasText: 'went live' }).count()).toBe(1)
    const first = revisions.locator('li[data-revision="1"]')
    await first.getByRole('button', { name: 'View' }).click()
    const view = page.getByRole('region', { name: 'Revision 1' })
    await view.waitFor()
    expect(await view.textContent()).toContain('First frost')
    expect(await first.textContent()).toContain(OWNER.email)
    await screenshot(page, 'editor-revisions')
    // The article is live: a restore is an edit like any other, in the editor until Update.
    const live = await article(firstId)
    await first.getByRole('button', { name: 'Restore revision 1' }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Restore' }).click()
    await page.getByText('Revision 1 is in the editor, not yet live').waitFor()
    await expect.poll(() => page.getByLabel('Title', { exact: true }).inputValue()).toBe('First frost')
    expect(await body().inputValue()).toBe('')
    expect(await saveState()).toBe('Unsaved changes')
    expect(await revisions.locator('li[data-revision]').count()).toBe(count)
    expect((await article(firstId)).revision_id).toBe(live.revision_id)
    await page.getByRole('button', { name: 'Update' }).click()
    await expect.poll(() => revisions.locator('li[data-revision]').count()).toBe(count + 1)
    expect(await revisions.locator('li').first().textContent()).toContain('current')
    expect(await article(firstId)).toMatchObject({ title: 'First frost', body: '' })
    await expect.poll(saveState).toBe('Saved')
  })

  it('writes nothing over a save made elsewhere meanwhile, and lets the author choose whose version stays', async () => {
    const bulbs = (await tp.json('/v1/content?type=article&q=bulbs', { token })).body.data[0].id
    await go(`#/articles/${bulbs}`)
    await page.getByLabel('Title', { exact: true }).waitFor()
    // Another tab (or a colleague) saves first.
    const other = await tp.json(`/v1/content/articles/${bulbs}`, {
      token,
      method: 'PATCH',
      body: { body: 'Their version.' },
    })
    expect(other.status).toBe(200)
    await body().fill('My version.')
    await expect.poll(saveState, { timeout: 10_000 }).toBe('Not saved: changed elsewhere')
    expect((await article(bulbs)).body).toBe('Their version.')
    await page.getByRole('alert').getByText('saved elsewhere').waitFor()
    await page.getByRole('button', { name: 'Load the other version' }).click()
    expect(await body().inputValue()).toBe('Their version.')
    expect(await saveState()).toBe('Saved')
    // Keeping one's own: it replaces the other version.
    await tp.json(`/v1/content/articles/${bulbs}`, {
      token,
      method: 'PATCH',
      body: { body: 'Theirs again.' },
    })
    await body().fill('Mine after all.')
    await expect.poll(saveState, { timeout: 10_000 }).toBe('Not saved: changed elsewhere')
    await page.getByRole('button', { name: 'Keep mine' }).click()
    await expect.poll(saveState, { timeout: 10_000 }).toBe('Saved')
    expect((await article(bulbs)).body).toBe('Mine after all.')
  })

  it('lists every site’s articles newest first, by site, status, tag and author, searched, a page at a time', async () => {
    const sites = (await tp.json('/v1/content?type=site', { token })).body.data
    const kitchen = sites.find((s: { name: string }) => s.name === 'Kitchen').id
    const writer = await addMember(tp, tenantId, 'admin')
    for (let i = 1; i <= 21; i++) {
      const made = await tp.json('/v1/content/articles', {
        token: i <= 3 ? writer.token : token,
        body: {
          site_id: kitchen,
          title: `Recipe ${i}`,
          body: `Step ${i}.`,
          ...(i === 5 && { tags: ['winter'] }),
        },
      })
      expect(made.status, JSON.stringify(made.body)).toBe(201)
    }
    await go('#/articles')
    const rows = page.locator('tr[data-article]')
    await expect.poll(() => rows.count()).toBe(20)
    expect(await rows.first().textContent()).toContain('Recipe 21')
    await page.getByRole('button', { name: 'Older →' }).click()
    await expect.poll(() => rows.count()).toBe(3)
    expect(await page.getByRole('navigation', { name: 'Pages' }).textContent()).toContain('Page 2')
    await page.getByRole('button', { name: '← Newer' }).click()
    await expect.poll(() => rows.count()).toBe(20)
    await screenshot(page, 'articles')
    await screenshot(page, 'articles-narrow', 390)

    // Each change of filter reads the list again; the titles say when the new list is in.
    const titles = () => page.locator('tr[data-article] td[data-label="Title"] strong').allTextContents()
    await page.getByLabel('Filter by site').selectOption({ label: 'Garden notes' })
    await expect.poll(titles).toEqual(['Bulbs for spring', 'First frost'])
    await page.getByLabel('Filter by status').selectOption('published')
    await expect.poll(titles).toEqual(['First frost'])
    await page.getByLabel('Filter by status').selectOption('scheduled')
    await page.getByText('No article matches.').waitFor()
    await page.getByLabel('Filter by status').selectOption('')
    await page.getByLabel('Filter by site').selectOption('')
    await expect.poll(() => rows.count()).toBe(20)
    // First frost lost its tags to the restore: only the recipe keeps Winter.
    await page.getByLabel('Filter by tag').selectOption({ label: 'Winter' })
    await expect.poll(titles).toEqual(['Recipe 5'])
    await page.getByLabel('Filter by tag').selectOption('')
    await page.getByLabel('Filter by author').selectOption({ label: writer.email })
    await expect.poll(titles).toEqual(['Recipe 3', 'Recipe 2', 'Recipe 1'])
    await page.getByLabel('Filter by author').selectOption('')
    await page.getByLabel('Search articles by title').fill('bulbs')
    await page.getByLabel('Search articles by title').press('Enter')
    await expect.poll(titles).toEqual(['Bulbs for spring'])
    await screenshot(page, 'articles-search')
    await page.getByLabel('Search articles by title').fill('nothing like this')
    await page.getByLabel('Search articles by title').press('Enter')
    await page.getByText('No article matches.').waitFor()
  })

  it('makes a preview link with Copy, which shows the saved article to someone signed out', async () => {
    // The article as saved now (the restore above left its body empty): a heading to render.
    const saved = await tp.json(`/v1/content/articles/${firstId}`, {
      token,
      method: 'PATCH',
      body: { body: '## What to plant\n\nGarlic, now.' },
    })
    expect(saved.status, JSON.stringify(saved.body)).toBe(200)
    await go(`#/articles/${firstId}`)
    const title = (await article(firstId)).title as string
    await page.getByRole('button', { name: 'Preview link' }).click()
    const box = page.getByRole('region', { name: 'Preview link' })
    const link = await box.getByLabel('The new secret').inputValue()
    expect(link).toMatch(/\/dashboard\/#\/preview\/prv_[0-9A-Za-z]{32}$/)
    await box.getByRole('button', { name: 'Copy' }).click()
    await box.getByRole('button', { name: 'Copied' }).waitFor()
    await screenshot(page, 'editor-preview-link')
    // A browser with no session: the link alone shows the article, rendered.
    const stranger = await browser.newContext()
    try {
      const reader = await stranger.newPage()
      await reader.goto(link)
      const preview = reader.getByRole('article', { name: 'Preview' })
      await preview.getByRole('heading', { level: 1, name: title }).waitFor()
      expect(await preview.locator('.rendered').innerHTML()).toContain('<h2')
      await screenshot(reader, 'preview-signed-out')
    } finally {
      await stranger.close()
    }
  })

  it('logged no console error (no refused image or script) on any page', () => {
    // Expected: the image the Markdown names on purpose and that does not exist, and the answers
    // to input refused on purpose (an http canonical URL twice, a schedule in the past), which the
    // browser logs as failed loads.
    const expected = (e: string) => e.includes(MISSING) || e.includes('status of 400 (Bad Request)')
    expect(consoleErrors.filter((e) => !expected(e))).toEqual([])
    expect(consoleErrors.filter((e) => e.includes('status of 400')).length).toBe(3)
  })
})
