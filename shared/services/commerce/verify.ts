/**
 * Signature checks for inbound shop webhooks. Shopify (X-Shopify-Hmac-Sha256) and WooCommerce
 * (X-WC-Webhook-Signature) sign alike: base64 of HMAC-SHA256 over the raw request body, keyed
 * with the store's secret. We verify over the bytes as received, before anything parses them.
 */

const encoder = new TextEncoder()

/** base64 HMAC-SHA256 of `body` under `secret`: what the shops put in their signature header. */
export async function signShopBody(secret: string, body: Uint8Array | string): Promise<string> {
  const bytes = typeof body === 'string' ? encoder.encode(body) : body
  const mac = new Uint8Array(
    await crypto.subtle.sign('HMAC', await hmacKey(secret), bytes as Uint8Array<ArrayBuffer>),
  )
  let bin = ''
  for (const b of mac) bin += String.fromCharCode(b)
  return btoa(bin)
}

function hmacKey(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ])
}

/** The 32 bytes a base64 signature header names, or null when it is not one. */
function decodeSignature(header: string): Uint8Array | null {
  const text = header.trim()
  if (!/^[A-Za-z0-9+/]{43}=$/.test(text)) return null
  const bin = atob(text)
  const out = new Uint8Array(bin.length)
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i)
  return out.length === 32 ? out : null
}

/**
 * True when `header` is the base64 HMAC-SHA256 of `body` under `secret`. The comparison visits
 * every byte whatever differs; a header that is not a 32-byte base64 value is compared as
 * zeros, so it costs the same as a wrong signature.
 */
export async function verifyShopSignature(
  secret: string,
  body: Uint8Array,
  header: string,
): Promise<boolean> {
  const given = decodeSignature(header)
  const expected = new Uint8Array(
    await crypto.subtle.sign('HMAC', await hmacKey(secret), body as Uint8Array<ArrayBuffer>),
  )
  const candidate = given ?? new Uint8Array(32)
  let diff = given ? 0 : 1
  for (let i = 0; i < 32; i++) diff |= expected[i]! ^ candidate[i]!
  return diff === 0
}
