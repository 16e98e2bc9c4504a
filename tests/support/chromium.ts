import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { type Browser, chromium, type Page } from 'playwright-core'
import { expect } from 'vitest'

/**
 * The browser the dashboard's tests drive: Debian's chromium (or CHROMIUM_PATH) through
 * playwright-core, headless, one page 1280 px wide whose console errors are collected.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** True (with a warning naming the file) where there is no chromium and this is not CI. */
export function chromiumMissing(file: string): boolean {
  const missing = !existsSync(CHROMIUM) && !process.env.CI
  if (missing) console.warn(`${file} skipped: no chromium at ${CHROMIUM} (apt-get install chromium)`)
  return missing
}

export async function openBrowser(): Promise<{ browser: Browser; page: Page; consoleErrors: string[] }> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--no-first-run',
    ],
  })
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage()
  // A step that cannot happen fails with the locator's name, well before the test's own timeout.
  page.setDefaultTimeout(15_000)
  const consoleErrors: string[] = []
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(`${m.text()} (${m.location().url})`)
  })
  page.on('pageerror', (e) => consoleErrors.push(String(e)))
  return { browser, page, consoleErrors }
}

/** Signs a new user up on the dashboard's first page and creates their first workspace. */
export async function signUpWithWorkspace(
  page: Page,
  dashboardUrl: string,
  user: { email: string; password: string },
  workspace: string,
): Promise<void> {
  await page.goto(dashboardUrl)
  await page.getByRole('tab', { name: 'Create an account' }).click()
  await page.getByLabel('E-mail').fill(user.email)
  await page.getByLabel('Password').fill(user.password)
  await page.getByRole('button', { name: 'Sign up' }).click()
  await page.getByLabel('Workspace name').fill(workspace)
  await page.getByRole('button', { name: 'Create workspace' }).click()
  await page.getByRole('heading', { name: `Welcome to ${workspace}` }).waitFor()
}

/**
 * Looks at the page `width` px wide: below 1000 px nothing may stick out sideways (the check fails
 * the test). With DASHBOARD_SCREENSHOTS=<folder>, saves it there as <name>.png: the whole page from
 * its top when `full` (the default when wide), else the window as it is (an open dialog).
 */
export async function screenshot(
  page: Page,
  name: string,
  width = 1280,
  full = width >= 1000,
): Promise<void> {
  const folder = process.env.DASHBOARD_SCREENSHOTS
  const before = page.viewportSize()
  if (width !== before?.width) await page.setViewportSize({ width, height: width < 1000 ? 844 : 800 })
  await page.waitForTimeout(150)
  // What sticks out sideways: the overflow in px and the outermost elements past the window's edge.
  const sideways =
    width < 1000
      ? await page.evaluate(() => {
          const over = [...document.querySelectorAll('body *')].filter(
            (e) => e.getBoundingClientRect().right > window.innerWidth + 0.5,
          )
          const outermost = over.filter((e) => !over.includes(e.parentElement as Element))
          return {
            px: document.documentElement.scrollWidth - window.innerWidth,
            what: outermost
              .slice(0, 5)
              .map((e) => `${e.tagName.toLowerCase()}.${[...e.classList].join('.')}`),
          }
        })
      : { px: 0, what: [] }
  if (folder) {
    mkdirSync(folder, { recursive: true })
    // From the top: a bar that sticks to the top of the window would otherwise be drawn mid-page.
    if (full) await page.evaluate(() => window.scrollTo(0, 0))
    await page.screenshot({ path: join(folder, `${name}.png`), fullPage: full })
  }
  if (before && width !== before.width) await page.setViewportSize(before)
  expect(
    sideways.px,
    `${name} scrolls sideways at ${width} px (${sideways.what.join(', ')})`,
  ).toBeLessThanOrEqual(0)
}

/**
 * Opens a new conversation on the Assistant page and waits until it is the one shown: a message
 * typed before that would go to the conversation open before it.
 */
export async function openNewConversation(page: Page): Promise<string> {
  const before = await page.evaluate(() => location.hash)
  await page.getByRole('button', { name: 'New conversation' }).click()
  const opened = await page.waitForFunction(
    (previous) =>
      /^#\/assistant\/[0-9a-f-]{36}$/.test(location.hash) && location.hash !== previous && location.hash,
    before,
  )
  // The new conversation's page replaces the one before it: no messages, a composer.
  await expect.poll(() => page.locator('.chat .msg').count(), { timeout: 15_000 }).toBe(0)
  await page.locator('.chat .composer').waitFor()
  return String(await opened.jsonValue()).slice('#/assistant/'.length)
}
