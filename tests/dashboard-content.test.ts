import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { buildDashboard } from '../dashboard/build.ts'
import { linkify, renderMailbox, wantsMailboxPage } from '../local-platform/mailbox-page.ts'
import { chromiumMissing, openBrowser, screenshot, signUpWithWorkspace } from './support/chromium.ts'
import { type LlmServer, startLlmServer } from './support/llm-server.ts'
import { startTestPlatform, type TestPlatform } from './support/platform.ts'
import { startReceiver, type WebhookReceiver } from './support/webhook-receiver.ts'

/**
 * The dashboard's content pages in a real browser (Debian's chromium, playwright-core) against
 * the whole platform: the first-run checklist, sites, articles and the editor, a generated draft
 * with its source items, usage per day, and an invitation from the e-mail's link to joining.
 * Every page is also looked at 390 px wide, no page may log a console error, and the app has its
 * favicon. DASHBOARD_SCREENSHOTS=<folder> saves the screenshots.
 */

const OWNER = { email: 'editor@content.example', password: 'editor password 1' }
const INVITEE = { email: 'writer@content.example', password: 'writer password 1' }
const OPENAI = 'bc152fb4-8e13-4148-bfdc-1734d3f3c667'
/**
 * Where the invitation e-mail points (DASHBOARD_URL): the dashboard as a front end on another
 * loopback origin, as a dev server would serve it. The browser gets its files from the platform
 * (a route below) and calls the platform across origins, which the local platform's CORS allows.
 */
const FRONT_END = 'http://localhost:5173'

let tp: TestPlatform
let llm: LlmServer
let receiver: WebhookReceiver
let browser: Browser
let page: Page
let dashboardUrl: string
let consoleErrors: string[] = []

async function go(hash: string): Promise<void> {
  await page.goto(`${dashboardUrl}${hash}`)
  await page.reload()
  await page.locator('main h1').first().waitFor()
}

/** The article editor's save state: Saved, Saving…, Unsaved changes or Not saved. */
const saveState = () => page.locator('.save-state').getAttribute('data-state')

/** The signed-in user's access token, from supabase-js's storage in the page. */
const pageToken = () =>
  page.evaluate(() => {
    const key = Object.keys(localStorage).find((k) => k.endsWith('-auth-token'))!
    return JSON.parse(localStorage.getItem(key)!).access_token as string
  })

const browserMissing = chromiumMissing('tests/dashboard-content.test.ts')

beforeAll(async () => {
  if (browserMissing) return
  await buildDashboard()
  ;[llm, receiver] = await Promise.all([startLlmServer(), startReceiver()])
  tp = await startTestPlatform({
    env: {
      OPENAI_BASE_URL: llm.openaiBaseUrl,
      ANTHROPIC_BASE_URL: llm.anthropicBaseUrl,
      DASHBOARD_URL: `${FRONT_END}/dashboard/`,
    },
  })
  dashboardUrl = `${tp.baseUrl}/dashboard/`
  ;({ browser, page, consoleErrors } = await openBrowser())
  await page
    .context()
    .route(`${FRONT_END}/**`, (route) =>
      route.continue({ url: route.request().url().replace(FRONT_END, tp.baseUrl) }),
    )
}, 90_000)

// A failed step leaves what the page showed, for whoever reads the failure.
afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail' && page)
    await page
      .screenshot({ path: join(process.env.TMPDIR ?? '/tmp', 'dashboard-content-failure.png') })
      .catch(() => {})
})

afterAll(async () => {
  await browser?.close()
  await Promise.all([llm?.close(), receiver?.close(), tp?.close()])
})

