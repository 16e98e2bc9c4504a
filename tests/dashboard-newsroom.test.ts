import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildDashboard } from '../dashboard/build.ts'
import { chromiumMissing, openBrowser, screenshot, signUpWithWorkspace } from './support/chromium.ts'
import { addMember, startTestPlatform, type TestPlatform, type TestTenant } from './support/platform.ts'

/**
 * The dashboard as a newsroom, in chromium at 1280 and 390 px: the menu by role (a contributor's
 * writing pages; an editor's newsroom with the plumbing folded under Settings; an owner's
 * everything), Home's "Needs you today" counts and links, and the review loop (an editor returns a
 * draft with a note, its writer reads the note; a contributor reads another's draft read-only;
 * Publish asks first). The signed-in user's role is changed in the database between the parts,
 * as an owner would in Team. DASHBOARD_SCREENSHOTS=<folder> keeps the screenshots.
 */

const USER = { email: 'desk@newsroom.example', password: 'newsroom password 1' }
const skip = chromiumMissing('tests/dashboard-newsroom.test.ts')

let tp: TestPlatform
let browser: Browser
let page: Page
let consoleErrors: string[]
let dashboardUrl: string
let me: { user_id: string; tenant_id: string }
let writer: TestTenant
let editor: TestTenant
let siteId: string

async function go(hash: string): Promise<void> {
  await page.goto(`${dashboardUrl}${hash}`)
  await page.reload()
  await page.locator('main h1').first().waitFor()
}
async function actAs(role: 'owner' | 'member' | 'contributor', hash = '#/home'): Promise<void> {
  await tp.db.sql`update public.tenant_members set role = ${role} where user_id = ${me.user_id}`
  await go(hash)
  await page.locator(`nav[data-role="${role}"]`).waitFor()
}
/** The menu's entries as the reader sees them, in order (folded ones included). */
const menu = () =>
  page
    .locator('nav[aria-label="Sections"] a')
    .evaluateAll((links) => links.map((a) => (a.childNodes[0]?.textContent ?? '').trim()))
const visible = (name: string) => page.locator('nav').getByRole('link', { name, exact: true }).isVisible()
const post = (path: string, token: string, body?: unknown) =>
  tp.json(`/v1/content/articles/${path}`, { token, ...(body !== undefined ? { body } : { method: 'POST' }) })
