/**
 * The one door for outbound HTTP (webhooks, OAuth token endpoints, MCP servers, provider APIs).
 *
 * Every URL here is tenant-influenced, so without a guard a tenant could point us at
 * 169.254.169.254, the database on 10.x, or our own admin port on 127.0.0.1 (SSRF).
 * Connections go through undici with a checked lookup (ADR 0031): the address a socket connects
 * to is the one the policy just judged, so a name that answers public first and private second
 * (DNS rebinding) is refused instead of followed. undici runs on Node and on Deno's node:net/tls.
 */
import { lookup } from 'node:dns/promises'
import ipaddr from 'ipaddr.js'
import { Agent, fetch as undiciFetch } from 'undici'
import type { Config } from './config.ts'

/** The URL (or an address its host resolves to) is refused by policy. */
export class OutboundBlockedError extends Error {
  override name = 'OutboundBlockedError'
  readonly reason: string
  constructor(reason: string, url?: string) {
    super(url ? `outbound request to ${url} blocked: ${reason}` : `outbound request blocked: ${reason}`)
    this.reason = reason
  }
}

/** The request was allowed but failed: timed out, answered too much, or the network failed. */
export class OutboundError extends Error {
  override name = 'OutboundError'
  readonly kind: 'timeout' | 'too_large' | 'network'
  constructor(kind: OutboundError['kind'], message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.kind = kind
  }
}

const hostOf = (input: string | URL): string => {
  try {
    return new URL(input).host
  } catch {
    return String(input).slice(0, 100)
  }
}

/** The error code (ECONNREFUSED, CERT_HAS_EXPIRED, ...) somewhere in an error's cause chain. */
function networkCode(err: unknown): string | undefined {
  for (let at = err, depth = 0; at && depth < 5; depth++) {
    const code = (at as { code?: unknown }).code
    if (typeof code === 'string') return code
    at = (at as { cause?: unknown }).cause
  }
  return undefined
}

/** Every message in an error's cause chain (Deno words its failures in the message only). */
function chainText(err: unknown): string {
  const parts: string[] = []
  for (let at = err, depth = 0; at && depth < 5; depth++) {
    parts.push(at instanceof Error ? at.message : String(at))
    at = (at as { cause?: unknown }).cause
  }
  return parts.join(': ')
}

/**
 * What failed, in words a developer can act on, instead of the runtime's `TypeError: fetch
 * failed`: a refused connection, a name that does not resolve, a reset, a connect time-out or a
 * TLS failure, each with its code.
 */
export function describeNetworkFailure(err: unknown, host: string): string {
  const code = networkCode(err)
  const text = chainText(err)
  if (code === 'ECONNREFUSED' || /connection refused/i.test(text))
    return `connection refused by ${host} (ECONNREFUSED): is the server running and listening on that port?`
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || /dns error|failed to lookup/i.test(text))
    return `cannot resolve ${host} (${code ?? 'DNS'}): check the host name`
  if (code === 'ECONNRESET' || /connection reset/i.test(text))
    return `the connection to ${host} was reset (ECONNRESET)`
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'ETIMEDOUT')
    return `connecting to ${host} timed out (${code})`
  if ((code && /CERT|SSL|TLS|EPROTO|SIGNATURE/i.test(code)) || /certificate|tls|ssl/i.test(text))
    return `TLS failed with ${host} (${code ?? 'TLS'}): check its certificate, or whether it speaks https on that port`
  return `the request to ${host} failed (${code ?? text.slice(0, 200)})`
}

export interface OutboundPolicy {
  allowLoopback: boolean // 127/8 and ::1 only: tests run their peers on loopback
  allowPrivate: boolean // RFC1918 + fc00::/7: self-hosted deployments whose peers live on the LAN
  allowHttp: boolean
  timeoutMs: number
  maxResponseBytes: number
}

export const defaultOutboundPolicy: OutboundPolicy = Object.freeze({
  allowLoopback: false,
  allowPrivate: false,
  allowHttp: false,
  timeoutMs: 10_000,
  maxResponseBytes: 1024 * 1024,
})

/** The deployment's policy: the defaults, relaxed only where configuration says so (tests, LANs). */
export function outboundPolicyFrom(
  config: Pick<Config, 'OUTBOUND_ALLOW_LOOPBACK' | 'OUTBOUND_ALLOW_PRIVATE' | 'OUTBOUND_ALLOW_HTTP'>,
): OutboundPolicy {
  return {
    ...defaultOutboundPolicy,
    allowLoopback: config.OUTBOUND_ALLOW_LOOPBACK,
    allowPrivate: config.OUTBOUND_ALLOW_PRIVATE,
    allowHttp: config.OUTBOUND_ALLOW_HTTP,
  }
}

