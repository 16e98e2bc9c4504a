import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildDashboard } from '../dashboard/build.ts'
import { type ScriptedLlm, startScriptedLlm } from './support/assistant-llm.ts'
import {
  chromiumMissing,
  openBrowser,
  openNewConversation,
  screenshot,
  signUpWithWorkspace,
} from './support/chromium.ts'
import { startTestPlatform, type TestPlatform } from './support/platform.ts'

/**
 * The Assistant page as a chat, in chromium against the whole platform and a scripted model:
 * answers rendered as Markdown (and a script or an onerror in an answer never runs), Stop,
 * Regenerate with its versions, rename and search. DASHBOARD_SCREENSHOTS=<folder> saves
 * screenshots there.
 */

const OWNER = { email: 'owner@chat.example', password: 'owner password 1' }

let tp: TestPlatform
let llm: ScriptedLlm
let browser: Browser
let page: Page

const shot = (name: string) => screenshot(page, name)
const browserMissing = chromiumMissing('tests/dashboard-assistant-chat.test.ts')

beforeAll(async () => {
  if (browserMissing) return
  await buildDashboard()
  llm = await startScriptedLlm()
  tp = await startTestPlatform({
    env: { OPENAI_BASE_URL: llm.openaiBaseUrl, ANTHROPIC_BASE_URL: llm.anthropicBaseUrl },
  })
  ;({ browser, page } = await openBrowser())
  await signUpWithWorkspace(page, `${tp.baseUrl}/dashboard/`, OWNER, 'Bistro')
  const [row] = await tp.db.sql<{ tenant_id: string; user_id: string }[]>`
    select m.tenant_id, m.user_id from public.tenant_members m join auth.users u on u.id = m.user_id
    where u.email = ${OWNER.email}`
  const token = await tp.tokenFor({ userId: row!.user_id, email: OWNER.email, tenantId: row!.tenant_id })
  const [openai] = await tp.db.sql<{ id: string }[]>`select id from public.providers where slug = 'openai'`
  const made = await tp.json('/api/credentials', {
    token,
    body: { provider_id: openai!.id, name: 'openai', environment: 'production', credential: llm.key },
  })
  expect(made.status).toBe(201)
  await page.getByRole('link', { name: 'Assistant', exact: true }).click()
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await Promise.all([llm?.close(), tp?.close()])
})

const send = async (text: string) => {
  await page.getByLabel('Message').fill(text)
  await page.getByRole('button', { name: 'Send' }).click()
}

describe.skipIf(browserMissing)('the Assistant page as a chat', () => {
  it('renders an answer as Markdown through the sanitizing renderer; a script in it never runs', async () => {
    llm.reset([
      {
        text: [
          'Here is **the plan** with `code`:',
          '',
          '1. Draft the menu',
          '2. Post it',
          '',
          '| Dish | Price |',
          '|---|---|',
          '| Soup | 6 |',
          '',
          '```',
          'npm run build',
          '```',
          '',
          '<script>window.__pwned = 1</script><img src="x" onerror="window.__pwned = 2"> [docs](javascript:alert(1))',
        ].join('\n'),
      },
    ])
    await openNewConversation(page)
    await send('Plan the spring menu')
    const answer = page.locator('.bubble.markdown').last()
    await answer.locator('strong', { hasText: 'the plan' }).waitFor()
    expect(await answer.locator('ol li').count()).toBe(2)
    expect(await answer.locator('table td').first().textContent()).toBe('Soup')
    expect(await answer.locator('pre code').textContent()).toContain('npm run build')
    expect(await answer.locator('script').count()).toBe(0)
    expect(await answer.locator('[onerror]').count()).toBe(0)
    expect(await answer.locator('a[href^="javascript"]').count()).toBe(0)
    await page.waitForTimeout(200)
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined()
    await shot('assistant-markdown')
  })

  it('stops a running turn with Stop, and says why Send waits meanwhile', async () => {
    let release!: () => void
    const hold = new Promise<void>((r) => (release = r))
    llm.reset([{ text: 'A long answer that was stopped.', hold }, { text: 'Never asked.' }])
    const before = llm.requests.length
    await send('Write a very long essay')
    await llm.waitForRequests(before + 1)
    await page.getByText('The assistant is answering: wait, or stop it.').waitFor()
    await page.getByRole('button', { name: 'Stop' }).click()
    await expect
      .poll(async () => {
        const [turn] = await tp.db.sql<{ marked: boolean }[]>`
          select cancel_requested_at is not null as marked from public.assistant_turns
          order by created_at desc limit 1`
        return turn?.marked
      })
      .toBe(true)
    release()
    await page.locator('.turn-usage .pill', { hasText: 'cancelled' }).waitFor()
    expect(llm.requests.length).toBe(before + 1)
    await shot('assistant-stopped')
  })

  it('regenerates the last answer and browses its versions', async () => {
    llm.reset([{ text: 'The second take.' }])
    await page.getByRole('button', { name: 'Regenerate' }).click()
    await page.locator('.bubble.markdown', { hasText: 'The second take.' }).waitFor()
    await page.locator('.version-count', { hasText: '2 / 2' }).first().waitFor()
    await page.getByRole('button', { name: 'Previous version' }).last().click()
    await page.locator('.bubble.markdown', { hasText: 'A long answer that was stopped.' }).waitFor()
    expect(await page.locator('.version-count').last().textContent()).toBe('1 / 2')
    await shot('assistant-versions')
    await page.getByRole('button', { name: 'Next version' }).last().click()
    await page.locator('.bubble.markdown', { hasText: 'The second take.' }).waitFor()
  })

  it('renames a conversation and finds conversations by title and content', async () => {
    await page.getByRole('button', { name: 'Rename' }).click()
    await page.getByLabel('Title').fill('Spring menu plan')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByRole('heading', { name: 'Spring menu plan' }).waitFor()
    await page.locator('.conversations a', { hasText: 'Spring menu plan' }).waitFor()

    llm.reset([{ text: 'Budget noted.' }])
    await openNewConversation(page)
    await send('Review the quarterly budget')
    await page.locator('.bubble.markdown', { hasText: 'Budget noted.' }).waitFor()

    const search = page.getByLabel('Search conversations')
    await search.fill('quarter')
    await expect.poll(() => page.locator('.conversations li').count()).toBe(1)
    expect(await page.locator('.conversations li a').textContent()).not.toContain('Spring menu plan')
    await search.fill('spring menu')
    await expect
      .poll(() => page.locator('.conversations li a').allTextContents())
      .toEqual(['Spring menu plan'])
    await shot('assistant-search')
    await search.fill('nothing like this')
    await page.getByText('No conversation matches.').waitFor()
  })
})