describe.skipIf(browserMissing)('content pages in a browser', { timeout: 60_000 }, () => {
  it('lands a new tenant on a checklist of its real state, whose steps link and tick', async () => {
    await signUpWithWorkspace(page, dashboardUrl, OWNER, 'Content Co')
    await page.getByText('0 of 6 steps done').waitFor()
    expect(await page.locator('ol.checklist li.done').count()).toBe(0)
    expect(
      await page.locator('ol.checklist li').evaluateAll((li) => li.map((l) => l.getAttribute('data-step'))),
    ).toEqual(['site', 'source', 'integration', 'ai-credential', 'api-key', 'webhook'])

    // A step's link leads to its page; an AI credential made there ticks its step.
    await page.getByRole('link', { name: 'Add a credential' }).click()
    await page.getByRole('heading', { name: 'Credentials' }).waitFor()
    const token = await pageToken()
    const credential = await tp.json('/api/credentials', {
      token,
      body: { provider_id: OPENAI, name: 'OpenAI', environment: 'production', credential: llm.key },
    })
    expect(credential.status, JSON.stringify(credential.body)).toBe(201)
    const hook = await tp.json('/api/webhooks', {
      token,
      body: { url: receiver.url, events: ['content.published', 'content.updated', 'site.deleted'] },
    })
    expect(hook.status, JSON.stringify(hook.body)).toBe(201)
    await go('#/home')
    await page.getByText('2 of 6 steps done').waitFor()
    expect(
      await page
        .locator('ol.checklist li.done')
        .evaluateAll((li) => li.map((l) => l.getAttribute('data-step'))),
    ).toEqual(['ai-credential', 'webhook'])
    await screenshot(page, 'home')
    await screenshot(page, 'home-narrow', 390)
  })

  it('creates, edits and searches sites; empty pages say what to do next, without API paths', async () => {
    await go('#/sites')
    const empty = page.locator('main .note')
    await empty.first().waitFor()
    expect(await page.locator('main').textContent()).not.toMatch(/\/v1\/|POST |GET /)
    await screenshot(page, 'sites-empty')
    await page.getByLabel('Name', { exact: true }).fill('Tech blog')
    // A pasted address is cut to its host, on leaving the field and on saving.
    await page.getByLabel('Domain (optional)').fill('https://Blog.Example.com/')
    await page.getByLabel('Name', { exact: true }).focus()
    expect(await page.getByLabel('Domain (optional)').inputValue()).toBe('blog.example.com')
    await page.getByLabel('Domain (optional)').fill('https://Blog.Example.com/')
    await page.getByRole('button', { name: 'Create site' }).click()
    await page.getByRole('heading', { name: 'Tech blog' }).waitFor()
    expect(await page.locator('main').textContent()).toContain('blog.example.com')
    // The site's articles are read after its heading is shown ("Loading…" until then).
    await expect.poll(() => page.locator('main').textContent()).toContain('No articles yet')

    await go('#/sites')
    await page.locator('tr[data-site]').first().waitFor()
    await page.locator('summary', { hasText: 'Create a site' }).click()
    const create = page.getByRole('form', { name: 'Create a site' })
    await create.getByLabel('Name', { exact: true }).fill('Recipes')
    await create.getByRole('button', { name: 'Create site' }).click()
    await page.getByRole('heading', { name: 'Recipes' }).waitFor()
    await go('#/sites')
    const tech = page.locator('tr', { hasText: 'Tech blog' })
    await tech.getByRole('button', { name: 'Edit' }).click()
    await page
      .getByRole('form', { name: 'Edit Tech blog' })
      .getByLabel('Name', { exact: true })
      .fill('Tech notes')
    await page.getByRole('form', { name: 'Edit Tech blog' }).getByRole('button', { name: 'Save' }).click()
    await page.locator('tr', { hasText: 'Tech notes' }).waitFor()
    await page.getByLabel('Search sites').fill('reci')
    await page.getByLabel('Search sites').press('Enter')
    await expect.poll(() => page.locator('tr[data-site]').count()).toBe(1)
    expect(await page.locator('tr[data-site]').textContent()).toContain('Recipes')
    await page.getByLabel('Search sites').fill('')
    await page.getByLabel('Search sites').press('Enter')
    await expect.poll(() => page.locator('tr[data-site]').count()).toBe(2)
    await screenshot(page, 'sites')
    await screenshot(page, 'sites-narrow', 390)
  })

  it("turns a site's feeds public from its page, and its feed then answers without a key", async () => {
    await go('#/sites')
    await page.getByRole('link', { name: 'Tech notes' }).click()
    await page.getByRole('heading', { name: 'Tech notes' }).waitFor()
    const siteId = new URL(page.url()).hash.split('/').pop()!
    expect((await tp.request(`/feeds/${siteId}/rss.xml`)).status).toBe(404)
    await page.locator('summary', { hasText: 'Readers: feeds, sitemap, links' }).click()
    const form = page.getByRole('form', { name: 'Reader settings' })
    await form.getByLabel('Article URL pattern').fill('https://blog.example.com/posts/{slug}')
    await form.getByLabel('Public feeds and sitemap', { exact: false }).check()
    await form.getByLabel('Structured data type').selectOption('NewsArticle')
    await form.getByRole('button', { name: 'Save reader settings' }).click()
    await page.locator('summary', { hasText: '(feeds public)' }).waitFor()
    const token = await pageToken()
    const site = await tp.json(`/v1/content/sites/${siteId}`, { token })
    expect(site.body).toMatchObject({
      public_feeds: true,
      article_url_pattern: 'https://blog.example.com/posts/{slug}',
      article_schema_type: 'NewsArticle',
    })
    const feed = await tp.request(`/feeds/${siteId}/rss.xml`)
    expect([feed.status, feed.headers.get('content-type')]).toEqual([
      200,
      'application/rss+xml; charset=utf-8',
    ])
    await screenshot(page, 'site-readers')
  })

  it('writes an article, edits, publishes and unpublishes it, and the delivery log shows both events', async () => {
    await go('#/sites')
    await page.getByRole('link', { name: 'Tech notes' }).click()
    await page.getByRole('heading', { name: 'Tech notes' }).waitFor()
    await page.getByLabel('Title', { exact: true }).fill('Edge functions in practice')
    await page.getByLabel('Body (Markdown)').fill('First draft.')
    await page.getByRole('button', { name: 'Create draft' }).click()
    await page.getByRole('heading', { name: 'Edge functions in practice' }).waitFor()
    // The editor saves a draft on its own once typing pauses.
    await page.getByLabel('Body (Markdown)').fill('First draft, now longer.')
    await expect.poll(saveState, { timeout: 10_000 }).toBe('Saved')
    const token = await pageToken()
    const [row] = await tp.db.sql<{ id: string; body: string }[]>`
      select id, body from public.articles where title = 'Edge functions in practice'`
    expect(row!.body).toBe('First draft, now longer.')

    await page.getByRole('button', { name: 'Publish' }).click()
    // Publish asks first (the dialog names the article).
    await page.getByRole('dialog').getByRole('button', { name: 'Publish' }).click()
    await page.getByText('content.published', { exact: true }).waitFor()
    await expect.poll(() => page.locator('main .pill').first().textContent()).toBe('published')
    // The status once, then when: never "published published just now".
    const line = (await page.locator('main p.muted').first().textContent())!.replace(/\s+/g, ' ')
    expect(line).toMatch(/^Published just now · by editor$/)
    await screenshot(page, 'article')
    await screenshot(page, 'article-narrow', 390)
    await page.getByRole('button', { name: 'Unpublish' }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Unpublish' }).click()
    await expect.poll(() => page.locator('main .pill').first().textContent()).toBe('draft')

    // Both changes went out as webhook events, and the subscription's delivery log shows them.
    await page.getByRole('link', { name: 'webhook subscriptions' }).click()
    await page.getByRole('link', { name: receiver.url }).click()
    await page.getByRole('heading', { name: 'Delivery log' }).waitFor()
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh' }).click()
          return page.locator('tr[data-event="content.published"]').count()
        },
        { timeout: 15_000 },
      )
      .toBeGreaterThan(0)
    const unpublished = receiver.received.find(
      (r) => r.body?.type === 'content.updated' && r.body.data.changed_fields?.includes('status'),
    )
    expect(unpublished?.body.data).toMatchObject({ article_id: row!.id, status: 'draft', change: 'updated' })
    await expect
      .poll(async () => {
        await page.getByRole('button', { name: 'Refresh' }).click()
        return page.locator('tr[data-event="content.updated"]').count()
      })
      .toBeGreaterThan(0)

    // Search and the status filter on the site's list.
    const site = (await tp.json('/v1/content?type=site&q=tech', { token })).body.data[0]
    for (const title of ['Serverless costs', 'A recipe for caching'])
      await tp.json('/v1/content/articles', { token, body: { site_id: site.id, title, body: 'x' } })
    const other = await tp.json('/v1/content?type=article&q=costs', { token })
    await tp.json(`/v1/content/articles/${other.body.data[0].id}/publish`, { token, method: 'POST' })
    await go(`#/sites/${site.id}`)
    await expect.poll(() => page.locator('tr[data-article]').count()).toBe(3)
    // Newest first.
    expect(await page.locator('tr[data-article]').first().textContent()).toContain('A recipe for caching')
    await page.getByLabel('Article status').selectOption('published')
    await expect.poll(() => page.locator('tr[data-article]').count()).toBe(1)
    expect(await page.locator('tr[data-article]').textContent()).toContain('Serverless costs')
    await page.getByLabel('Article status').selectOption('')
    await page.getByLabel('Search articles by title').fill('edge PRACTICE')
    await page.getByLabel('Search articles by title').press('Enter')
    await expect.poll(() => page.locator('tr[data-article]').count()).toBe(1)
    await page.getByLabel('Search articles by title').fill('nothing like this')
    await page.getByLabel('Search articles by title').press('Enter')
    await page.getByText('No article matches.').waitFor()
    await page.getByLabel('Search articles by title').fill('')
    await page.getByLabel('Search articles by title').press('Enter')
    await expect.poll(() => page.locator('tr[data-article]').count()).toBe(3)
    await screenshot(page, 'site-articles')
    await screenshot(page, 'site-articles-narrow', 390)
  })

  it('shows a generated draft with the source items it came from, and the job names its site', async () => {
    const token = await pageToken()
    const site = (await tp.json('/v1/content?type=site&q=tech', { token })).body.data[0]
    const [tenant] = await tp.db.sql<
      { id: string }[]
    >`select id from public.tenants where name = 'Content Co'`
    // Scraped items are written only by the scrape job: seeded here as it would leave them.
    const [source] = await tp.db.sql<{ id: string }[]>`
      insert into public.sources (tenant_id, site_id, name, kind, config)
      values (${tenant!.id}, ${site.id}, 'Company feed', 'feed', '{"url":"https://example.com/feed.xml"}') returning id`
    await tp.db.sql`
      insert into public.source_items (tenant_id, source_id, external_id, url, title, text, author, published_at)
      select ${tenant!.id}, ${source!.id}, 'item-' || n, 'https://example.com/p/' || n, 'Post ' || n,
             'The body of post ' || n, 'Author ' || n, '2026-11-20T00:00:00Z'::timestamptz + make_interval(hours => n)
      from generate_series(1, 2) as n`
    const queued = await tp.json('/functions/v1/generate-article', {
      headers: { apikey: tp.anonKey, authorization: `Bearer ${token}` },
      body: { site_id: site.id, source_id: source!.id, provider: 'openai' },
    })
    expect(queued.status, JSON.stringify(queued.body)).toBe(202)
    let articleId = ''
    await expect
      .poll(
        async () => {
          const job = (await tp.json(`/api/jobs/${queued.body.job_id}`, { token })).body
          articleId = job.result?.article_id ?? ''
          return job.status
        },
        { timeout: 20_000 },
      )
      .toBe('succeeded')

    await go('#/jobs')
    const job = page.locator('tr[data-kind="generate-article.article"]')
    // The site's name arrives after the jobs (its list is read only once a job names a site).
    await expect
      .poll(() => job.locator('.subject').textContent(), { timeout: 10_000 })
      .toBe('site Tech notes, from 2 items')
    await job.getByRole('link', { name: 'the draft' }).click()
    const from = page.getByRole('region', { name: 'Generated from' })
    await from.waitFor()
    expect(await from.getByRole('link').evaluateAll((a) => a.map((l) => l.getAttribute('href')))).toEqual([
      'https://example.com/p/1',
      'https://example.com/p/2',
    ])
    expect(await from.textContent()).toContain('Company feed')
    expect(page.url()).toContain(`#/articles/${articleId}`)
    // The draft can be edited, then published.
    await page.getByLabel('Title', { exact: true }).fill('What the week brought, edited')
    await expect.poll(saveState, { timeout: 10_000 }).toBe('Saved')
    await page.getByRole('button', { name: 'Publish' }).click()
    // Publish asks first (the dialog names the article).
    await page.getByRole('dialog').getByRole('button', { name: 'Publish' }).click()
    await expect.poll(() => page.locator('main .pill').first().textContent()).toBe('published')
    await screenshot(page, 'generated-draft')
    await screenshot(page, 'generated-draft-narrow', 390)
  })

  it('says what deleting a site takes with it before it happens', async () => {
    await go('#/sites')
    await page.getByRole('button', { name: 'Delete Tech notes' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.waitFor()
    expect(await dialog.textContent()).toContain(
      'This also deletes 4 articles (2 published, 2 drafts), 1 source with the 2 items they collected, 0 affiliate destinations.',
    )
    await screenshot(page, 'site-delete')
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    expect(await page.locator('tr[data-site]').count()).toBe(2)
    await page.getByRole('button', { name: 'Delete Recipes' }).click()
    await expect
      .poll(() => dialog.textContent())
      .toContain('This also deletes 0 articles, 0 sources, 0 affiliate destinations.')
    await dialog.getByRole('button', { name: 'Delete site' }).click()
    await expect.poll(() => page.locator('tr[data-site]').count()).toBe(1)
  })

  it('charts each product per day against its quota', async () => {
    // The Content API meters requests made with keys (the dashboard's own reads are not counted):
    // a site's server reads the content a dozen times with its key.
    const made = await tp.json('/api/api-keys', {
      token: await pageToken(),
      body: {
        name: 'site build',
        environment: 'production',
        scopes: ['content:read'],
        rate_limit_per_minute: 100,
      },
    })
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    for (let i = 0; i < 12; i++)
      expect((await tp.request('/v1/content', { token: made.body.key })).status).toBe(200)
    const metered = async () => {
      const [row] = await tp.db.sql<{ units: string }[]>`
        select u.units::text from public.usage_counters u join public.tenants t on t.id = u.tenant_id
        where t.name = 'Content Co' and u.product_id = '0f3c6a52-6f0e-4c51-9a10-000000000001'`
      return Number(row?.units ?? 0)
    }
    await expect.poll(metered, { timeout: 10_000 }).toBeGreaterThanOrEqual(12)
    await go('#/usage')
    const charts = page.locator('figure.daily')
    await expect.poll(() => charts.count()).toBe(5)
    const content = page.getByRole('img', { name: /^Content API:/ })
    const label = await content.getAttribute('aria-label')
    // The keyed calls were metered: today's bar holds them all, the quota line is drawn.
    const used = Number(/: ([\d,]+) requests/.exec(label!)![1]!.replace(/,/g, ''))
    expect(used).toBeGreaterThan(10)
    expect(label).toContain('of a quota of 100')
    const [counter] = await tp.db.sql<{ units: string }[]>`
      select u.units::text from public.usage_counters u join public.tenants t on t.id = u.tenant_id
      where t.name = 'Content Co' and u.product_id = '0f3c6a52-6f0e-4c51-9a10-000000000001'`
    expect(used).toBe(Number(counter!.units))
    expect(await charts.first().locator('line.quota').count()).toBe(1)
    expect(await page.getByRole('meter', { name: 'Content API' }).count()).toBe(1)
    await screenshot(page, 'usage-daily')
    await screenshot(page, 'usage-daily-narrow', 390)
  })

  it('takes an invitee from the e-mail link to the tenant: tenant and role shown, sign up, accept', async () => {
    const token = await pageToken()
    const invited = await tp.json('/api/invitations', {
      token,
      body: { email: INVITEE.email, role: 'admin' },
    })
    expect(invited.status, JSON.stringify(invited.body)).toBe(201)
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.getByRole('tab', { name: 'Sign in' }).waitFor()

    // The dev mailbox, as a browser sees it: a page whose links are clickable.
    await page.goto(`${tp.baseUrl}/_dev/mailbox?to=${encodeURIComponent(INVITEE.email)}`)
    await page.getByRole('heading', { name: 'Dev mailbox' }).waitFor()
    await page.getByRole('heading', { name: 'You are invited to join Content Co' }).waitFor()
    await screenshot(page, 'mailbox')
    await screenshot(page, 'mailbox-narrow', 390)
    const link = page.getByRole('link', { name: /#\/invitation\/inv_/ })
    const href = (await link.getAttribute('href'))!
    expect(href).toMatch(/^http:\/\/localhost:5173\/dashboard\/#\/invitation\/inv_\w{32}$/)
    // Scripts still get JSON.
    const json = await tp.json(`/_dev/mailbox?to=${encodeURIComponent(INVITEE.email)}`)
    expect(json.body.data[0].subject).toBe('You are invited to join Content Co')
    await link.click()

    await page.getByRole('heading', { name: 'You are invited to join Content Co' }).waitFor()
    expect(await page.getByRole('region', { name: 'Invitation' }).textContent()).toContain('As an admin')
    expect(await page.getByLabel('E-mail').inputValue()).toBe(INVITEE.email)
    await screenshot(page, 'invitation')
    await screenshot(page, 'invitation-narrow', 390)
    await page.getByLabel('Password').fill(INVITEE.password)
    await page.getByRole('button', { name: 'Sign up' }).click()
    await page.getByRole('button', { name: 'Accept and join Content Co' }).click()
    await page.getByRole('heading', { name: 'Welcome to Content Co' }).waitFor()
    expect(await page.getByLabel('Workspace').locator('option:checked').textContent()).toBe(
      'Content Co (admin)',
    )
    const [member] = await tp.db.sql<{ role: string }[]>`
      select m.role from public.tenant_members m join auth.users u on u.id = m.user_id
      join public.tenants t on t.id = m.tenant_id where u.email = ${INVITEE.email} and t.name = 'Content Co'`
    expect(member?.role).toBe('admin')
    // The link is used up: opening it again says so.
    await page.goto(href)
    await page.reload()
    await page.getByText('This invitation is accepted').waitFor()
  })

  it('logged no console error on any page, and has a favicon', async () => {
    expect(consoleErrors).toEqual([])
    // Without an icon link, browsers ask for /favicon.ico, which nothing serves (a 404 per load).
    await page.goto(dashboardUrl)
    const icon = await page.evaluate(async () => {
      const href = document.querySelector<HTMLLinkElement>('link[rel="icon"]')?.href
      return href ? { href, status: (await fetch(href)).status } : null
    })
    expect(icon).toEqual({ href: `${dashboardUrl}favicon.svg`, status: 200 })
  })
})

// The mailbox page shows e-mail bodies, which carry tenant names and other user text: escaped,
// with only http(s) URLs made links.
describe("the dev mailbox page's rendering", () => {
  it('escapes the text, links http(s) URLs only, and leaves a full stop outside the link', () => {
    const html = linkify(
      'Join "<img src=x onerror=alert(1)>" at https://dash.example/#/invitation/inv_abc. Or javascript:alert(1)',
    )
    expect(html).toContain('&quot;&lt;img src=x onerror=alert(1)&gt;&quot;')
    expect(html).toContain(
      '<a href="https://dash.example/#/invitation/inv_abc">https://dash.example/#/invitation/inv_abc</a>.',
    )
    expect(html).not.toContain('<img')
    expect(html.match(/<a /g)).toHaveLength(1)
  })

  it('answers a browser with the page and scripts with JSON', () => {
    expect(wantsMailboxPage('text/html,application/xhtml+xml,*/*;q=0.8', undefined)).toBe(true)
    expect(wantsMailboxPage('text/html', 'json')).toBe(false)
    expect(wantsMailboxPage('*/*', undefined)).toBe(false)
    expect(wantsMailboxPage(undefined, undefined)).toBe(false)
    expect(renderMailbox([], undefined)).toContain('No e-mails yet.')
  })
})
