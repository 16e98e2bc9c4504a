import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildDashboard } from '../dashboard/build.ts'
import { type ScriptedLlm, startScriptedLlm } from './support/assistant-llm.ts'
import { chromiumMissing, openBrowser, screenshot, signUpWithWorkspace } from './support/chromium.ts'
import { startTestPlatform, type TestPlatform } from './support/platform.ts'

/**
 * The Assistant page as people know chat pages, in chromium against the whole platform and a
 * scripted model: conversations in a sidebar grouped by date and searchable, automation runs on
 * the Automations page instead of in that list, an approval card that names its article, and the
 * model endpoint set from the assistant's settings. At 1280 and 390 px. DASHBOARD_SCREENSHOTS=<folder>
 * saves screenshots there.
 */

const OWNER = { email: 'owner@sidebar.example', password: 'owner password 1' }
const LONG_TITLE =
  'A very long conversation title about the spring menu launch, the brunch photos, the newsletter and the opening hours over the holidays'

let tp: TestPlatform
let llm: ScriptedLlm
let browser: Browser
let page: Page
let dashboardUrl: string
let tenantId: string
let token: string
let credentialId: string
const automationConversations: string[] = []

const browserMissing = chromiumMissing('tests/dashboard-assistant-sidebar.test.ts')

/** A conversation with one stored exchange, its times moved `daysAgo` back. */
async function conversation(title: string, daysAgo: number): Promise<string> {
  const made = await tp.json('/v1/assistant/conversations', { token, body: { title } })
  expect(made.status).toBe(201)
  const at = new Date(Date.now() - daysAgo * 86_400_000)
  await tp.db.sql`update public.assistant_conversations set created_at = ${at}, updated_at = ${at}
    where id = ${made.body.id}`
  return made.body.id
}

beforeAll(async () => {
  if (browserMissing) return
  await buildDashboard()
  llm = await startScriptedLlm()
  tp = await startTestPlatform({
    env: { OPENAI_BASE_URL: llm.openaiBaseUrl, ANTHROPIC_BASE_URL: llm.anthropicBaseUrl },
  })
  ;({ browser, page } = await openBrowser())
  dashboardUrl = `${tp.baseUrl}/dashboard/`
  await signUpWithWorkspace(page, dashboardUrl, OWNER, 'Bistro')
  const [row] = await tp.db.sql<{ tenant_id: string; user_id: string }[]>`
    select m.tenant_id, m.user_id from public.tenant_members m join auth.users u on u.id = m.user_id
    where u.email = ${OWNER.email}`
  tenantId = row!.tenant_id
  token = await tp.tokenFor({ userId: row!.user_id, email: OWNER.email, tenantId })
  const [openai] = await tp.db.sql<{ id: string }[]>`select id from public.providers where slug = 'openai'`
  const made = await tp.json('/api/credentials', {
    token,
    body: { provider_id: openai!.id, name: 'openai', environment: 'production', credential: llm.key },
  })
  expect(made.status).toBe(201)
  credentialId = made.body.id

  // Conversations of several ages, one with a long title.
  await conversation('Autumn wine list', 70)
  await conversation('Opening hours for the holidays', 40)
  await conversation('Weekly newsletter ideas', 4)
  await conversation('Brunch photos', 1)
  await conversation(LONG_TITLE, 0)

  // Two runs of an automation, each a conversation of its own.
  const automation = await tp.json('/v1/assistant/automations', {
    token,
    body: { name: 'Morning digest', instruction: 'Summarise yesterday.', schedule: '0 8 * * *' },
  })
  expect(automation.status).toBe(201)
  for (let i = 0; i < 2; i++) {
    await tp.db.sql`update public.assistant_automations set next_run_at = now() - interval '1 minute'
      where id = ${automation.body.id}`
    llm.reset([{ text: `Digest number ${i + 1}.` }])
    const report = await (await tp.instances[0]!.platform.runJob('assistant/jobs/sweep')).json()
    expect(report.scheduled).toBe(1)
  }
  // The sweep runs each turn on this instance; both runs record their conversation (bounded wait).
  for (let i = 0; i < 100; i++) {
    const [n] = await tp.db.sql<{ n: number }[]>`
      select count(conversation_id)::int as n from public.assistant_automation_runs
      where automation_id = ${automation.body.id}`
    if (n!.n === 2) break
    await new Promise((r) => setTimeout(r, 100))
  }
  const runs = await tp.db.sql<{ conversation_id: string }[]>`
    select conversation_id from public.assistant_automation_runs where automation_id = ${automation.body.id}`
  automationConversations.push(...runs.map((r) => r.conversation_id))

  // A call that waits for approval, scheduling an article named by its id.
  const site = await tp.json('/v1/content/sites', { token, body: { name: 'Bistro Journal' } })
  const article = await tp.json('/v1/content/articles', {
    token,
    body: { site_id: site.body.id, title: 'Spring menu is here' },
  })
  expect(article.status).toBe(201)
  llm.reset([
    {
      toolCalls: [
        {
          name: 'platform__schedule_article',
          arguments: { article_id: article.body.id, publish_at: '2027-03-01T08:00:00Z' },
        },
      ],
    },
    { text: 'Scheduled.' },
  ])
  const approval = await conversation('Schedule the spring menu', 0)
  await page.goto(`${dashboardUrl}#/assistant/${approval}`)
  await page.getByLabel('Message').fill('Schedule the spring menu article for March')
  await page.getByRole('button', { name: 'Send' }).click()
  await page
    .locator('.tool-call[data-status="awaiting_approval"]')
    .getByRole('button', { name: 'Approve' })
    .waitFor()
}, 180_000)

