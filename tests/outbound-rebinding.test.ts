import { spawnSync } from 'node:child_process'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGuardedFetch, defaultOutboundPolicy, OutboundBlockedError } from '../shared/infra/outbound.ts'
import { startRebindingDns } from './support/rebinding-dns.ts'

/**
 * DNS rebinding: a name whose (zero-TTL) DNS answers a public address to the SSRF check and a
 * loopback or metadata address to the connect. The DNS server is real, on a loopback UDP port,
 * and the guarded fetch resolves through it (its `resolve` seam, the one production uses with the
 * system resolver); the connection must go only to an address checked in its own lookup.
 */
let server: Server
let port: number
let hits = 0
beforeAll(async () => {
  server = createServer((_req, res) => {
    hits++
    res.end('internal secret')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as AddressInfo).port
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

const policy = { ...defaultOutboundPolicy, allowHttp: true, timeoutMs: 5_000 }

describe('the guarded fetch connects only to the address its check admitted', () => {
  it.each([
    ['127.0.0.1', /loopback address 127\.0\.0\.1/],
    ['169.254.169.254', /linkLocal address 169\.254\.169\.254/],
  ])('refuses a name answering public first and %s second, and sends nothing', async (second, reason) => {
    const dns = await startRebindingDns(['93.184.216.34', second])
    try {
      const before = hits
      // `localhost`: were the connect to resolve on its own (the system resolver), it would reach
      // the loopback server below after the check had seen only 93.184.216.34.
      const err = await createGuardedFetch(policy, { resolve: dns.resolve })(
        `http://localhost:${port}/`,
      ).catch((e) => e)
      expect(err).toBeInstanceOf(OutboundBlockedError)
      expect(err.reason).toMatch(reason)
      expect(dns.queries).toEqual(['localhost', 'localhost']) // the check's query, then the connect's
      expect(hits).toBe(before)
    } finally {
      await dns.close()
    }
  })

  it('connects through the checked lookup: a name only the test resolver knows is reached', async () => {
    const dns = await startRebindingDns(['127.0.0.1'])
    try {
      const guarded = createGuardedFetch({ ...policy, allowLoopback: true }, { resolve: dns.resolve })
      const res = await guarded(`http://pinned.rebind.test:${port}/`)
      expect(await res.text()).toBe('internal secret')
      expect(dns.queries.length).toBe(2)
    } finally {
      await dns.close()
    }
  })

  it('holds on Deno too (the Supabase runtime): the same check run by deno', () => {
    const run = spawnSync(
      'node_modules/.bin/deno',
      ['run', '-A', '--config', 'deno.json', 'tests/support/rebinding-check.ts'],
      { encoding: 'utf8', timeout: 90_000, env: { ...process.env, NO_COLOR: '1' } },
    )
    const line = run.stdout.trim().split('\n').at(-1) ?? ''
    expect(line, run.stderr).toMatch(/^\{/)
    const out = JSON.parse(line) as Record<string, unknown>
    expect(out.refused).toMatch(/^OutboundBlockedError: .*loopback address 127\.0\.0\.1/)
    expect(out.hitsAfterRebinding).toBe(0)
    expect(out.rebindingQueries).toBe(2)
    expect(out.pinned).toBe('internal secret')
  }, 120_000)
})