type Addr = ipaddr.IPv4 | ipaddr.IPv6
const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff])

/**
 * Why an address is refused, or null if the policy admits it. Allow-list: only what ipaddr.js
 * calls plain 'unicast' passes, so any special range (link-local, CGNAT, multicast, 0/8, 240/4,
 * broadcast, documentation, ...) is refused without us listing it. IPv6 forms that carry an IPv4
 * address (mapped, NAT64, 6to4, Teredo) are judged by that IPv4 address.
 */
function refusal(addr: Addr, policy: OutboundPolicy): string | null {
  const range = addr.range()
  const p = addr.kind() === 'ipv6' ? (addr as ipaddr.IPv6).parts : []
  // An IPv6 form that carries an IPv4 address is judged by that address, and the reason names it.
  const embedded = (hi: number, lo: number, inverted = false) => {
    const inner = inverted ? v4(~hi & 0xffff, ~lo & 0xffff) : v4(hi, lo)
    const why = refusal(inner, policy)
    return why && `${range} ${addr} embeds ${why}`
  }
  if (range === 'unicast') {
    // ::a.b.c.d (deprecated IPv4-compatible, in ::/96) is 'unicast' to ipaddr.js; nothing public lives there.
    const v4Compatible = p.length > 0 && p.slice(0, 6).every((x) => x === 0)
    return v4Compatible ? `ipv4-compatible address ${addr}` : null
  }
  if (range === 'loopback') return policy.allowLoopback ? null : `loopback address ${addr}`
  if (range === 'private' || range === 'uniqueLocal')
    return policy.allowPrivate ? null : `private address ${addr}`
  // ::ffff:a.b.c.d, ::ffff:0:a.b.c.d and the well-known NAT64 prefix 64:ff9b::/96 end in the v4.
  if (range === 'ipv4Mapped' || range === 'rfc6145') return embedded(p[6]!, p[7]!)
  if (range === 'rfc6052' && p[1] === 0xff9b && p[2] === 0) return embedded(p[6]!, p[7]!)
  // 2002:AABB:CCDD::/48 tunnels to a.b.c.d.
  if (range === '6to4') return embedded(p[1]!, p[2]!)
  // 2001:0:SERVER:...:~CLIENT: both embedded v4s must pass (the client one is bit-inverted).
  if (range === 'teredo') return embedded(p[2]!, p[3]!) ?? embedded(p[6]!, p[7]!, true)
  return `${range} address ${addr}`
}

/** Reject `promise` when `signal` aborts (dns lookup takes no signal of its own). */
function untilAborted<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise
  signal.throwIfAborted()
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}

/** A host name's addresses. The system resolver in production; tests pass one they control. */
export type Resolve = (host: string) => Promise<string[]>

const systemResolve: Resolve = async (host) => (await lookup(host, { all: true })).map((r) => r.address)

/**
 * The addresses `host` stands for, each admitted by the policy, or a refusal: EVERY address must
 * pass (one public record plus one 10.x record must not slip through).
 */
async function checkedAddresses(
  host: string,
  policy: OutboundPolicy,
  resolve: Resolve,
  shown: string,
  signal?: AbortSignal,
): Promise<Addr[]> {
  let addrs: Addr[]
  if (ipaddr.IPv6.isValid(host) || ipaddr.IPv4.isValidFourPartDecimal(host)) {
    addrs = [ipaddr.parse(host)]
  } else {
    let records: string[]
    try {
      records = await untilAborted(resolve(host), signal)
    } catch (err) {
      if (signal?.aborted) throw err
      throw new OutboundError('network', `cannot resolve ${host}`, { cause: err })
    }
    if (records.length === 0) throw new OutboundError('network', `cannot resolve ${host}`)
    try {
      addrs = records.map((r) => ipaddr.parse(r))
    } catch {
      throw new OutboundBlockedError('unparseable resolved address', shown) // fail closed
    }
  }
  for (const addr of addrs) {
    const why = refusal(addr, policy)
    if (why) throw new OutboundBlockedError(why, shown)
  }
  return addrs
}

/**
 * Refuse the URL unless its scheme is allowed, it carries no credentials, and EVERY address its
 * host resolves to is acceptable. `new URL` already normalises 2130706433, 0x7f.1 and 0177.0.0.1
 * to dotted decimal. A check ahead of sending (clear errors, registration-time checks); the
 * connection itself is pinned by the guarded fetch's checked lookup.
 */
