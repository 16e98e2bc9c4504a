import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
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
 * The Assistant page through a reload and at 390 px, in Chromium against the whole platform and a
 * scripted streaming model: an answer under way comes back after a reload by itself (the resume
 * stream), the message box keeps its width while Send waits, a long title or pasted URL never
 * widens the page, and rendered Markdown keeps no source line breaks and its table header.
 * DASHBOARD_SCREENSHOTS=<folder> saves the screenshots.
 */

const OWNER = { email: 'owner@resume.example', password: 'owner password 1' }
const missing = chromiumMissing('tests/dashboard-assistant-resume.test.ts')

let tp: TestPlatform
let llm: ScriptedLlm
let browser: Browser
let page: Page
/** Ends a scripted answer that waits: a failed test never leaves a turn running for the next. */
let releaseAll = () => {}

beforeAll(async () => {
  if (missing) return
  ;[, llm] = await Promise.all([buildDashboard(), startScriptedLlm()])
  tp = await startTestPlatform({ env: { OPENAI_BASE_URL: llm.openaiBaseUrl } })
  ;({ browser, page } = await openBrowser())
  await signUpWithWorkspace(page, `${tp.baseUrl}/dashboard/`, OWNER, 'Paper')
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
}, 180_000)
afterEach(() => releaseAll())
afterAll(async () => {
  await browser?.close()
  await Promise.all([llm?.close(), tp?.close()])
})

const send = async (text: string) => {
  await page.getByLabel('Message').fill(text)
  await page.getByRole('button', { name: 'Send' }).click()
}
/** How far the page scrolls sideways, in px (0: it fits the window). */
const sideways = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)

describe.skipIf(missing)('the Assistant page through a reload and on a phone', () => {
  it('brings an answer under way back after a reload, by itself, and shows it once when it ends', async () => {
    let release!: () => void
    const resume = new Promise<void>((r) => (release = r))
    releaseAll = () => release()
    llm.reset([{ text: 'Alpha beta gamma delta', pauseAfterChunks: 3, resume }])
    await openNewConversation(page)
    const paused = llm.paused()
    await send('Write on')
    await paused
    await page.locator('.msg.assistant .bubble', { hasText: 'Alpha beta' }).waitFor()
    // The composer while Send waits: the box keeps its width beside the reason, at 1280 and 390 px.
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 844 })
      const [box, form] = await Promise.all([
        page.getByLabel('Message').boundingBox(),
        page.locator('.chat form.composer').last().boundingBox(),
      ])
      expect(box!.width, `message box at ${width} px`).toBeGreaterThan(form!.width * 0.5)
    }
    await page.setViewportSize({ width: 1280, height: 800 })

    await page.reload()
    // No second reload: the page re-attaches to the turn's stream and shows what was said so far.
    await page.locator('.msg.assistant .bubble', { hasText: 'Alpha beta' }).waitFor()
    await page.getByRole('button', { name: 'Stop' }).waitFor()
    await screenshot(page, 'assistant-resumed')
    release()
    await page.locator('.msg.assistant .bubble.markdown', { hasText: 'Alpha beta gamma delta' }).waitFor()
    await page.getByRole('button', { name: 'Send' }).waitFor()
    expect(await page.locator('.msg.assistant', { hasText: 'Alpha beta' }).count()).toBe(1)
  })

  it('wraps a long title and a pasted URL instead of widening the page, at 1280 and 390 px', async () => {
    // No hyphen or space to break at: the rule's title (its first characters) is one long word.
    const url = `https://example.com/${'a1b2c3d4'.repeat(110)}`
    llm.reset([{ text: 'Noted.' }])
    const id = await openNewConversation(page)
    await send(url)
    await page.locator('.msg.assistant .bubble', { hasText: 'Noted.' }).waitFor()
    // A title of 200 characters without a space, as a person may set it (the longest there is).
    const token = await page.evaluate(() => {
      const key = Object.keys(localStorage).find((k) => k.endsWith('-auth-token'))!
      return JSON.parse(localStorage.getItem(key)!).access_token as string
    })
    const renamed = await tp.json(`/v1/assistant/conversations/${id}`, {
      token,
      method: 'PATCH',
      body: { title: url.slice(0, 200) },
    })
    expect(renamed.status).toBe(200)
    await page.reload()
    await page.locator('.chat-head h2').waitFor()
    expect(await sideways()).toBeLessThanOrEqual(0)
    const chat = await page.locator('.chat').boundingBox()
    expect(chat!.width).toBeLessThanOrEqual(1280)
    await screenshot(page, 'assistant-long-title')
    await screenshot(page, 'assistant-long-title-narrow', 390) // fails on any sideways scroll
  })

  it("renders Markdown without the source's line breaks, and a table keeps its header at 390 px", async () => {
    llm.reset([
      {
        text: [
          'A paragraph written',
          'over two source lines.',
          '',
          '| Dish | Price | Allergens | Season | Kitchen notes |',
          '|---|---|---|---|---|',
          '| Soup of the day | 6 | celery, gluten | all year | simmered since the morning |',
        ].join('\n'),
      },
    ])
    await openNewConversation(page)
    await send('Give me a table')
    const answer = page.locator('.bubble.markdown').last()
    await answer.locator('table').waitFor()
    expect(await answer.evaluate((e) => getComputedStyle(e).whiteSpace)).toBe('normal')
    // One line of text where the source had two (a soft break is a space in Markdown).
    const p = await answer.locator('p').first().boundingBox()
    const lineHeight = await answer
      .locator('p')
      .first()
      .evaluate((e) => Number.parseFloat(getComputedStyle(e).lineHeight) || 20)
    expect(p!.height).toBeLessThan(lineHeight * 1.5)
    await page.setViewportSize({ width: 390, height: 844 })
    const header = answer.locator('th', { hasText: 'Dish' })
    await header.scrollIntoViewIfNeeded()
    const [th, bubble] = await Promise.all([header.boundingBox(), answer.boundingBox()])
    // The header is drawn inside the answer (the table scrolls within it), not cut off the page.
    expect(th!.x).toBeGreaterThanOrEqual(bubble!.x - 1)
    expect(th!.width).toBeGreaterThan(0)
    await page.setViewportSize({ width: 1280, height: 800 })
    await screenshot(page, 'assistant-markdown-table')
    await screenshot(page, 'assistant-markdown-table-narrow', 390)
  })
})
