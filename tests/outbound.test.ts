import { createServer, type RequestListener, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import {
  assertPublicUrl,
  createGuardedFetch,
  defaultOutboundPolicy,
  OutboundBlockedError,
  OutboundError,
  type OutboundPolicy,
} from '../shared/infra/outbound.ts'

describe('assertPublicUrl with the default policy', () => {
  it.each([
    ['loopback v4', 'https://127.0.0.1/', /loopback/],
    ['localhost (resolved)', 'https://localhost/', /loopback/],
    ['loopback v6', 'https://[::1]/', /loopback/],
    ['RFC1918 10/8', 'https://10.0.0.1/', /private/],
    ['RFC1918 172.16/12', 'https://172.16.5.4/', /private/],
    ['RFC1918 192.168/16', 'https://192.168.1.1/', /private/],
    ['cloud metadata', 'https://169.254.169.254/latest/meta-data/', /linkLocal/],
    ['CGNAT', 'https://100.64.0.1/', /carrierGradeNat/],
    ['unspecified v4', 'https://0.0.0.0/', /unspecified/],
    ['unspecified v6', 'https://[::]/', /unspecified/],
    ['broadcast', 'https://255.255.255.255/', /broadcast/],
    ['reserved 240/4', 'https://240.0.0.1/', /reserved/],
    ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/', /ipv4Mapped .* loopback address 127\.0\.0\.1/],
    ['IPv4-mapped metadata', 'https://[::ffff:169.254.169.254]/', /linkLocal address 169\.254\.169\.254/],
    ['NAT64 of private', 'https://[64:ff9b::10.0.0.1]/', /private address 10\.0\.0\.1/],
    ['IPv4-compatible loopback', 'https://[::127.0.0.1]/', /ipv4-compatible/],
    ['6to4 of loopback', 'https://[2002:7f00:1::]/', /6to4 .* loopback address 127\.0\.0\.1/],
    // Teredo client field is bit-inverted: ~f5ff:fffe = 10.0.0.1
    [
      'Teredo with private client',
      'https://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/',
      /private address 10\.0\.0\.1/,
    ],
    ['ULA', 'https://[fd00::1]/', /private/],
    ['link-local v6', 'https://[fe80::1]/', /linkLocal/],
    ['multicast v4', 'https://224.0.0.1/', /multicast/],
    ['multicast v6', 'https://[ff02::1]/', /multicast/],
    ['decimal 127.0.0.1', 'http://2130706433/', /scheme http/],
    ['hex 127.0.0.1', 'http://0x7f.0.0.1/', /scheme http/],
    ['credentials', 'https://user:pass@example.com/', /credentials/],
    ['ftp scheme', 'ftp://example.com/', /scheme ftp/],
    ['file scheme', 'file:///etc/passwd', /scheme file/],
    ['plain http', 'http://93.184.216.34/', /scheme http/],
    ['not a URL', 'not a url', /invalid URL/],
  ])('refuses %s (%s)', async (_label, url, reason) => {
    const err = await assertPublicUrl(url, defaultOutboundPolicy).catch((e) => e)
    expect(err).toBeInstanceOf(OutboundBlockedError)
    expect(err.reason).toMatch(reason)
  })

  // Under the default policy the http:// forms above fail on the scheme alone; prove the address
  // check also sees through the numeric spellings that URL normalises.
  it.each([
    'http://2130706433/',
    'http://0x7f.0.0.1/',
    'http://0177.0.0.1/',
    'http://0x7f000001/',
    'http://127.1/',
  ])('sees %s as loopback 127.0.0.1', async (url) => {
    const err = await assertPublicUrl(url, { ...defaultOutboundPolicy, allowHttp: true }).catch((e) => e)
    expect(err).toBeInstanceOf(OutboundBlockedError)
    expect(err.reason).toBe('loopback address 127.0.0.1')
  })

  it.each([
    'https://93.184.216.34/path?q=1',
    'https://[2606:2800:220:1:248:1893:25c8:1946]/',
    'https://[::ffff:93.184.216.34]/',
    'https://[2002:5db8:d822::1]/', // 6to4 of a public v4
  ])('admits the public literal %s without touching DNS', async (url) => {
    const parsed = await assertPublicUrl(url, defaultOutboundPolicy)
    expect(parsed.href).toBe(new URL(url).href)
  })
})

describe('policy switches', () => {
  const loopbackOnly: OutboundPolicy = { ...defaultOutboundPolicy, allowLoopback: true, allowHttp: true }

  it('allowLoopback admits 127/8 and ::1 but nothing else special', async () => {
    await expect(assertPublicUrl('http://127.0.0.2/', loopbackOnly)).resolves.toBeInstanceOf(URL)
    await expect(assertPublicUrl('http://[::1]/', loopbackOnly)).resolves.toBeInstanceOf(URL)
    await expect(assertPublicUrl('http://localhost/', loopbackOnly)).resolves.toBeInstanceOf(URL)
    for (const url of [
      'http://10.0.0.1/',
      'http://169.254.169.254/',
      'http://0.0.0.0/',
      'http://[fd00::1]/',
    ]) {
      await expect(assertPublicUrl(url, loopbackOnly)).rejects.toBeInstanceOf(OutboundBlockedError)
    }
  })

  it('allowPrivate admits RFC1918 and ULA but not link-local or CGNAT', async () => {
    const lan: OutboundPolicy = { ...defaultOutboundPolicy, allowPrivate: true }
    await expect(assertPublicUrl('https://10.1.2.3/', lan)).resolves.toBeInstanceOf(URL)
    await expect(assertPublicUrl('https://[fd12::1]/', lan)).resolves.toBeInstanceOf(URL)
    for (const url of ['https://127.0.0.1/', 'https://169.254.169.254/', 'https://100.64.0.1/']) {
      await expect(assertPublicUrl(url, lan)).rejects.toBeInstanceOf(OutboundBlockedError)
    }
  })
})

describe('createGuardedFetch against a real loopback server', () => {
  const policy: OutboundPolicy = {
    ...defaultOutboundPolicy,
    allowLoopback: true,
    allowHttp: true,
    timeoutMs: 2_000,
    maxResponseBytes: 1024,
  }
  const guarded = createGuardedFetch(policy)
  let server: Server | undefined

  async function serve(handler: RequestListener): Promise<string> {
    server = createServer(handler)
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  }

  afterEach(async () => {
    server?.closeAllConnections()
    await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined))
    server = undefined
  })

  it('fetches and returns a buffered response with status and headers', async () => {
    const base = await serve((req, res) => {
      res.writeHead(201, { 'content-type': 'application/json', 'x-seen-method': req.method ?? '' })
      res.end(JSON.stringify({ ok: true }))
    })
    const res = await guarded(`${base}/hook`, { method: 'POST', body: '{}' })
    expect(res.status).toBe(201)
    expect(res.headers.get('x-seen-method')).toBe('POST')
    expect(res.url).toBe(`${base}/hook`)
    expect(await res.json()).toEqual({ ok: true })
  })

  it('refuses the same server under the default policy', async () => {
    const base = await serve((_req, res) => res.end('hi'))
    await expect(createGuardedFetch(defaultOutboundPolicy)(base)).rejects.toBeInstanceOf(OutboundBlockedError)
  })

  it('follows an allowed redirect and drops Authorization across origins', async () => {
    let seenAuth: string | undefined = 'unset'
    const base = await serve((req, res) => {
      if (req.url === '/start') {
        const port = (server!.address() as AddressInfo).port
        res.writeHead(302, { location: `http://localhost:${port}/end` }) // different origin, still loopback
        return res.end()
      }
      seenAuth = req.headers.authorization
      res.end('landed')
    })
    const res = await guarded(`${base}/start`, { headers: { authorization: 'Bearer secret' } })
    expect(await res.text()).toBe('landed')
    expect(seenAuth).toBeUndefined()
  })

  it('drops API-key headers across origins too, and keeps them on a same-origin redirect', async () => {
    const seen: Record<string, string | undefined>[] = []
    const base = await serve((req, res) => {
      const port = (server!.address() as AddressInfo).port
      seen.push({
        url: req.url,
        xApiKey: req.headers['x-api-key'] as string,
        apikey: req.headers.apikey as string,
      })
      if (req.url === '/start') {
        res.writeHead(307, { location: '/same' })
        return res.end()
      }
      if (req.url === '/same') {
        res.writeHead(302, { location: `http://localhost:${port}/end` }) // different origin, still loopback
        return res.end()
      }
      res.end('landed')
    })
    const res = await guarded(`${base}/start`, {
      headers: { 'x-api-key': 'mcp-secret', apikey: 'anon-secret' },
    })
    expect(await res.text()).toBe('landed')
    expect(seen).toEqual([
      { url: '/start', xApiKey: 'mcp-secret', apikey: 'anon-secret' },
      { url: '/same', xApiKey: 'mcp-secret', apikey: 'anon-secret' },
      { url: '/end', xApiKey: undefined, apikey: undefined },
    ])
  })

  it('refuses a redirect to a private address', async () => {
    const base = await serve((_req, res) => {
      res.writeHead(302, { location: 'http://10.0.0.1/' })
      res.end()
    })
    const err = await guarded(base).catch((e) => e)
    expect(err).toBeInstanceOf(OutboundBlockedError)
    expect(err.reason).toMatch(/private/)
  })

  it('stops after 3 redirects', async () => {
    let hits = 0
    const base = await serve((_req, res) => {
      hits++
      res.writeHead(307, { location: '/again' })
      res.end()
    })
    await expect(guarded(base)).rejects.toMatchObject({ name: 'OutboundError', kind: 'network' })
    expect(hits).toBe(4) // the original request plus three followed redirects
  })

  it('throws too_large for a streamed (chunked) body over the cap', async () => {
    const base = await serve((_req, res) => {
      res.write('x'.repeat(800))
      res.end('y'.repeat(800)) // no content-length: the cap has to be enforced while streaming
    })
    const err = await guarded(base).catch((e) => e)
    expect(err).toBeInstanceOf(OutboundError)
    expect(err.kind).toBe('too_large')
  })

  it('hands the body over as a stream with stream: true, and still enforces the cap while it is read', async () => {
    const base = await serve((req, res) => {
      if (req.url === '/small') return res.end('hello stream')
      res.write('x'.repeat(800))
      setTimeout(() => res.end('y'.repeat(800)), 20)
    })
    const small = await guarded(`${base}/small`, { stream: true })
    expect(await small.text()).toBe('hello stream')
    // The response arrives before the body is read: the cap trips on the read, as an OutboundError.
    const big = await guarded(`${base}/big`, { stream: true })
    expect(big.status).toBe(200)
    const err = await big.text().catch((e) => e)
    expect(err).toBeInstanceOf(OutboundError)
    expect(err.kind).toBe('too_large')
  })

  it('throws too_large early from a declared content-length, with a per-call cap', async () => {
    const base = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': '100' })
      res.end('z'.repeat(100))
    })
    await expect(guarded(base)).resolves.toBeInstanceOf(Response)
    await expect(guarded(base, { maxResponseBytes: 50 })).rejects.toMatchObject({ kind: 'too_large' })
  })

  it('times out a server that never answers', async () => {
    const base = await serve(() => {}) // accepts the request, never responds
    const started = Date.now()
    const err = await guarded(base, { timeoutMs: 200 }).catch((e) => e)
    expect(err).toBeInstanceOf(OutboundError)
    expect(err.kind).toBe('timeout')
    // Ended by the call's 200 ms, not the default 10 s: any time well under the default proves it
    // (a loaded machine may take longer than 200 ms, never seconds longer).
    expect(Date.now() - started).toBeLessThan(defaultOutboundPolicy.timeoutMs / 2)
  })

  it('times out a body that stalls after the headers', async () => {
    const base = await serve((_req, res) => {
      res.writeHead(200)
      res.write('partial') // headers and a first chunk arrive, then nothing
    })
    await expect(guarded(base, { timeoutMs: 200 })).rejects.toMatchObject({ kind: 'timeout' })
  })

  it("leaves the caller's own abort as the caller's error", async () => {
    const base = await serve(() => {})
    const ctrl = new AbortController()
    setTimeout(() => ctrl.abort(new Error('caller gave up')), 50)
    await expect(guarded(base, { signal: ctrl.signal })).rejects.toThrow('caller gave up')
  })
})