export async function assertPublicUrl(
  input: string | URL,
  policy: OutboundPolicy = defaultOutboundPolicy,
  signal?: AbortSignal,
  resolve: Resolve = systemResolve,
): Promise<URL> {
  let url: URL
  try {
    url = new URL(input)
  } catch {
    throw new OutboundBlockedError('invalid URL')
  }
  const shown = `${url.protocol}//${url.host}`
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowHttp)) {
    throw new OutboundBlockedError(`scheme ${url.protocol} not allowed`, shown)
  }
  if (url.username || url.password) throw new OutboundBlockedError('credentials in URL', shown)

  const host = url.hostname.replace(/^\[(.*)\]$/, '$1') // IPv6 literals come bracketed
  await checkedAddresses(host, policy, resolve, shown, signal)
  return url
}

type LookupCallback = (
  err: Error | null,
  address?: string | { address: string; family: number }[],
  family?: number,
) => void

/**
 * A `lookup` for node:net/tls that resolves AND checks: the socket connects only to addresses the
 * policy admitted in this same call, so nothing can answer differently between check and connect.
 * (IP literals never reach a lookup; assertPublicUrl has judged them.)
 */
function checkedLookup(policy: OutboundPolicy, resolve: Resolve) {
  return (
    hostname: string,
    options: { family?: number | string; all?: boolean },
    callback: LookupCallback,
  ) => {
    const host = hostname.replace(/^\[(.*)\]$/, '$1')
    const wanted = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : Number(options.family ?? 0)
    checkedAddresses(host, policy, resolve, host).then(
      (addrs) => {
        const found = addrs
          .map((a) => ({ address: a.toString(), family: a.kind() === 'ipv6' ? 6 : 4 }))
          .filter((a) => !wanted || a.family === wanted)
        if (found.length === 0) {
          callback(Object.assign(new Error(`no IPv${wanted} address for ${host}`), { code: 'ENOTFOUND' }))
        } else if (options.all) callback(null, found)
        else callback(null, found[0]!.address, found[0]!.family)
      },
      (err: Error) => callback(err),
    )
  }
}

/** The OutboundBlockedError somewhere in an error's cause chain (the lookup's refusal, wrapped by undici). */
function blockedIn(err: unknown): OutboundBlockedError | undefined {
  for (let at = err, depth = 0; at && depth < 5; depth++) {
    if (at instanceof OutboundBlockedError) return at
    at = (at as { cause?: unknown }).cause
  }
  return undefined
}

export type GuardedFetch = (
  url: string | URL,
  init?: RequestInit & {
    timeoutMs?: number
    maxResponseBytes?: number
    /**
     * Hand the body over as a stream instead of buffering it (large feeds): the byte cap is still
     * enforced while it is read (the stream errors with an OutboundError 'too_large'), and the
     * deadline still covers the whole read.
     */
    stream?: boolean
  },
) => Promise<Response>

const MAX_REDIRECTS = 3
const REDIRECT_STATUS = new Set([301, 302, 303, 307, 308])
const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304])
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization', 'x-api-key', 'apikey']

/**
 * Fetch through the policy. The check runs at send time, not only when a URL is registered, and
 * the connection is pinned: every socket is opened by undici through `checkedLookup`, so it goes
 * to an address the policy admitted in that very lookup (DNS rebinding answers public to a first
 * check and private to the connect; the connect's own check refuses it). One Agent per guarded
 * fetch keeps connections pooled per origin; a pooled socket stays on its checked address.
 *
 * undici's fetch rather than the runtime's: neither Node's global fetch nor Deno's (whose
 * createHttpClient has no resolver or SNI option) lets us choose the address. `resolve` is the
 * test seam for a resolver that answers differently each time.
 */
