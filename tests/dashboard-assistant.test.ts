import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildDashboard } from '../dashboard/build.ts'
import { integrationBySlug } from '../shared/services/integrations/catalog.ts'
import type { ScriptedLlm } from './support/assistant-llm.ts'
import { type AssistantPlatform, startAssistantPlatform } from './support/assistant-platform.ts'
import {
  chromiumMissing,
  openBrowser,
  openNewConversation,
  screenshot,
  signUpWithWorkspace,
} from './support/chromium.ts'
import type { TestPlatform } from './support/platform.ts'
import type { ProviderServer } from './support/provider-apis.ts'

/**
 * The dashboard's Assistant page in chromium against the whole platform, a scripted model that
 * streams, and a loopback Slack: the missing-credential message, a streamed answer with a tool
 * card, a refused call with its reason, and a call approved from its card.
 * DASHBOARD_SCREENSHOTS=<folder> saves screenshots there.
 */

const OWNER = { email: 'owner@assistant.example', password: 'owner password 1' }

let tp: TestPlatform
let llm: ScriptedLlm
let slack: ProviderServer
let peers: AssistantPlatform | undefined
let browser: Browser
let page: Page
let dashboardUrl: string
let tenantId: string
let userId: string

const shot = (name: string, width?: number) => screenshot(page, name, width)
const browserMissing = chromiumMissing('tests/dashboard-assistant.test.ts')

beforeAll(async () => {
  if (browserMissing) return
  await buildDashboard()
  peers = await startAssistantPlatform()
  ;({ tp, llm, slack } = peers)
  dashboardUrl = `${tp.baseUrl}/dashboard/`
  ;({ browser, page } = await openBrowser())
}, 90_000)

afterAll(async () => {
  await browser?.close()
  await peers?.close()
})