async function draft(token: string, title: string): Promise<string> {
  const res = await tp.json('/v1/content/articles', {
    token,
    body: { site_id: siteId, title, body: 'Text.' },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body.id
}
/** A Home line's count as shown, and where it links. */
async function need(id: string): Promise<[string, string | null]> {
  const line = page.locator(`li[data-need="${id}"]`)
  await line.waitFor()
  return [
    (await line.locator('.need-count').textContent()) ?? '',
    await line.locator('a').getAttribute('href'),
  ]
}

beforeAll(async () => {
  if (skip) return
  await buildDashboard()
  tp = await startTestPlatform()
  dashboardUrl = `${tp.baseUrl}/dashboard/`
  ;({ browser, page, consoleErrors } = await openBrowser())
  await signUpWithWorkspace(page, dashboardUrl, USER, 'Harbour Times')
  const [found] = await tp.db.sql<{ user_id: string; tenant_id: string }[]>`
    select m.user_id, m.tenant_id from public.tenant_members m join auth.users u on u.id = m.user_id
    where u.email = ${USER.email}`
  me = found!
  // A second owner: a tenant keeps one while the signed-in user's role changes.
  await addMember(tp, me.tenant_id, 'owner')
  writer = await addMember(tp, me.tenant_id, 'contributor')
  editor = await addMember(tp, me.tenant_id, 'member')
  const site = await tp.json('/v1/content/sites', { token: editor.token, body: { name: 'Harbour Times' } })
  siteId = site.body.id
  // One draft waits for review; one article is scheduled.
  await post(`${await draft(writer.token, 'Ferry strike ends')}/submit`, writer.token)
  await post(`${await draft(editor.token, 'Regatta preview')}/schedule`, editor.token, {
    publish_at: '2100-01-01T08:00:00Z',
  })
}, 180_000)

afterAll(async () => {
  await browser?.close()
  await tp?.close()
})

describe.skipIf(skip)('the dashboard by role', () => {
  it('shows an owner everything, what needs them today and the set-up checklist', async () => {
    await actAs('owner')
    expect(await menu()).toEqual([
      ...[
        'Home',
        'Articles',
        'Review',
        'Scheduled',
        'Assistant',
        'Automations',
        'Approvals',
        'Sites',
        'Tags',
      ],
      ...['Sources', 'Integrations', 'Credentials', 'Webhooks', 'Commerce', 'Affiliate', 'Jobs', 'Usage'],
      ...['Request log', 'API keys', 'MCP clients', 'Team'],
    ])
    expect(await visible('Credentials')).toBe(true)
    expect(await need('review')).toEqual(['1', '#/review'])
    expect(await need('scheduled')).toEqual(['1', '#/scheduled'])
    expect(await need('approvals')).toEqual(['0', '#/approvals'])
    expect(await need('deliveries')).toEqual(['0', '#/webhooks'])
    expect(await need('quota')).toEqual(['0', '#/usage'])
    // The menu counts the draft waiting for review.
    await expect.poll(() => page.locator('nav a[href="#/review"] .count').textContent()).toBe('1')
    await page.getByRole('heading', { name: 'Getting started' }).waitFor()
    await screenshot(page, 'nav-owner')
    await screenshot(page, 'nav-owner-390', 390)
  })

  it("shows an editor the newsroom first, the plumbing folded under Settings, and today's review", async () => {
    await actAs('member')
    expect((await menu()).slice(0, 9)).toEqual([
      ...[
        'Home',
        'Articles',
        'Review',
        'Scheduled',
        'Assistant',
        'Automations',
        'Approvals',
        'Sites',
        'Tags',
      ],
    ])
    expect(await visible('Credentials')).toBe(false)
    await page.locator('nav details.nav-fold summary').click()
    expect(await visible('Credentials')).toBe(true)
    await page.locator('nav details.nav-fold summary').click()
    expect(await need('review')).toEqual(['1', '#/review'])
    // One draft, said as one.
    const reviewLine = (await page.locator('li[data-need="review"]').textContent()) ?? ''
    expect(reviewLine).toContain('draft waiting for review')
    expect(reviewLine).not.toContain('drafts')
    expect(await page.locator('li[data-need="approvals"]').count()).toBe(0)
    expect(await page.getByRole('heading', { name: 'Getting started' }).count()).toBe(0)
    await screenshot(page, 'home-editor')
    await screenshot(page, 'nav-editor')
    await screenshot(page, 'nav-editor-390', 390)

    // Home's link opens the review queue.
    await page.locator('li[data-need="review"] a').click()
    await page.getByRole('heading', { name: 'Review', exact: true }).waitFor()
    await page.getByRole('link', { name: 'Ferry strike ends' }).waitFor()
    expect(await page.getByRole('link', { name: 'Regatta preview' }).count()).toBe(0)
  })

  it('lets an editor return a submitted draft with a note, and asks before publishing', async () => {
    await actAs('member')
    const id = await draft(writer.token, 'Harbour dues rise')
    await post(`${id}/submit`, writer.token)
    await go(`#/articles/${id}`)
    await page.getByRole('heading', { name: 'Harbour dues rise' }).waitFor()
    await page.getByText('Return to the writer with a note').click()
    await page.getByLabel('Note for the writer').fill('Quote the harbour master.')
    await screenshot(page, 'review-return-form')
    await page.getByRole('button', { name: 'Return to the writer' }).click()
    await page.getByRole('note', { name: 'Returned with a note' }).waitFor()
    const seen = await tp.json(`/v1/content/articles/${id}`, { token: writer.token })
    expect(seen.body).toMatchObject({
      review_requested_at: null,
      review_return: { note: 'Quote the harbour master.' },
    })

    // Publish asks first: cancelling leaves it a draft.
    await page.getByRole('button', { name: 'Publish', exact: true }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByText('Publish “Harbour dues rise” now?').waitFor()
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    expect((await tp.json(`/v1/content/articles/${id}`, { token: editor.token })).body.status).toBe('draft')
    await page.getByRole('button', { name: 'Publish', exact: true }).click()
    await dialog.getByRole('button', { name: 'Publish' }).click()
    await expect
      .poll(async () => (await tp.json(`/v1/content/articles/${id}`, { token: editor.token })).body.status)
      .toBe('published')
  })

  it('shows a contributor its writing only, its drafts on Home, another’s draft read-only and the note it was returned with', async () => {
    await actAs('contributor')
    expect(await menu()).toEqual(['Home', 'Articles', 'My drafts', 'Assistant', 'Team'])
    for (const hidden of ['Credentials', 'Commerce', 'Sites', 'Review'])
      expect(await page.locator('nav').getByRole('link', { name: hidden, exact: true }).count()).toBe(0)
    expect(await page.getByRole('heading', { name: 'Getting started' }).count()).toBe(0)
    const token = await page.evaluate(() => {
      const key = Object.keys(localStorage).find((k) => k.endsWith('-auth-token'))!
      return JSON.parse(localStorage.getItem(key)!).access_token as string
    })
    const mine = await draft(token, 'Lighthouse open day')
    await post(`${mine}/submit`, token)
    await post(`${mine}/return`, editor.token, { note: 'Add the opening hours.' })
    await go('#/home')
    expect(await need('drafts')).toEqual(['1', '#/drafts'])
    expect(await need('submitted')).toEqual(['0', '#/drafts'])
    await screenshot(page, 'home-contributor')
    await screenshot(page, 'nav-contributor')
    await screenshot(page, 'nav-contributor-390', 390)

    // Its own returned draft: the note, and Submit for review again.
    await go(`#/articles/${mine}`)
    const note = page.getByRole('note', { name: 'Returned with a note' })
    await note.getByText('Add the opening hours.').waitFor()
    expect(await page.getByRole('button', { name: 'Submit for review' }).count()).toBe(1)
    // A tag the workspace lacks is answered in words, nothing is sent to be refused, and the
    // contributor can still pick an existing one.
    const tagsBefore = (await tp.json('/v1/content/tags', { token: editor.token })).body.data.length
    await page.getByLabel('Add a tag').fill('Lighthouses')
    await page.getByRole('button', { name: 'Add tag' }).click()
    await page.getByRole('status').getByText("“Lighthouses” is not one of the workspace's tags").waitFor()
    expect(await page.getByRole('alert').count()).toBe(0)
    expect((await tp.json('/v1/content/tags', { token: editor.token })).body.data.length).toBe(tagsBefore)
    await screenshot(page, 'review-return')
    await screenshot(page, 'review-return-390', 390)

    // Another writer's draft: read-only, said plainly, no refusal to read.
    const theirs = await draft(writer.token, 'Tide tables for December')
    await go(`#/articles/${theirs}`)
    await page.locator('[data-read-only]').getByText('Read-only.').waitFor()
    expect(await page.getByLabel('Title', { exact: true }).getAttribute('readonly')).not.toBeNull()
    expect(await page.getByLabel('Body (Markdown)').getAttribute('readonly')).not.toBeNull()
    expect(await page.getByRole('alert').count()).toBe(0)
    await screenshot(page, 'contributor-read-only')
    expect(consoleErrors.filter((e) => !e.includes('403'))).toEqual([])
  })
})
