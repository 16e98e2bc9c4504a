import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { type Browser, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildDashboard } from '../dashboard/build.ts'
import { integrationBySlug } from '../shared/services/integrations/catalog.ts'
import type { ScriptedLlm } from './support/assistant-llm.ts'
import { type AssistantPlatform, startAssistantPlatform } from './support/assistant-platform.ts'
import type { TestPlatform } from './support/platform.ts'
import type { ProviderServer } from './support/provider-apis.ts'

/**
 * The dashboard's Approvals page in chromium against the whole platform and a scripted model:
 * the navigation's count, the waiting calls of a conversation and of an automation, a denial with
 * its reason, and who decided. DASHBOARD_SCREENSHOTS=<folder> saves screenshots there.
 */

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const SHOTS = process.env.DASHBOARD_SCREENSHOTS
const OWNER = { email: 'owner@approvals.example', password: 'owner password 1' }

let tp: TestPlatform
let llm: ScriptedLlm
let slack: ProviderServer
let peers: AssistantPlatform | undefined
let browser: Browser
let page: Page

async function shot(name: string): Promise<void> {
  if (!SHOTS) return
  mkdirSync(SHOTS, { recursive: true })
  await page.waitForTimeout(100)
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true })
}

const browserMissing = !existsSync(CHROMIUM) && !process.env.CI
if (browserMissing)
  console.warn(
    `tests/dashboard-approvals.test.ts skipped: no chromium at ${CHROMIUM} (apt-get install chromium)`,
  )

beforeAll(async () => {
  if (browserMissing) return
  await buildDashboard()
  peers = await startAssistantPlatform()
  ;({ tp, llm, slack } = peers)
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
}, 90_000)

afterAll(async () => {
  await browser?.close()
  await peers?.close()
})

describe.skipIf(browserMissing)('the Approvals page', () => {
  it('counts waiting calls in the navigation, lists them with what asked, and denies one with a reason', async () => {
    await page.goto(`${tp.baseUrl}/dashboard/`)
    await page.getByRole('tab', { name: 'Create an account' }).click()
    await page.getByLabel('E-mail').fill(OWNER.email)
    await page.getByLabel('Password').fill(OWNER.password)
    await page.getByRole('button', { name: 'Sign up' }).click()
    await page.getByLabel('Workspace name').fill('Bistro')
    await page.getByRole('button', { name: 'Create workspace' }).click()
    await page.getByRole('heading', { name: 'Welcome to Bistro' }).waitFor()
    const [me] = await tp.db.sql<{ tenant_id: string; user_id: string }[]>`
      select m.tenant_id, m.user_id from public.tenant_members m join auth.users u on u.id = m.user_id
      where u.email = ${OWNER.email}`
    const { tenant_id: tenantId, user_id: userId } = me!
    const token = await tp.tokenFor({ userId, email: OWNER.email, tenantId })
    const [openai] = await tp.db.sql<{ id: string }[]>`select id from public.providers where slug = 'openai'`
    await tp.json('/api/credentials', {
      token,
      body: { provider_id: openai!.id, name: 'OpenAI', environment: 'production', credential: llm.key },
    })
    const entry = integrationBySlug('slack')!
    const slackToken = `slack-access-${crypto.randomUUID()}`
    slack.validTokens.add(slackToken)
    const vault = tp.instances[0]!.platform.deps.vault
    const [connection] = await tp.db.sql<{ id: string }[]>`
      insert into public.integration_connections
        (tenant_id, integration_id, integration_slug, connection_type, status, external_account_id, external_account_name,
         scopes, access_token_encrypted, token_expires_at, created_by)
      values (${tenantId}, ${entry.integration_id}, 'slack', 'oauth', 'active', 'acct-bistro', 'Bistro',
              ${entry.oauth_scopes}, ${await vault.encrypt(tenantId, slackToken, 'oauth-access-token')},
              now() + interval '30 days', ${userId})
      returning id`
    await tp.json(`/api/connections/${connection!.id}/permissions`, {
      token,
      body: { tool_name: 'slack:post_message', allowed: true, requires_approval: true },
    })
    // Two calls wait: one from a conversation, one from an automation's run.
    const post = (text: string) => ({
      toolCalls: [{ name: 'slack__post_message', arguments: { channel: 'C012AB3CD', text } }],
    })
    llm.reset([post('Lunch menu is up'), { text: 'Handled.' }])
    const chat = await tp.json('/v1/assistant/conversations', { token, body: { title: 'Lunch' } })
    await tp.json(`/v1/assistant/conversations/${chat.body.id}/messages`, {
      token,
      body: { content: 'Tell #general the lunch menu is up' },
    })
    await tp.json('/v1/assistant/automations', {
      token,
      body: {
        name: 'Announce articles',
        instruction: 'Announce the new article on Slack',
        trigger: { type: 'event', event: 'content.published' },
      },
    })
    const site = await tp.json('/v1/content/sites', { token, body: { name: 'Journal' } })
    const article = await tp.json('/v1/content/articles', {
      token,
      body: { site_id: site.body.id, title: 'Spring menu' },
    })
    await tp.json(`/v1/content/articles/${article.body.id}/publish`, { method: 'POST', token })
    llm.reset([post('New on the Journal: Spring menu'), { text: 'Handled.' }])
    await tp.instances[0]!.platform.runJob('assistant/jobs/sweep')

    await page.reload()
    const link = page.getByRole('link', { name: /Approvals/ })
    await expect.poll(() => link.textContent()).toContain('2')
    await link.click()
    await page.getByRole('heading', { name: 'Approvals' }).waitFor()
    const rows = page.locator('.approvals tbody tr')
    await expect.poll(() => rows.count()).toBe(2)
    expect(await rows.nth(0).textContent()).toContain('Announce articles')
    expect(await rows.nth(0).textContent()).toContain('New on the Journal: Spring menu')
    expect(await rows.nth(1).textContent()).toContain('Lunch')
    await shot('approvals')

    await page.getByLabel('Reason for slack:post_message').nth(1).fill('Not on Fridays')
    await page.getByRole('button', { name: 'Deny slack:post_message' }).nth(1).click()
    await expect.poll(() => rows.count()).toBe(1)
    await expect.poll(() => link.textContent()).not.toContain('2')
    await page.getByRole('tab', { name: 'Denied' }).click()
    await expect.poll(() => page.locator('.approvals tbody').textContent()).toContain('Not on Fridays')
    expect(await page.locator('.approvals tbody').textContent()).toContain('by you')
    await shot('approvals-denied')

    // The automation form offers events beside a schedule.
    await page.goto(`${tp.baseUrl}/dashboard/#/automations`)
    const form = page.getByRole('form', { name: 'Add an automation' })
    await form.getByLabel('Name').fill('New items digest')
    await form.getByLabel('Instruction').fill('Summarise the new items.')
    await form.getByLabel('Runs').selectOption('source.items_added')
    await form.getByRole('button', { name: 'Add automation' }).click()
    const row = page.locator('.automations tbody tr').filter({ hasText: 'New items digest' })
    await row.waitFor()
    expect(await row.locator('[data-label="Schedule"]').textContent()).toContain('on source.items_added')
    const [saved] = await tp.db.sql<{ trigger_event: string; schedule: string | null }[]>`
      select trigger_event, schedule from public.assistant_automations where name = 'New items digest'`
    expect(saved).toEqual({ trigger_event: 'source.items_added', schedule: null })
  })
})
