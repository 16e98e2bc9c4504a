import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildDashboard } from '../dashboard/build.ts'
import { chromiumMissing, openBrowser, screenshot, signUpWithWorkspace } from './support/chromium.ts'
import { startTestPlatform, type TestPlatform } from './support/platform.ts'
import { startReceiver, type WebhookReceiver, waitFor } from './support/webhook-receiver.ts'

/**
 * An article's story in Chromium at 1280 and 390 px: from the editor, the Story link shows where the
 * article came from and what happened to it, in order (its source items, its revisions, the
 * publish, the webhook delivery), each step with its record's id and a link to the page that shows
 * it. DASHBOARD_SCREENSHOTS=<folder> saves the screenshots (docs/dashboard/ keeps them).
 */

const USER = { email: 'editor@story.example', password: 'editor story password' }
const missing = chromiumMissing('tests/dashboard-story.test.ts')

let tp: TestPlatform
let receiver: WebhookReceiver
let browser: Browser
let page: Page
let consoleErrors: string[]
let dashboardUrl: string

const pageToken = () =>
  page.evaluate(() => {
    const key = Object.keys(localStorage).find((k) => k.endsWith('-auth-token'))!
    return JSON.parse(localStorage.getItem(key)!).access_token as string
  })

beforeAll(async () => {
  if (missing) return
  ;[, tp, receiver] = await Promise.all([buildDashboard(), startTestPlatform(), startReceiver()])
  dashboardUrl = `${tp.baseUrl}/dashboard/`
  ;({ browser, page, consoleErrors } = await openBrowser())
  await signUpWithWorkspace(page, dashboardUrl, USER, 'Story')
}, 180_000)
afterAll(async () => {
  await browser?.close()
  await receiver?.close()
  await tp?.close()
})

describe.skipIf(missing)("an article's story in the dashboard", () => {
  it('shows the path from the source items to the webhook in order, each step linked to its record', async () => {
    const token = await pageToken()
    const site = await tp.json('/v1/content/sites', { token, body: { name: 'The Story Post' } })
    const [row] = await tp.db.sql<{ tenant_id: string }[]>`
      select tenant_id from public.sites where id = ${site.body.id}`
    const tenantId = row!.tenant_id
    expect(
      (await tp.json('/api/webhooks', { token, body: { url: receiver.url, events: ['content.published'] } }))
        .status,
    ).toBe(201)
    const source = await tp.json('/api/sources', {
      token,
      body: {
        site_id: site.body.id,
        name: 'Garden feed',
        kind: 'feed',
        config: { url: 'https://example.com/feed.xml' },
        enabled: false,
      },
    })
    expect(source.status, JSON.stringify(source.body)).toBe(201)
    // What a scrape stored and the generator cited (both are the pipeline's own writes).
    const items = await tp.db.sql<{ id: string }[]>`
      insert into public.source_items (tenant_id, source_id, external_id, url, title, text)
      values (${tenantId}, ${source.body.id}, 'a', 'https://example.com/a', 'Tulips bloom early', 'Tulips.'),
             (${tenantId}, ${source.body.id}, 'b', 'https://example.com/b', 'Rain returns', 'Rain.')
      returning id`
    const article = await tp.json('/v1/content/articles', {
      token,
      body: { site_id: site.body.id, title: 'Spring comes early', body: 'Tulips and rain.' },
    })
    expect(article.status, JSON.stringify(article.body)).toBe(201)
    const id = article.body.id as string
    for (const item of items)
      await tp.db.sql`insert into public.article_source_items (tenant_id, article_id, item_id)
        values (${tenantId}, ${id}, ${item.id})`
    const edited = await tp.json(`/v1/content/articles/${id}`, {
      method: 'PATCH',
      token,
      body: { excerpt: 'Tulips and rain: the week in the garden.' },
    })
    expect(edited.status, JSON.stringify(edited.body)).toBe(200)
    const published = await tp.json(`/v1/content/articles/${id}/publish`, { method: 'POST', token })
    expect(published.status, JSON.stringify(published.body)).toBe(200)
    await waitFor(() => receiver.received.length > 0, 30_000, 'the content.published webhook')
    await waitFor(
      async () =>
        (
          await tp.db
            .sql`select 1 from public.webhook_deliveries where tenant_id = ${tenantId} and status = 'succeeded'`
        ).length > 0,
      30_000,
      'the delivery recorded',
    )

    await page.goto(`${dashboardUrl}#/articles/${id}`)
    await page.getByRole('link', { name: /^Story:/ }).click()
    await page.getByRole('heading', { name: 'Story of “Spring comes early”' }).waitFor()
    const story = page.getByRole('list', { name: 'Story' })
    const kinds = await story.locator('li').evaluateAll((els) => els.map((e) => e.getAttribute('data-kind')))
    expect(kinds.filter((k) => k === 'source_item')).toHaveLength(2)
    const order = ['source_item', 'revision', 'published', 'webhook_delivery'].map((k) => kinds.indexOf(k))
    expect(
      order.every((at) => at >= 0),
      kinds.join(', '),
    ).toBe(true)
    expect([...order].sort((a, b) => a - b)).toEqual(order)
    // Each step names its record and opens the page that shows it.
    const delivery = story.locator('li[data-kind="webhook_delivery"]')
    expect(await delivery.textContent()).toContain('content.published webhook succeeded after 1 attempt')
    expect(await delivery.getByRole('link', { name: 'Open' }).getAttribute('href')).toMatch(
      /^#\/webhooks\/[0-9a-f-]{36}$/,
    )
    const item = story.locator('li[data-kind="source_item"]').first()
    expect(await item.locator('code').first().textContent()).toMatch(/^[0-9a-f-]{36}$/)
    expect(await story.locator('li[data-kind="revision"]').first().textContent()).toContain(
      `by ${USER.email}`,
    )
    await screenshot(page, 'article-story')
    await screenshot(page, 'article-story-narrow', 390)
    expect(consoleErrors).toEqual([])
  }, 120_000)
})
