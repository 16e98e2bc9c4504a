/**
 * Webhook signatures, for our dispatcher and for receivers. Self-contained (WebCrypto only, no
 * imports) so a receiver can copy this file as is; it runs on Node 20+, Deno, Bun and workers.
 *
 *   x-service-signature: sha256=<lowercase hex HMAC-SHA256(secret, raw body bytes)>
 *     The same scheme as GitHub's X-Hub-Signature-256, so any verifier of that header works.
 *   x-service-timestamp: <unix seconds when the attempt was sent>
 *   x-service-timestamp-signature: sha256=<hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>[,sha256=...]
 *     Binds the timestamp to the body, so a captured request cannot be replayed later with a new
 *     timestamp. During a secret rotation it lists one signature per active secret.
 *
 * Beside them, the Standard Webhooks headers (https://www.standardwebhooks.com), which the
 * `standardwebhooks` and `svix` libraries verify as they are:
 *   webhook-id: <the event id, evt_...>
 *   webhook-timestamp: <unix seconds, the same as x-service-timestamp>
 *   webhook-signature: v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<raw body>")>[ v1,...]
 *     The key is the base64 decoding of the secret's part after `whsec_`, as those libraries read
 *     it. During a secret rotation it lists one signature per active secret, space-separated.
 */

const encoder = new TextEncoder()

function toBytes(data: string | Uint8Array): Uint8Array {
  return typeof data === 'string' ? encoder.encode(data) : data
}

async function hmacHex(secret: string, data: Uint8Array): Promise<string> {
  const key = await crypto.subtle.importKey(
    'raw',
    encoder.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  )
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, data as Uint8Array<ArrayBuffer>))
  let hex = ''
  for (const b of mac) hex += b.toString(16).padStart(2, '0')
  return hex
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length)
  out.set(a)
  out.set(b, a.length)
  return out
}

async function hmacBytes(key: Uint8Array, data: Uint8Array): Promise<Uint8Array> {
  const cryptoKey = await crypto.subtle.importKey(
    'raw',
    key as Uint8Array<ArrayBuffer>,
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  )
  return new Uint8Array(await crypto.subtle.sign('HMAC', cryptoKey, data as Uint8Array<ArrayBuffer>))
}

function toBase64(bytes: Uint8Array): string {
  let binary = ''
  for (const b of bytes) binary += String.fromCharCode(b)
  return btoa(binary)
}

/** The fewest key bytes the Standard Webhooks spec accepts. */
const MIN_STANDARD_KEY_BYTES = 24

/**
 * The Standard Webhooks key of a `whsec_` secret: the base64 decoding of the part after the
 * prefix. Our secrets' part after `whsec_` is 36 base62 characters, which is also valid base64
 * of 27 bytes, so every secret ever issued has a key the libraries derive the same way.
 */
export function standardWebhooksKey(secret: string): Uint8Array {
  const encoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret
  let binary: string
  try {
    if (encoded.length % 4 !== 0) throw new Error('unpadded')
    binary = atob(encoded)
  } catch {
    throw new Error('the webhook secret is not base64 after whsec_')
  }
  if (binary.length < MIN_STANDARD_KEY_BYTES) throw new Error('the webhook secret is shorter than 24 bytes')
  return Uint8Array.from(binary, (c) => c.charCodeAt(0))
}

/** `v1,<base64>` over `<id>.<timestamp>.<body bytes>` (Standard Webhooks). */
export async function signStandardWebhook(
  secret: string,
  id: string,
  timestamp: number,
  rawBody: string | Uint8Array,
): Promise<string> {
  const signed = concat(encoder.encode(`${id}.${timestamp}.`), toBytes(rawBody))
  return `v1,${toBase64(await hmacBytes(standardWebhooksKey(secret), signed))}`
}

/** Compares every byte whatever the first difference, so timing reveals nothing of the expected value. */
function constantTimeEqual(a: string, b: string): boolean {
  const x = encoder.encode(a)
  const y = encoder.encode(b)
  let diff = x.length ^ y.length
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0)
  return diff === 0
}

/** `sha256=<hex>` over the exact body bytes. */
export async function signBody(secret: string, rawBody: string | Uint8Array): Promise<string> {
  return `sha256=${await hmacHex(secret, toBytes(rawBody))}`
}

/** `sha256=<hex>` over `<timestamp>.<body bytes>`. */
export async function signTimestampedBody(
  secret: string,
  timestamp: number,
  rawBody: string | Uint8Array,
): Promise<string> {
  return `sha256=${await hmacHex(secret, concat(encoder.encode(`${timestamp}.`), toBytes(rawBody)))}`
}

/**
 * True when `header` (the x-service-signature value) is the signature of `rawBody` under `secret`.
 * Pass the body exactly as received (bytes, or the undecoded text): re-serialised JSON differs.
 */
export async function verifyWebhookSignature(
  rawBody: string | Uint8Array,
  header: string | null | undefined,
  secret: string,
): Promise<boolean> {
  if (!header?.startsWith('sha256=')) return false
  return constantTimeEqual(header.trim(), await signBody(secret, rawBody))
}

export interface VerifyRequestOptions {
  rawBody: string | Uint8Array
  headers: Headers | Record<string, string | string[] | undefined>
  /** The current secret, and during a rotation overlap also the previous one. */
  secrets: string[]
  /** Refuse timestamps further than this from now (default 300 s). */
  toleranceSeconds?: number
  now?: Date
}

function header(headers: VerifyRequestOptions['headers'], name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined
  const value = headers[name] ?? headers[name.toLowerCase()]
  return Array.isArray(value) ? value[0] : value
}

/**
 * The stricter check: the timestamp must be recent and signed together with the body, so a
 * replay of an old request is refused. Deduplicate on x-service-event-id (the payload's id) for
 * the tolerance window to refuse replays inside it too.
 */
export async function verifyWebhookRequest(
  opts: VerifyRequestOptions,
): Promise<{ ok: true } | { ok: false; reason: string }> {
  const tolerance = opts.toleranceSeconds ?? 300
  const timestampText = header(opts.headers, 'x-service-timestamp')
  const signatures = (header(opts.headers, 'x-service-timestamp-signature') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  if (!timestampText || !/^\d{1,12}$/.test(timestampText))
    return { ok: false, reason: 'missing or malformed x-service-timestamp' }
  const timestamp = Number(timestampText)
  const now = Math.floor((opts.now ?? new Date()).getTime() / 1000)
  if (Math.abs(now - timestamp) > tolerance) return { ok: false, reason: 'timestamp outside the tolerance' }
  for (const secret of opts.secrets) {
    const expected = await signTimestampedBody(secret, timestamp, opts.rawBody)
    // Check every listed signature without stopping early on the first match.
    let match = false
    for (const sig of signatures) match = constantTimeEqual(sig, expected) || match
    if (match) return { ok: true }
  }
  return { ok: false, reason: 'no signature matches' }
}
