import { execFile } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { createPlatformClient, type PlatformClient } from '@clients/typescript/dist/index.js'
import { CLIENT_DIR, renderClient } from '@scripts/lib/typescript-client.ts'
import { build } from 'esbuild'
import { chromium } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ScriptedLlm, startScriptedLlm } from '../support/assistant-llm.ts'
import { setupTimeout, startTestPlatform, type TestPlatform, type TestTenant } from '../support/platform.ts'
import { startReceiver, type WebhookReceiver, waitFor } from '../support/webhook-receiver.ts'

/**
 * The TypeScript client (clients/typescript) against the real platform: its committed files are
 * what the functions' documents generate, and its compiled package does a tenant developer's
 * work (keys, content, a webhook, an assistant turn) from Node, Deno and a browser bundle.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const OPENAI_PROVIDER = 'bc152fb4-8e13-4148-bfdc-1734d3f3c667'
const run = promisify(execFile)

let tp: TestPlatform
let llm: ScriptedLlm
let receiver: WebhookReceiver
let owner: TestTenant
let asUser: PlatformClient
let platformKey: string

beforeAll(async () => {
  ;[llm, receiver] = await Promise.all([startScriptedLlm(), startReceiver()])
  tp = await startTestPlatform({ env: { OPENAI_BASE_URL: llm.openaiBaseUrl } })
  owner = await tp.createTenant()
  asUser = createPlatformClient({ baseUrl: tp.baseUrl, token: owner.token })
}, setupTimeout())

afterAll(async () => {
  await Promise.all([receiver?.close(), llm?.close()])
  await tp?.close()
})

describe('the generated files', () => {
  it('are what the OpenAPI documents produce now (npm run client:generate)', async () => {
    const files = await renderClient()
    expect([...files.keys()].sort()).toEqual([
      'dist/index.d.ts',
      'dist/index.js',
      'dist/schema.d.ts',
      'dist/schema.js',
      'src/schema.ts',
    ])
    for (const [file, text] of files) {
      const committed = readFileSync(join(CLIENT_DIR, file), 'utf8')
      expect(committed === text, `${CLIENT_DIR}/${file} differs: run npm run client:generate`).toBe(true)
    }
  }, 120_000)
})

describe('the client in Node', () => {
  it('is typed by the API: an unknown path, a missing field or a wrong value does not compile (npm run typecheck)', () => {
    const neverCalled = () => [
      // @ts-expect-error no such path
      asUser.GET('/api/no-such-thing'),
      asUser.POST('/api/api-keys', {
        // @ts-expect-error rate_limit_per_minute is required
        body: { name: 'x', environment: 'production', scopes: ['content:read'] },
      }),
      asUser.POST('/v1/content/sites', {
        // @ts-expect-error name is a string
        body: { name: 1 },
      }),
    ]
    expect(typeof neverCalled).toBe('function')
  })

  it('creates a platform key as a user, and reads and writes content with it', async () => {
    const created = await asUser.POST('/api/api-keys', {
      body: {
        name: 'client',
        environment: 'production',
        scopes: ['content:read', 'content:write'],
        rate_limit_per_minute: 100,
      },
    })
    expect(created.response.status).toBe(201)
    platformKey = created.data!.key
    expect(platformKey).toMatch(/^svc_live_/)
    const listed = await asUser.GET('/api/api-keys')
    expect(listed.data!.data.map((k) => k.id)).toContain(created.data!.id)

    const asKey = createPlatformClient({ baseUrl: tp.baseUrl, token: platformKey })
    const site = await asKey.POST('/v1/content/sites', { body: { name: 'Client site' } })
    expect(site.response.status, JSON.stringify(site.error)).toBe(201)
    const article = await asKey.POST('/v1/content/articles', {
      body: { site_id: site.data!.id, title: 'Written through the client', body: '<p>Hello</p>' },
    })
    expect(article.response.status).toBe(201)
    const one = await asKey.GET('/v1/content/articles/{id}', { params: { path: { id: article.data!.id } } })
    expect(one.data!.title).toBe('Written through the client')

    // A refusal is the spec's error body, typed as such.
    const refused = await asKey.GET('/v1/content', { params: { query: { limit: 0 } } })
    expect(refused.response.status).toBe(400)
    expect(refused.error!.code).toBe('VALIDATION_ERROR')
  })

  it('subscribes a webhook, which receives the event a key creation causes, and reads its delivery log', async () => {
    const sub = await asUser.POST('/api/webhooks', {
      body: { url: receiver.url, events: ['api_key.created'] },
    })
    expect(sub.response.status, JSON.stringify(sub.error)).toBe(201)
    await asUser.POST('/api/api-keys', {
      body: { name: 'hooked', environment: 'sandbox', scopes: ['content:read'], rate_limit_per_minute: 10 },
    })
    await waitFor(() => receiver.received.length > 0, 15_000, 'the webhook delivery')
    expect(receiver.received[0]!.body.type).toBe('api_key.created')
    await waitFor(
      async () => {
        const log = await asUser.GET('/api/webhooks/{id}/deliveries', {
          params: { path: { id: sub.data!.id } },
        })
        return (log.data?.data.length ?? 0) > 0
      },
      15_000,
      'the delivery log entry',
    )
  })

  it('runs an assistant turn and reads its JSON answer', async () => {
    const credential = await asUser.POST('/api/credentials', {
      body: { provider_id: OPENAI_PROVIDER, name: 'openai', environment: 'production', credential: llm.key },
    })
    expect(credential.response.status, JSON.stringify(credential.error)).toBe(201)
    llm.reset([{ text: 'Hello from the model.' }])
    const conversation = await asUser.POST('/v1/assistant/conversations', { body: {} })
    expect(conversation.response.status).toBe(201)
    const turn = await asUser.POST('/v1/assistant/conversations/{id}/messages', {
      params: { path: { id: conversation.data!.id } },
      body: { content: 'Say hello' },
    })
    expect(turn.response.status, JSON.stringify(turn.error)).toBe(200)
    expect(turn.data!.turn.status).toBe('completed')
    expect(JSON.stringify(turn.data)).toContain('Hello from the model.')
  })
})

describe('the client in Deno', () => {
  it('runs the Deno example: one call with a platform key', async () => {
    const { stdout } = await run(
      'node_modules/.bin/deno',
      [
        'run',
        '--allow-net',
        '--allow-env',
        '--config',
        `${CLIENT_DIR}/deno.json`,
        `${CLIENT_DIR}/examples/deno.ts`,
      ],
      { env: { ...process.env, API: tp.baseUrl, KEY: platformKey, NO_COLOR: '1' } },
    )
    expect(JSON.parse(stdout)).toEqual({ items: 2, articles: ['Written through the client'] })
  }, 60_000)
})

describe.skipIf(!existsSync(CHROMIUM) && !process.env.CI)('the client in a browser', () => {
  it('bundles with esbuild and calls the platform from a page', async () => {
    const bundle = await build({
      entryPoints: [`${CLIENT_DIR}/examples/browser.ts`],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      write: false,
    })
    const script = bundle.outputFiles[0]!.text
    expect(script).not.toMatch(/from ['"]|require\(/) // nothing left to resolve at run time
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox'] })
    try {
      const page = await browser.newPage()
      await page.goto(`${tp.baseUrl}/health`)
      // The bundle as a module of the page (a string, so the test runner leaves its import alone).
      const names = await page.evaluate(`(async () => {
        const url = URL.createObjectURL(new Blob([${JSON.stringify(script)}], { type: 'text/javascript' }))
        const { listApiKeys } = await import(url)
        return (await listApiKeys(${JSON.stringify(tp.baseUrl)}, ${JSON.stringify(owner.token)})).map((k) => k.name)
      })()`)
      expect(names).toEqual(expect.arrayContaining(['client', 'hooked']))
    } finally {
      await browser.close()
    }
  }, 60_000)
})