afterAll(async () => {
  await browser?.close()
  await Promise.all([llm?.close(), tp?.close()])
})

const sidebarLinks = () => page.locator('.conversations li a').allTextContents()

describe.skipIf(browserMissing)('the Assistant page as a chat page', () => {
  it('lists the conversations people started under date headings, without automation runs', async () => {
    await page.getByRole('link', { name: 'Brunch photos', exact: true }).waitFor()
    const headings = await page.locator('.conversations .group-label').allTextContents()
    const older = (daysAgo: number) =>
      new Date(Date.now() - daysAgo * 86_400_000).toLocaleDateString('en-US', {
        month: 'long',
        year:
          new Date(Date.now() - daysAgo * 86_400_000).getFullYear() === new Date().getFullYear()
            ? undefined
            : 'numeric',
      })
    expect(headings).toEqual(['Today', 'Yesterday', 'Previous 7 days', ...new Set([older(40), older(70)])])
    const links = await sidebarLinks()
    expect(links).toHaveLength(6)
    expect(links.filter((t) => t.startsWith('Morning digest'))).toEqual([])
    // A long title stays on one line, cut with an ellipsis; the whole of it is the tooltip.
    const long = page.locator('.conversations li a', { hasText: 'A very long conversation' })
    const box = await long.evaluate((a) => ({
      cut: a.scrollWidth > a.clientWidth,
      lines: Math.round(a.getBoundingClientRect().height / Number.parseFloat(getComputedStyle(a).lineHeight)),
      title: a.getAttribute('title'),
    }))
    expect(box).toMatchObject({ cut: true, lines: 1 })
    expect(box.title).toContain(LONG_TITLE)
    // The thread and the composer take the width beside the sidebar.
    const widths = await page.evaluate(() => ({
      sidebar: document.querySelector('.conversations')!.getBoundingClientRect().width,
      composer: document.querySelector('.chat .composer textarea')!.getBoundingClientRect().width,
    }))
    expect(widths.sidebar).toBeLessThan(300)
    expect(widths.composer).toBeGreaterThan(700)
  })

  it('names the article of a call that waits for approval by its title, in the chat and the inbox', async () => {
    const card = page.locator('.tool-call[data-status="awaiting_approval"]')
    const named = card.locator('.tool-article a')
    expect(await named.textContent()).toBe('Spring menu is here')
    expect(await named.getAttribute('href')).toMatch(/^#\/articles\/[0-9a-f-]{36}$/)
    await screenshot(page, 'assistant-after-1280')
    await screenshot(page, 'assistant-after-390', 390)
    await page.goto(`${dashboardUrl}#/approvals`)
    await page.locator('.tool-article a', { hasText: 'Spring menu is here' }).waitFor()
  })

  it('searches the conversations by title and message, never listing a run', async () => {
    await page.goto(`${dashboardUrl}#/assistant`)
    const search = page.getByLabel('Search conversations')
    await search.fill('brunch')
    await expect.poll(sidebarLinks).toEqual([LONG_TITLE, 'Brunch photos'])
    await search.fill('spring menu article')
    await expect.poll(sidebarLinks).toEqual(['Schedule the spring menu'])
    await search.fill('digest')
    await page.getByText('No conversation matches.').waitFor()
  })

  it('folds the list behind a button at 390 px while a conversation is open', async () => {
    await page.setViewportSize({ width: 390, height: 844 })
    try {
      await page.goto(`${dashboardUrl}#/assistant`)
      await page.reload() // the search box empty again
      await page.getByRole('link', { name: 'Brunch photos', exact: true }).click()
      const toggle = page.getByRole('button', { name: 'Conversations', exact: true })
      await toggle.waitFor()
      expect(await page.locator('.conversations .sidebar-body').isVisible()).toBe(false)
      await toggle.click()
      await page.getByRole('link', { name: 'Autumn wine list' }).waitFor()
      await screenshot(page, 'assistant-after-390-list', 390)
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 })
    }
  })

  it('lists automation runs on the Automations page, reached from the navigation', async () => {
    await page.getByRole('link', { name: 'Automations', exact: true }).first().click()
    await page.getByRole('heading', { name: 'Automations', level: 1 }).waitFor()
    const runs = page.locator('.run-list a')
    await expect.poll(() => runs.count()).toBe(2)
    expect((await runs.evaluateAll((as) => as.map((a) => a.getAttribute('href')))).sort()).toEqual(
      automationConversations.map((id) => `#/assistant/${id}`).sort(),
    )
    await screenshot(page, 'assistant-after-automations')
  })

  it('sets the model endpoint in the assistant settings; an address the policy refuses changes nothing', async () => {
    await page.goto(`${dashboardUrl}#/assistant`)
    await page.getByRole('button', { name: 'Settings' }).click()
    const form = page.getByRole('form', { name: 'Assistant settings' })
    await form.getByLabel('Instructions').fill('Answer in French.')
    await form.getByLabel('API endpoint').fill('http://192.168.1.10/v1')
    await form.getByRole('button', { name: 'Save settings' }).click()
    // The refusal is said below the form and beside the field it names.
    const refused = form.locator('div.error[role="alert"]')
    await refused.waitFor()
    expect(await form.locator('small.field-error').textContent()).toContain('refused')
    expect(await refused.getAttribute('data-code')).toBe('VALIDATION_ERROR')
    expect(await refused.textContent()).toContain('refused')
    const read = async () => {
      const [c] = await tp.db.sql<{ base_url: string | null }[]>`
        select base_url from public.credentials where id = ${credentialId}`
      const [s] = await tp.db.sql<{ instructions: string | null }[]>`
        select instructions from public.assistant_settings where tenant_id = ${tenantId}`
      return { base_url: c!.base_url, instructions: s?.instructions ?? null }
    }
    expect(await read()).toEqual({ base_url: null, instructions: null })
    await form.getByLabel('API endpoint').fill(`${llm.openaiBaseUrl}/`)
    await form.getByRole('button', { name: 'Save settings' }).click()
    await form.waitFor({ state: 'detached' })
    expect(await read()).toEqual({ base_url: llm.openaiBaseUrl, instructions: 'Answer in French.' })
    await page.locator('.endpoint', { hasText: llm.openaiBaseUrl }).waitFor()
  })

  it('sets a model endpoint on the credential form', async () => {
    await page.goto(`${dashboardUrl}#/credentials`)
    const row = page.locator('tbody tr').filter({ hasText: 'openai' }).first()
    await row.getByRole('button', { name: 'Rotate or endpoint' }).click()
    const form = page.getByRole('form', { name: 'Model endpoint of openai' })
    // The endpoint set in the assistant's settings shows on the credential, in its row and its form.
    expect(await form.getByLabel('Model endpoint').inputValue()).toBe(llm.openaiBaseUrl)
    expect(await row.locator('.endpoint').textContent()).toBe(llm.openaiBaseUrl)
    await screenshot(page, 'credentials-endpoint')
    await form.getByLabel('Model endpoint').fill('')
    await form.getByRole('button', { name: 'Save endpoint' }).click()
    await form.waitFor({ state: 'detached' })
    const [c] = await tp.db.sql<{ base_url: string | null }[]>`
      select base_url from public.credentials where id = ${credentialId}`
    expect(c!.base_url).toBeNull()
  })
})
