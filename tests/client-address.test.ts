import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isTrustedProxy } from '../shared/infra/http/trusted-proxies.ts'
import { startTestPlatform, TestClock, type TestPlatform } from './support/platform.ts'

/**
 * The unauthenticated limit (60/min) keys on the client address. A client can write any
 * X-Forwarded-For, so it counts only when the socket peer is a configured proxy. A fixed clock:
 * GCRA earns a request back every second, which a slow run would otherwise see.
 */
async function unauthenticated(tp: TestPlatform, n: number, headers: (i: number) => Record<string, string>) {
  return Promise.all(Array.from({ length: n }, (_, i) => tp.json('/v1/content', { headers: headers(i) })))
}
const count = (results: { status: number }[], status: number) =>
  results.filter((r) => r.status === status).length

describe('without trusted proxies', () => {
  let tp: TestPlatform
  beforeAll(async () => {
    tp = await startTestPlatform({ clock: new TestClock() })
  })
  afterAll(() => tp.close())

  it('ignores a client-written X-Forwarded-For: one socket address, one budget', async () => {
    const results = await unauthenticated(tp, 65, (i) => ({
      'x-test-client': '198.51.100.20',
      'x-forwarded-for': `203.0.113.${i}`,
    }))
    expect(count(results, 401)).toBe(60)
    expect(count(results, 429)).toBe(5)
  })
})

describe('behind a trusted proxy', () => {
  let tp: TestPlatform
  beforeAll(async () => {
    tp = await startTestPlatform({ clock: new TestClock(), env: { TRUSTED_PROXIES: '10.0.0.0/8, 192.0.2.1' } })
  })
  afterAll(() => tp.close())

  it('takes the right-most address the proxies did not add', async () => {
    // A client spoofs the left entries; the proxy chain appended the real address and its own hop.
    const spoofed = await unauthenticated(tp, 65, (i) => ({
      'x-test-client': '10.1.2.3',
      'x-forwarded-for': `203.0.113.${i}, 198.51.100.30, 192.0.2.1`,
    }))
    expect(count(spoofed, 401)).toBe(60)
    expect(count(spoofed, 429)).toBe(5)
    const other = await tp.json('/v1/content', {
      headers: { 'x-test-client': '10.1.2.3', 'x-forwarded-for': '198.51.100.31' },
    })
    expect(other.status).toBe(401)
  })

  it('does not believe the header from a peer that is no proxy', async () => {
    const results = await unauthenticated(tp, 61, (i) => ({
      'x-test-client': '198.51.100.40',
      'x-forwarded-for': `203.0.113.${i}`,
    }))
    expect(count(results, 429)).toBe(1)
  })
})

describe('a header the edge overwrites', () => {
  let tp: TestPlatform
  beforeAll(async () => {
    tp = await startTestPlatform({ clock: new TestClock(), env: { CLIENT_IP_HEADER: 'x-real-ip' } })
  })
  afterAll(() => tp.close())

  it('keys on CLIENT_IP_HEADER when configured', async () => {
    const results = await unauthenticated(tp, 61, (i) => ({
      'x-test-client': '10.9.9.9',
      'x-real-ip': i < 60 ? '198.51.100.50' : '198.51.100.51',
    }))
    expect(count(results, 429)).toBe(0)
    expect((await tp.json('/v1/content', { headers: { 'x-real-ip': '198.51.100.50' } })).status).toBe(429)
  })
})

describe('isTrustedProxy', () => {
  it('matches addresses and CIDRs, IPv4-mapped IPv6 included, and refuses garbage', () => {
    expect(isTrustedProxy('10.2.3.4', ['10.0.0.0/8'])).toBe(true)
    expect(isTrustedProxy('::ffff:10.2.3.4', ['10.0.0.0/8'])).toBe(true)
    expect(isTrustedProxy('192.0.2.1', ['192.0.2.1'])).toBe(true)
    expect(isTrustedProxy('192.0.2.2', ['192.0.2.1'])).toBe(false)
    expect(isTrustedProxy('2001:db8::1', ['2001:db8::/32'])).toBe(true)
    expect(isTrustedProxy('not an ip', ['0.0.0.0/0'])).toBe(false)
    expect(isTrustedProxy('10.2.3.4', ['nonsense'])).toBe(false)
  })
})