export function createGuardedFetch(
  policy: OutboundPolicy,
  options: { resolve?: Resolve } = {},
): GuardedFetch {
  const resolve = options.resolve ?? systemResolve
  const dispatcher = new Agent({ connect: { lookup: checkedLookup(policy, resolve) as never } })
  const send = (url: URL, init: RequestInit): Promise<Response> =>
    undiciFetch(url, { ...init, dispatcher } as never) as unknown as Promise<Response>
  return async (input, init = {}) => {
    const {
      timeoutMs = policy.timeoutMs,
      maxResponseBytes = policy.maxResponseBytes,
      stream = false,
      ...rest
    } = init
    // One deadline for the whole exchange: DNS, every redirect hop and the body.
    const timeout = AbortSignal.timeout(timeoutMs)
    const signal = rest.signal ? AbortSignal.any([rest.signal, timeout]) : timeout
    const wrap = (err: unknown): unknown => {
      if (err instanceof OutboundBlockedError || err instanceof OutboundError) return err
      const blocked = blockedIn(err)
      if (blocked) return blocked
      const host = hostOf(input)
      if (timeout.aborted)
        return new OutboundError('timeout', `${host} did not answer within ${timeoutMs} ms (time-out)`, {
          cause: err,
        })
      if (rest.signal?.aborted) return err // the caller's own abort: leave it as the caller's reason
      return new OutboundError('network', describeNetworkFailure(err, host), { cause: err })
    }

    try {
      let url = await assertPublicUrl(input, policy, signal, resolve)
      let method = (rest.method ?? 'GET').toUpperCase()
      let body = rest.body
      const headers = new Headers(rest.headers)
      for (let hop = 0; ; hop++) {
        // We follow redirects ourselves: fetch's own following would skip our check on each Location.
        const res = await send(url, { ...rest, method, body, headers, signal, redirect: 'manual' })
        const location = res.headers.get('location')
        if (!REDIRECT_STATUS.has(res.status) || !location || rest.redirect === 'manual') {
          return stream
            ? streamed(res, url, maxResponseBytes, wrap)
            : await buffered(res, url, maxResponseBytes)
        }
        await res.body?.cancel()
        if (rest.redirect === 'error')
          throw new OutboundError('network', `unexpected redirect from ${url.host}`)
        if (hop >= MAX_REDIRECTS) throw new OutboundError('network', `more than ${MAX_REDIRECTS} redirects`)
        const next = await assertPublicUrl(new URL(location, url), policy, signal, resolve)
        // As fetch would: 303 (and 301/302 after POST) turn into a bodiless GET. A 307/308 resends
        // the body, which works for strings/bytes but not a one-shot ReadableStream (fails as 'network').
        const toGet =
          res.status === 303
            ? method !== 'HEAD'
            : (res.status === 301 || res.status === 302) && method === 'POST'
        if (toGet) {
          method = 'GET'
          body = undefined
          headers.delete('content-type')
          headers.delete('content-length')
        }
        // Never hand a token or cookie meant for one origin to whatever it redirects to. fetch only
        // knows the standard ones; MCP servers take their api_key secret as X-API-Key.
        if (next.origin !== url.origin) {
          for (const h of CREDENTIAL_HEADERS) headers.delete(h)
        }
        url = next
      }
    } catch (err) {
      throw wrap(err)
    }
  }
}

/** The body as a stream under a byte cap, read errors named as outbound errors. */
function streamed(res: Response, url: URL, cap: number, wrap: (err: unknown) => unknown): Response {
  const declared = Number(res.headers.get('content-length') ?? Number.NaN)
  if (declared > cap) {
    void res.body?.cancel()
    throw new OutboundError('too_large', `response from ${url.host} declares ${declared} bytes (cap ${cap})`)
  }
  let total = 0
  const reader = res.body?.getReader()
  const body = reader
    ? new ReadableStream<Uint8Array>({
        async pull(controller) {
          try {
            const { done, value } = await reader.read()
            if (done) return controller.close()
            total += value.byteLength
            if (total > cap) {
              await reader.cancel()
              throw new OutboundError('too_large', `response from ${url.host} exceeds ${cap} bytes`)
            }
            controller.enqueue(value)
          } catch (err) {
            controller.error(wrap(err))
          }
        },
        cancel: (reason) => reader.cancel(reason),
      })
    : null
  const headers = new Headers(res.headers)
  headers.delete('content-encoding')
  headers.delete('content-length')
  const out = new Response(NULL_BODY_STATUS.has(res.status) ? null : body, {
    status: res.status,
    statusText: res.statusText,
    headers,
  })
  Object.defineProperty(out, 'url', { value: url.href })
  return out
}

/** Read the body under a byte cap (stop as soon as it is exceeded) and return it as a new Response. */
async function buffered(res: Response, url: URL, cap: number): Promise<Response> {
  const declared = Number(res.headers.get('content-length') ?? Number.NaN)
  if (declared > cap) {
    await res.body?.cancel()
    throw new OutboundError('too_large', `response from ${url.host} declares ${declared} bytes (cap ${cap})`)
  }
  const chunks: Uint8Array[] = []
  let total = 0
  if (res.body) {
    const reader = res.body.getReader()
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      total += value.byteLength
      if (total > cap) {
        await reader.cancel()
        throw new OutboundError('too_large', `response from ${url.host} exceeds ${cap} bytes`)
      }
      chunks.push(value)
    }
  }
  const bytes = new Uint8Array(total)
  let at = 0
  for (const c of chunks) {
    bytes.set(c, at)
    at += c.byteLength
  }
  // fetch already decoded any content-encoding, so the wire length/encoding no longer describe the body.
  const headers = new Headers(res.headers)
  headers.delete('content-encoding')
  headers.delete('content-length')
  const out = new Response(NULL_BODY_STATUS.has(res.status) ? null : bytes, {
    status: res.status,
    statusText: res.statusText,
    headers,
  })
  Object.defineProperty(out, 'url', { value: url.href }) // keep the final URL visible to callers
  return out
}
