import { createServer } from 'node:net'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { MALFORMED_JSON } from '../shared/infra/errors.ts'
import { authMessages } from '../shared/infra/http/authenticate.ts'
import { createJobEngine, enqueueJob, JobError } from '../shared/infra/jobs/engine.ts'
import { createLogger } from '../shared/infra/logger.ts'
import { startTestPlatform, type TestPlatform, type TestTenant } from './support/platform.ts'

/**
 * What a new developer trips over in the first hour: methods and query parameters a
 * path does not take, the platform's front door and API reference, error messages that say what
 * to do, and one warning line per failure in the background.
 */
let tp: TestPlatform
let owner: TestTenant
let platformKey: string
let toolKey: string
const warnings: string[] = []

/** A loopback port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port
      s.close(() => resolve(port))
    })
  })
}

beforeAll(async () => {
  tp = await startTestPlatform({ env: { LOG_LEVEL: 'warn', LOG_FORMAT: 'json' } })
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    warnings.push(args.map(String).join(' '))
  })
  owner = await tp.createTenant()
  const key = async (kind: 'platform' | 'tool_server') => {
    const res = await tp.json('/api/api-keys', {
      token: owner.token,
      body: {
        name: kind,
        kind,
        environment: kind === 'platform' ? 'production' : 'development',
        scopes: ['content:read'],
        rate_limit_per_minute: 100,
      },
    })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    return res.body.key as string
  }
  platformKey = await key('platform')
  toolKey = await key('tool_server')
}, 120_000)

afterAll(async () => {
  vi.restoreAllMocks()
  await tp?.close()
})

describe('a method a path does not take', () => {
  it.each([
    ['DELETE', '/api/api-keys', 'GET, POST, HEAD'],
    ['PUT', '/v1/content', 'GET, HEAD'],
    ['GET', '/functions/v1/tenants/jobs/send-notifications', 'POST'],
    ['POST', '/health', 'GET, HEAD'],
  ])('%s %s is 405 METHOD_NOT_ALLOWED with Allow: %s', async (method, path, allow) => {
    const res = await tp.request(path, { method, token: owner.token })
    const body = await res.json()
    expect([res.status, body.code]).toEqual([405, 'METHOD_NOT_ALLOWED'])
    expect(res.headers.get('allow')).toBe(allow)
    expect(body.error).toBe('Method Not Allowed')
  })

  it('a path no method takes stays 404 NOT_FOUND', async () => {
    for (const path of ['/api/api-keys/x/y/z', '/nowhere', '/functions/v1/content/nope']) {
      const res = await tp.json(path, { method: 'DELETE', token: owner.token })
      expect([res.status, res.body.code], path).toEqual([404, 'NOT_FOUND'])
    }
  })
})

describe('query parameters are checked like bodies', () => {
  it('an unknown one is 400 VALIDATION_ERROR naming it, and changes nothing', async () => {
    const res = await tp.json('/api/usage?month=2026-13', { token: owner.token })
    expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_ERROR'])
    expect(res.body.details).toEqual([{ field: 'month', message: 'is not a known query parameter' }])
    expect((await tp.json('/api/usage?period=2026-11', { token: owner.token })).status).toBe(200)
  })

  it('a route that takes none refuses any', async () => {
    const res = await tp.json('/api/tenants/current?verbose=1', { token: owner.token })
    expect([res.status, res.body.details?.[0]?.field]).toEqual([400, 'verbose'])
    expect((await tp.json('/api/tenants/current', { token: owner.token })).status).toBe(200)
  })

  it("an OAuth callback keeps the provider's own parameters (scope, iss)", async () => {
    const res = await fetch(
      `${tp.baseUrl}/api/integrations/callback?state=unknown-state&code=c&scope=x&iss=y`,
      {
        redirect: 'manual',
      },
    )
    // The state is unknown, so the callback redirects with an error; the extra parameters are not the reason.
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toContain('error=invalid_state')
  })
})

describe("the platform's front door and API reference", () => {
  it('GET / points to the dashboard, the API reference and the health checks', async () => {
    const json = await tp.json('/')
    expect(json.status).toBe(200)
    expect(json.body.dashboard).toBe(`${tp.baseUrl}/dashboard/`)
    expect(json.body.api_reference).toBe(`${tp.baseUrl}/docs`)
    expect(json.body.health).toBe(`${tp.baseUrl}/health`)
    expect(json.body.function_health).toContain(`${tp.baseUrl}/functions/v1/content/health`)
    const html = await tp.request('/', { headers: { accept: 'text/html' } })
    expect(html.headers.get('content-type')).toMatch(/text\/html/)
    expect(await html.text()).toContain('href="/docs"'.replace('/docs', `${tp.baseUrl}/docs`))
  })
})

describe('error messages say the cause and what to do', () => {
  it('a malformed key, an unknown key and an expired token each have their own message', async () => {
    const malformed = await tp.json('/v1/content', { token: 'svc_live_nope' })
    expect([malformed.status, malformed.body.message]).toEqual([401, authMessages.malformedKey])
    const unknownKey = `${platformKey.slice(0, -6)}${'0'.repeat(6)}`
    const typo = await tp.json('/v1/content', { token: unknownKey })
    expect(typo.body.message).toBe(authMessages.malformedKey) // the checksum catches a changed key
    const keys = (await tp.json('/api/api-keys', { token: owner.token })).body.data
    const platformKeyId = keys.find((k: { key_prefix: string }) => platformKey.startsWith(k.key_prefix)).id
    const revoke = await tp.json(`/api/api-keys/${platformKeyId}/revoke`, {
      method: 'POST',
      token: owner.token,
    })
    expect(revoke.status).toBe(200)
    const revoked = await tp.json('/v1/content', { token: platformKey })
    expect(revoked.body.message).toMatch(/^This API key is unknown, revoked or expired: create a new one/)
    const expired = await tp.tokenFor(owner, { expiresInSeconds: -10 })
    const badToken = await tp.json('/v1/content', { token: expired })
    expect(badToken.body.message).toBe(authMessages.badAccessToken)
  })

  it('the tool server tells a user token and a platform key what to send instead', async () => {
    const asUser = await tp.json('/mcp/tools/list', { token: owner.token })
    expect([asUser.status, asUser.body.message]).toEqual([401, authMessages.userTokenAtToolServer])
    const anotherKey = await tp.json('/api/api-keys', {
      token: owner.token,
      body: { name: 'p2', environment: 'sandbox', scopes: ['content:read'], rate_limit_per_minute: 5 },
    })
    const asPlatformKey = await tp.json('/mcp/tools/list', { token: anotherKey.body.key })
    expect(asPlatformKey.body.message).toMatch(/is a platform key; the tool server takes a tool-server key/)
    const toolKeyAtV1 = await tp.json('/v1/content', { token: toolKey })
    expect(toolKeyAtV1.body.message).toMatch(/is a tool-server key and works only at the tool server/)
    const none = await tp.json('/mcp/tools/list')
    expect(none.body.message).toMatch(/"kind":"tool_server"/)
  })

  it('a whole platform key sent as X-API-Key to /v1 is told to use Authorization: Bearer, not called malformed', async () => {
    const inToolHeader = await tp.json('/v1/content', { headers: { 'x-api-key': platformKey } })
    expect(inToolHeader.status).toBe(401)
    expect(inToolHeader.body.message).not.toBe(authMessages.malformedKey)
    expect(inToolHeader.body.message).toMatch(/is a platform key: send it as Authorization: Bearer svc_live/)
    // A key with a changed character is still malformed, in either header.
    const typo = `${platformKey.slice(0, -1)}${platformKey.endsWith('A') ? 'B' : 'A'}`
    const changed = await tp.json('/v1/content', { headers: { 'x-api-key': typo } })
    expect(changed.body.message).toBe(authMessages.malformedKey)
    // A tool-server key there keeps its own message.
    const toolKeyInHeader = await tp.json('/v1/content', { headers: { 'x-api-key': toolKey } })
    expect(toolKeyInHeader.body.message).toMatch(/is a tool-server key and works only at the tool server/)
  })

  it('a size limit is said in words, and a long webhook URL is called too long, not "not a URL"', async () => {
    const longUrl = `https://example.com/${'a'.repeat(2100 - 20)}`
    const hook = await tp.json('/api/webhooks', {
      token: owner.token,
      body: { url: longUrl, events: ['content.published'] },
    })
    expect([hook.status, hook.body.code]).toEqual([400, 'VALIDATION_ERROR'])
    expect(hook.body.details).toEqual([{ field: 'url', message: 'is too long: at most 2,048 characters' }])

    const site = await tp.json('/v1/content/sites', { token: owner.token, body: { name: 'Sizes' } })
    const article = await tp.json('/v1/content/articles', {
      token: owner.token,
      body: { site_id: site.body.id, title: 'A title', meta_description: 'd'.repeat(501) },
    })
    expect([article.status, article.body.code]).toEqual([400, 'VALIDATION_ERROR'])
    expect(article.body.details).toEqual([
      { field: 'meta_description', message: 'is too long: at most 500 characters' },
    ])
    expect(JSON.stringify(article.body)).not.toMatch(/Too big|<=/)
  })

  it('deep JSON names the field it starts in, not a path of 32 segments', async () => {
    const res = await fetch(`${tp.baseUrl}/api/tenants/current`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
      body: `{"settings":{"a":${'['.repeat(100)}${']'.repeat(100)}}}`,
    })
    const body = await res.json()
    expect([res.status, body.details]).toEqual([
      400,
      [{ field: 'settings', message: 'is nested more than 32 levels deep: send flatter JSON' }],
    ])
  })

  it('malformed JSON has one wording, wherever it is caught', async () => {
    const sub = await tp.json('/api/webhooks', {
      token: owner.token,
      body: { url: 'https://example.com/hook', events: ['content.published'] },
    })
    for (const path of ['/api/api-keys', `/api/webhooks/${sub.body.id}/rotate-secret`]) {
      const res = await tp.json(path, { method: 'POST', token: owner.token, body: '{"name": oops}' })
      expect([res.status, res.body.message], path).toEqual([400, MALFORMED_JSON])
    }
  })

  it('an MCP server that refuses the connection is named with ECONNREFUSED', async () => {
    const port = await closedPort()
    const res = await tp.json('/api/integrations/connect', {
      token: owner.token,
      body: {
        integration_id: 'ca78841d-5b84-4382-998e-85c334756ad2',
        connection_type: 'mcp',
        mcp_server_url: `http://127.0.0.1:${port}/mcp`,
        mcp_auth_type: 'bearer',
        mcp_auth_token: 't',
      },
    })
    expect(res.status).toBe(422)
    expect(res.body.message).toBe(
      `Cannot connect: the MCP server is unreachable: connection refused by 127.0.0.1:${port} (ECONNREFUSED): is the server running and listening on that port?`,
    )
  })
})

describe('one warning line per failure in the background', () => {
  const warnLines = (msg: RegExp) =>
    warnings.map((l) => JSON.parse(l) as Record<string, unknown>).filter((e) => msg.test(String(e.msg)))

  it('a failed job says the tenant, the job and the reason', async () => {
    const logged: string[] = []
    const deps = {
      ...tp.instances[0]!.platform.deps,
      logger: createLogger('warn', { write: (_l, line) => logged.push(line) }),
    }
    const engine = createJobEngine(deps, {
      'test.broken': {
        handler: async () => {
          throw new JobError('the feed answered HTTP 404')
        },
      },
    })
    const job = await enqueueJob(tp.db.sql, {
      tenantId: owner.tenantId,
      kind: 'test.broken',
      input: {},
      now: deps.clock.now(),
    })
    await engine.runDue({ ids: [job.id] })
    const lines = logged.map((l) => JSON.parse(l))
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'warn',
        msg: 'job failed',
        tenant_id: owner.tenantId,
        job_id: job.id,
        reason: 'the feed answered HTTP 404',
      }),
    ])
  })

  it('a failed webhook attempt says the tenant, the delivery and the reason', async () => {
    const port = await closedPort()
    const sub = await tp.json('/api/webhooks', {
      token: owner.token,
      body: { url: `http://127.0.0.1:${port}/hook`, events: ['content.published'] },
    })
    expect(sub.status, JSON.stringify(sub.body)).toBe(201)
    const sent = await tp.json(`/api/webhooks/${sub.body.id}/test`, { method: 'POST', token: owner.token })
    expect(sent.status, JSON.stringify(sent.body)).toBeLessThan(300)
    await tp.instances[0]!.platform.runJob('webhooks/jobs/dispatch')
    await expect.poll(() => warnLines(/^webhook (attempt|delivery) failed/).length).toBeGreaterThan(0)
    const line = warnLines(/^webhook (attempt|delivery) failed/)[0]!
    expect(line).toMatchObject({ level: 'warn', tenant_id: owner.tenantId, subscription_id: sub.body.id })
    expect(line.delivery_id).toEqual(expect.any(String))
    expect(String(line.reason)).toContain('ECONNREFUSED')
  })

  it('a refused commerce delivery says why, to the log only', async () => {
    const storeId = crypto.randomUUID()
    const res = await tp.json(`/api/commerce/stores/${storeId}`, {
      method: 'POST',
      headers: {
        'x-wc-webhook-signature': 'bm9wZQ==',
        'x-wc-webhook-topic': 'order.created',
        'x-wc-webhook-id': '1',
        'x-wc-webhook-delivery-id': 'd1',
      },
      body: { id: 1 },
    })
    expect([res.status, res.body.message]).toEqual([401, 'Unknown store or invalid webhook signature'])
    const line = warnLines(/^commerce delivery refused$/).find((e) => e.store_id === storeId)
    expect(line).toMatchObject({ level: 'warn', topic: 'order.created' })
    expect(String(line!.reason)).toMatch(/no store of this platform matches/)
  })
})

describe('the OpenAPI documents', () => {
  it('give every request body an example that names only its fields and all required ones', async () => {
    const { functionModules } = await import('../local-platform/functions.ts')
    const missing: string[] = []
    for (const m of functionModules) {
      const doc = (await tp.json(`/functions/v1/${m.functionName}/openapi.json`)).body
      // biome-ignore lint/suspicious/noExplicitAny: JSON Schema walked generically
      const resolve = (s: any) => (s?.$ref ? doc.components.schemas[s.$ref.split('/').at(-1)] : s)
      for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
        for (const [method, op] of Object.entries(item)) {
          // biome-ignore lint/suspicious/noExplicitAny: an OpenAPI operation
          const content = (op as any).requestBody?.content?.['application/json']
          if (!content) continue
          const schema = resolve(content.schema)
          const example = content.example ?? schema?.example
          const where = `${method.toUpperCase()} ${m.functionName}${path}`
          if (!example) {
            missing.push(where)
            continue
          }
          // A union: the example fits one of its members.
          const members = (schema.oneOf ?? schema.anyOf ?? [schema]).map(resolve)
          const fits = members.some(
            // biome-ignore lint/suspicious/noExplicitAny: JSON Schema walked generically
            (s: any) =>
              !s.properties ||
              (Object.keys(example).every((k) => k in s.properties) &&
                (s.required ?? []).every((k: string) => k in example)),
          )
          if (!fits) missing.push(`${where}: the example does not fit the schema`)
        }
      }
    }
    expect(missing).toEqual([])
  })
})
