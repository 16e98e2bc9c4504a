import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { pathnameOf } from '../shared/infra/http/function-path.ts'
import { createLogger } from '../shared/infra/logger.ts'
import { startTestPlatform, type TestPlatform } from './support/platform.ts'

let tp: TestPlatform
const lines: string[] = []

beforeAll(async () => {
  tp = await startTestPlatform({ env: { LOG_LEVEL: 'debug' } })
  const capture = (...args: unknown[]) => lines.push(args.map(String).join(' '))
  vi.spyOn(console, 'log').mockImplementation(capture)
  vi.spyOn(console, 'error').mockImplementation(capture)
})
afterAll(async () => {
  vi.restoreAllMocks()
  await tp.close()
})

describe('structured logs', () => {
  it('log one JSON line per request with the request id, and never a secret', async () => {
    const t = await tp.createTenant()
    const res = await tp.json('/api/api-keys', {
      token: t.token,
      headers: { 'x-request-id': 'log-test-0001' },
      body: { name: 'logged', environment: 'production', scopes: ['content:read'], rate_limit_per_minute: 5 },
    })
    expect(res.status).toBe(201)
    await tp.json('/v1/content', { token: res.body.key })
    await tp.json('/v1/content', { token: `${res.body.key.slice(0, -2)}xx` })
    const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>)
    const created = entries.find((e) => e.request_id === 'log-test-0001')
    expect(created).toMatchObject({
      level: 'info',
      msg: 'request',
      fn: 'api-keys',
      method: 'POST',
      status: 201,
      caller: 'user',
    })
    expect(created!.tenant_id).toBe(t.tenantId)
    const all = lines.join('\n')
    expect(all).not.toContain(res.body.key)
    expect(all).not.toContain(res.body.key.slice(13))
    expect(all).not.toContain(t.token)
    expect(all).not.toContain(tp.serviceRoleKey)
  })
})

describe('a quiet local platform', () => {
  it('logs a scheduled job poll that did nothing at debug level only', async () => {
    lines.length = 0
    const res = await tp.instances[0]!.platform.runJob('webhooks/jobs/dispatch')
    expect(res.status).toBe(200)
    const polls = lines.map((l) => JSON.parse(l)).filter((e) => e.msg === 'request' && e.fn === 'webhooks')
    expect(polls.length).toBe(1)
    expect(polls[0].level).toBe('debug')
  })

  it('keeps failed job calls and ordinary requests at info', async () => {
    lines.length = 0
    await tp.json('/functions/v1/webhooks/jobs/dispatch', { method: 'POST', body: {} })
    const refused = lines.map((l) => JSON.parse(l)).find((e) => e.msg === 'request' && e.status === 401)
    expect(refused?.level).toBe('info')
  })

  it('writes one compact readable line per request in the pretty format', () => {
    const out: string[] = []
    const logger = createLogger('info', { format: 'pretty', write: (_level, line) => out.push(line) })
    logger.info('request', {
      fn: 'api-keys',
      request_id: 'r1',
      method: 'POST',
      path: '/api/api-keys',
      status: 201,
      duration_ms: 12,
      caller: 'user',
      tenant_id: 't1',
    })
    logger.warn('scheduled job failed', { job: 'webhooks/jobs/dispatch', error: 'boom' })
    logger.debug('hidden')
    expect(out).toHaveLength(2)
    expect(out[0]).toMatch(/^\d\d:\d\d:\d\d INFO {2}POST \/api\/api-keys 201 12ms user api-keys$/)
    expect(out[1]).toMatch(
      /^\d\d:\d\d:\d\d WARN {2}scheduled job failed job=webhooks\/jobs\/dispatch error=boom$/,
    )
  })
})

describe('the logged path', () => {
  it('is the URL path as new URL() has it, without the query (the frame does not parse the URL)', () => {
    const urls = [
      'http://a/',
      'http://a',
      'http://a:80/x/y?z=1',
      'http://127.0.0.1:5/v1/content?q=a%2Fb',
      'https://h/p%20q?',
      'http://[::1]:3/a?b/c?d',
      'http://u:p@h/x//y',
    ]
    for (const url of urls) expect(pathnameOf(url), url).toBe(new URL(url).pathname)
  })
})
