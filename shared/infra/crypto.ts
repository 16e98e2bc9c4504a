/**
 * Small crypto building blocks shared by keys and the vault: WebCrypto, and node:crypto's hash for
 * SHA-256 (Deno implements node:crypto natively too). (Webhook signing lives in
 * functions/webhooks/verify.ts, kept self-contained for receivers to copy.)
 */
import { createHash } from 'node:crypto'

const encoder = new TextEncoder()

export function randomBytes(length: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(length))
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

/** Uniform base62 string: rejection sampling avoids the modulo bias of `byte % 62`. */
export function randomBase62(length: number): string {
  let out = ''
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62]
    }
  }
  return out
}

export function toBase62(value: number, width: number): string {
  let out = ''
  let n = value >>> 0
  for (let i = 0; i < width; i++) {
    out = BASE62[n % 62] + out
    n = Math.floor(n / 62)
  }
  return out
}

export function isBase62(s: string): boolean {
  return /^[0-9A-Za-z]*$/.test(s)
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    table[n] = c >>> 0
  }
  return table
})()

/** CRC-32 (IEEE): a cheap, synchronous checksum so malformed keys are refused before any lookup. */
export function crc32(text: string): number {
  let crc = 0xffffffff
  for (const byte of encoder.encode(text)) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8)
  return (crc ^ 0xffffffff) >>> 0
}

export function toBase64(bytes: Uint8Array): string {
  let bin = ''
  for (const b of bytes) bin += String.fromCharCode(b)
  return btoa(bin)
}

export function fromBase64(text: string): Uint8Array {
  const bin = atob(text)
  const out = new Uint8Array(bin.length)
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i)
  return out
}

/**
 * SHA-256 of a short text (a key, a token) as lower-case hex, synchronously, with node:crypto's
 * native hash: on every key-authenticated request, crypto.subtle (a job handed to the thread pool
 * on Node) and a hash in JavaScript both cost more (figures in docs/performance.md).
 */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex')
}

/**
 * Constant-time string comparison. Length is not secret here (all compared values have public
 * formats), but every byte of equal-length inputs is always visited.
 */
export function timingSafeEqual(a: string, b: string): boolean {
  const x = encoder.encode(a)
  const y = encoder.encode(b)
  let diff = x.length ^ y.length
  const n = Math.max(x.length, y.length)
  for (let i = 0; i < n; i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0)
  return diff === 0
}
