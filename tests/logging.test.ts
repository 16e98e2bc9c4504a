import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
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