describe.skipIf(browserMissing)('the Assistant page', () => {
  it('says which credential to add, with a link to Credentials, while there is none', async () => {
    await signUpWithWorkspace(page, dashboardUrl, OWNER, 'Bistro')
    const [row] = await tp.db.sql<{ tenant_id: string; user_id: string }[]>`
      select m.tenant_id, m.user_id from public.tenant_members m join auth.users u on u.id = m.user_id
      where u.email = ${OWNER.email}`
    tenantId = row!.tenant_id
    userId = row!.user_id

    // An OpenAI key saved for development, where the assistant does not look: the banner says
    // which environment it needs and names the key that is not used.
    const token = await tp.tokenFor({ userId, email: OWNER.email, tenantId })
    const [openai] = await tp.db.sql<{ id: string }[]>`select id from public.providers where slug = 'openai'`
    const dev = await tp.json('/api/credentials', {
      token,
      body: {
        provider_id: openai!.id,
        name: 'OpenAI dev',
        environment: 'development',
        credential: 'sk-dev-1',
      },
    })
    expect(dev.status).toBe(201)
    await page.getByRole('link', { name: 'Assistant', exact: true }).click()
    const note = page.getByRole('alert').filter({ hasText: 'needs an AI model' })
    await note.waitFor()
    expect(await note.getByRole('link', { name: 'Credentials' }).getAttribute('href')).toBe('#/credentials')
    expect(await note.textContent()).toContain('for the production environment')
    await expect.poll(() => note.textContent()).toContain('OpenAI dev (OpenAI, development)')
    await shot('assistant-setup')
  })

  it('streams an answer with a tool card, and shows a refusal with its reason', async () => {
    const providers = await tp.db.sql<{ id: string }[]>`select id from public.providers where slug = 'openai'`
    await tp.db.sql`update public.tenants set plan = 'pro' where id = ${tenantId}`
    const token = await tp.tokenFor({ userId, email: OWNER.email, tenantId })
    const made = await tp.json('/api/credentials', {
      token,
      body: { provider_id: providers[0]!.id, name: 'openai', environment: 'production', credential: llm.key },
    })
    expect(made.status).toBe(201)
    await tp.db.sql`insert into public.sites (tenant_id, name) values (${tenantId}, 'Bistro Journal')`
    llm.reset([
      {
        text: 'Let me look at your sites.',
        toolCalls: [{ name: 'platform__list_content', arguments: { type: 'site' } }],
      },
      { text: 'You have one site: Bistro Journal. Want me to draft an article for it?' },
    ])
    // The model's title for the conversation waits until the list has shown the first message as
    // its title (otherwise, on a slow machine, it could land before the list is read).
    let releaseTitle!: () => void
    llm.titleReply = {
      text: 'Your sites',
      usage: { input: 40, output: 3 },
      hold: new Promise<void>((r) => (releaseTitle = r)),
    }
    await page.reload()
    await openNewConversation(page)
    await page.getByLabel('Message').fill('Which sites do I have?')
    await page.getByRole('button', { name: 'Send' }).click()
    const answer = page
      .locator('.msg.assistant .bubble')
      .filter({ hasText: 'You have one site: Bistro Journal' })
    await answer.waitFor()
    const card = page.locator('.tool-call[data-tool="platform:list_content"]')
    expect(await card.getAttribute('data-status')).toBe('ok')
    // Arguments as fields, not raw JSON; the result formatted, its raw JSON only on request.
    expect(await card.locator('.tool-args dt').allTextContents()).toEqual(['type'])
    expect(await card.locator('.tool-args dd').allTextContents()).toEqual(['site'])
    expect(await card.locator('.tool-result').textContent()).toContain('Bistro Journal')
    expect(await card.locator('details.raw').getAttribute('open')).toBeNull()
    expect(await page.locator('.turn-usage').last().textContent()).toContain('240 tokens')
    expect(await page.locator('.quota').textContent()).toMatch(/^240 of 500,000$/)
    // The first message names the conversation in the list.
    await page.locator('.conversations a').filter({ hasText: 'Which sites do I have?' }).waitFor()
    releaseTitle()
    await expect
      .poll(
        async () => {
          const [c] = await tp.db.sql<{ title: string }[]>`
            select title from public.assistant_conversations where tenant_id = ${tenantId} and title_source = 'model'`
          return c?.title
        },
        { timeout: 10_000 },
      )
      .toBe('Your sites')
    await page.reload()
    await page.locator('.conversations a').filter({ hasText: 'Your sites' }).waitFor()
    await page.locator('.msg.assistant .bubble').filter({ hasText: 'You have one site' }).waitFor()
    await shot('assistant')
    await shot('assistant-narrow', 390)

    // A disabled tool: the card says refused and why.
    const vault = tp.instances[0]!.platform.deps.vault
    const slackToken = `slack-access-${crypto.randomUUID()}`
    slack.validTokens.add(slackToken)
    const entry = integrationBySlug('slack')!
    const [connection] = await tp.db.sql<{ id: string }[]>`
      insert into public.integration_connections
        (tenant_id, integration_id, integration_slug, connection_type, status, external_account_id, external_account_name, scopes,
         access_token_encrypted, token_expires_at, created_by)
      values (${tenantId}, ${entry.integration_id}, 'slack', 'oauth', 'active', 'T1', 'Bistro Slack', ${entry.oauth_scopes},
              ${await vault.encrypt(tenantId, slackToken, 'oauth-access-token')}, ${new Date(Date.now() + 86_400_000)}, ${userId})
      returning id`
    await tp.json(`/api/connections/${connection!.id}/permissions`, {
      token,
      body: { tool_name: 'slack:list_channels', allowed: false },
    })
    llm.reset([
      { toolCalls: [{ name: 'slack__list_channels', arguments: {} }] },
      { text: 'I am not allowed to list your Slack channels.' },
    ])
    await page.getByLabel('Message').fill('List my Slack channels')
    await page.getByRole('button', { name: 'Send' }).click()
    await page.locator('.msg.assistant .bubble').filter({ hasText: 'not allowed to list' }).waitFor()
    const refused = page.locator('.tool-call[data-tool="slack:list_channels"]')
    expect(await refused.getAttribute('data-status')).toBe('refused')
    await refused.getByText('Why').click()
    expect(await refused.textContent()).toContain('disabled')

    // A write tool that needs approval: Approve on its card runs it and the turn goes on.
    await tp.json(`/api/connections/${connection!.id}/permissions`, {
      token,
      body: { tool_name: 'slack:post_message', allowed: true, requires_approval: true },
    })
    llm.reset([
      {
        toolCalls: [
          { name: 'slack__post_message', arguments: { channel: 'C012AB3CD', text: 'Brunch menu is live' } },
        ],
      },
      { text: 'Posted the announcement to #general.' },
    ])
    await page.getByLabel('Message').fill('Announce the brunch menu in #general')
    await page.getByRole('button', { name: 'Send' }).click()
    const pending = page.locator(
      '.tool-call[data-tool="slack:post_message"][data-status="awaiting_approval"]',
    )
    await pending.getByRole('button', { name: 'Approve' }).waitFor()
    expect(slack.received.filter((r) => r.path === '/api/chat.postMessage')).toHaveLength(0)
    await shot('assistant-approval')
    await pending.getByRole('button', { name: 'Approve' }).click()
    await page.locator('.msg.assistant .bubble').filter({ hasText: 'Posted the announcement' }).waitFor()
    expect(await page.locator('.tool-call[data-tool="slack:post_message"]').getAttribute('data-status')).toBe(
      'ok',
    )
    expect(slack.received.filter((r) => r.path === '/api/chat.postMessage')).toHaveLength(1)
  })

  it('lists automations with their schedule, next run and last run, linked to its conversation', async () => {
    await page.goto(`${dashboardUrl}#/automations`)
    const form = page.getByRole('form', { name: 'Add an automation' })
    await form.getByLabel('Name').fill('Morning draft')
    await form.getByLabel('Instruction').fill('Say good morning to the team.')
    await form.getByLabel('Schedule').fill('0 8 * * 1-5')
    await form.getByRole('button', { name: 'Add automation' }).click()
    const row = page.locator('.automations tbody tr').filter({ hasText: 'Morning draft' })
    await row.waitFor()
    expect(await row.locator('[data-label="Schedule"]').textContent()).toContain('0 8 * * 1-5')
    expect(await row.locator('[data-label="Last run"]').textContent()).toContain('not yet')
    const [saved] = await tp.db.sql<{ id: string; next_run_at: Date }[]>`
      select id, next_run_at from public.assistant_automations where tenant_id = ${tenantId}`
    expect(saved!.next_run_at.getUTCHours()).toBe(8)

    // Its slot comes due: the sweep runs it as a turn, and the row links the run's conversation.
    await tp.db.sql`update public.assistant_automations set next_run_at = now() - interval '1 minute'
      where id = ${saved!.id}`
    llm.reset([{ text: 'Good morning, team!' }])
    const report = await (await tp.instances[0]!.platform.runJob('assistant/jobs/sweep')).json()
    expect(report.scheduled).toBe(1)
    const [run] = await tp.db.sql<{ conversation_id: string }[]>`
      select conversation_id from public.assistant_automation_runs where automation_id = ${saved!.id}`
    await page.reload()
    const ran = page.locator('.automations tbody tr').filter({ hasText: 'Morning draft' })
    const link = ran.getByRole('link', { name: 'conversation' })
    await link.waitFor()
    expect(await link.getAttribute('href')).toBe(`#/assistant/${run!.conversation_id}`)
    await expect.poll(() => ran.locator('[data-label="Last run"] .pill').textContent()).toBe('completed')
    await shot('assistant-automations')
    await link.click()
    await page.locator('.msg.assistant .bubble').filter({ hasText: 'Good morning, team!' }).waitFor()
  })

  it('says in words which quota ran out, how much was used, and where to go next', async () => {
    await tp.db.sql`update public.tenants set plan = 'free' where id = ${tenantId}`
    await tp.db.sql`
      insert into public.usage_counters (tenant_id, product_id, period, units)
      select ${tenantId}, id, to_char(now() at time zone 'utc', 'YYYY-MM-01')::date, 10000
      from public.products where slug = 'assistant'
      on conflict (tenant_id, product_id, period) do update set units = excluded.units`
    await page.goto(`${dashboardUrl}#/assistant`)
    await page.reload()
    await openNewConversation(page)
    await page.getByLabel('Message').fill('One more question')
    await page.getByRole('button', { name: 'Send' }).click()
    const refusal = page.getByRole('alert').filter({ hasText: 'quota' })
    await refusal.waitFor()
    const text = await refusal.textContent()
    expect(text).toContain('This workspace has used up its monthly quota on its plan.')
    expect(text).toContain('assistant API is used up (10,000 of 10,000 tokens this month)')
    expect(text).toContain('move the workspace to a larger plan')
    expect(text).not.toContain('QUOTA_EXCEEDED')
    expect(await refusal.getByRole('link', { name: 'Usage' }).getAttribute('href')).toBe('#/usage')
    await shot('assistant-quota')
  })

  it('shows why the platform stopped an automation: its creator left the tenant', async () => {
    const { addMember } = await import('./support/platform.ts')
    const admin = await addMember(tp, tenantId, 'admin')
    const made = await tp.json('/v1/assistant/automations', {
      token: admin.token,
      body: { name: 'Leaver digest', instruction: 'Summarise the week.', schedule: '0 9 * * 1' },
    })
    expect(made.status).toBe(201)
    await tp.db
      .sql`delete from public.tenant_members where tenant_id = ${tenantId} and user_id = ${admin.userId}`
    await page.goto(`${dashboardUrl}#/automations`)
    await page.reload()
    const row = page.locator('.automations tbody tr').filter({ hasText: 'Leaver digest' })
    await row.waitFor()
    const schedule = row.locator('[data-label="Schedule"]')
    expect(await schedule.locator('.pill').textContent()).toBe('stopped')
    expect(await schedule.getByRole('note').textContent()).toContain(
      'the member who created it left the tenant',
    )
    expect(await row.getByRole('button', { name: 'Turn on' }).count()).toBe(0)
    await shot('assistant-automation-stopped')
  })
  it('lets an event automation’s write tool run without approval, one toggle per tool', async () => {
    const token = await tp.tokenFor({ userId, email: OWNER.email, tenantId })
    const made = await tp.json('/v1/assistant/automations', {
      token,
      body: {
        name: 'Tidy on change',
        instruction: 'Tidy the changed article.',
        trigger: { type: 'event', event: 'content.updated' },
      },
    })
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    await page.goto(`${dashboardUrl}#/automations`)
    await page.reload()
    const row = page.locator('.automations tbody tr').filter({ hasText: 'Tidy on change' })
    const toggle = row.getByRole('checkbox', {
      name: 'Tidy on change: edit articles (platform:update_article) without approval',
    })
    expect(await toggle.isChecked()).toBe(false)
    // A click saves; the box shows the saved state once the list reloads.
    await toggle.click()
    await expect
      .poll(async () => {
        const [a] = await tp.db.sql<{ unattended_tools: string[] }[]>`
          select unattended_tools from public.assistant_automations where id = ${made.body.id}`
        return a!.unattended_tools
      })
      .toEqual(['platform:update_article'])
    await row.getByRole('checkbox', { name: /update_article/, checked: true }).waitFor()
    await shot('assistant-automation-unattended')
  })
  it('sets the provider, model and instructions on the page', async () => {
    await page.goto(`${dashboardUrl}#/assistant`)
    await page.getByRole('button', { name: 'Settings' }).click()
    const form = page.getByRole('form', { name: 'Assistant settings' })
    await form.getByLabel('Provider').selectOption('openai')
    await form.getByLabel('Model').fill('gpt-4.1-mini')
    await form.getByLabel('Instructions').fill('Answer in French.')
    await shot('assistant-settings')
    await form.getByRole('button', { name: 'Save settings' }).click()
    await form.waitFor({ state: 'detached' })
    const token = await tp.tokenFor({ userId, email: OWNER.email, tenantId })
    const saved = await tp.json('/v1/assistant/settings', { token })
    expect(saved.body).toMatchObject({
      provider: 'openai',
      model: 'gpt-4.1-mini',
      instructions: 'Answer in French.',
    })
    // Reopened, the form shows what was saved.
    await page.getByRole('button', { name: 'Settings' }).click()
    expect(await form.getByLabel('Model').inputValue()).toBe('gpt-4.1-mini')
    expect(await form.getByLabel('Instructions').inputValue()).toBe('Answer in French.')
  })
})
