/**
 * Small crypto building blocks shared by keys and the vault: WebCrypto, and @noble/hashes for
 * SHA-256 (runs the same on Node and Deno). (Webhook signing lives in functions/webhooks/verify.ts,
 * kept self-contained for receivers to copy.)
 */
import { sha256 } from '@noble/hashes/sha2.js'

const encoder = new TextEncoder()
const decoder = new TextDecoder()
const HEX_DIGITS = encoder.encode('0123456789abcdef')

/**
 * Lower-case hex of `bytes`, built as one flat string. (@noble/hashes' bytesToHex appends two
 * characters at a time, a rope that V8 flattens again when the hash is first used as a map key,
 * as the verified-key cache does on every request: about 1 µs a hash more.)
 */
function toHex(bytes: Uint8Array): string {
  const out = new Uint8Array(bytes.length * 2)
  for (let i = 0; i < bytes.length; i++) {
    out[2 * i] = HEX_DIGITS[bytes[i]! >> 4]!
    out[2 * i + 1] = HEX_DIGITS[bytes[i]! & 15]!
  }
  return decoder.decode(out)
}

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
 * SHA-256 of a short text (a key, a token), synchronously. @noble/hashes rather than
 * crypto.subtle: on Node each subtle.digest is a job handed to the thread pool, a tenth of a
 * millisecond of main-thread time per call (measured on every key-authenticated request).
 */
export function sha256Hex(text: string): string {
  return toHex(sha256(encoder.encode(text)))
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
