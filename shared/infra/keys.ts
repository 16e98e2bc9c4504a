import { crc32, isBase62, randomBase62, sha256Hex, toBase62 } from './crypto.ts'

/**
 * Secret keys: `<prefix><30 random base62 chars><6-char CRC-32 checksum>`.
 * 30 base62 characters carry ~178 bits of randomness; the checksum lets a mistyped or made-up
 * key be refused without a database lookup. Only the SHA-256 of the whole key is stored: the
 * key is high-entropy, so a fast hash is as strong as a slow one here.
 */
const keyPrefixes = {
  svc_live_: { family: 'platform', environment: 'production' },
  svc_test_: { family: 'platform', environment: 'sandbox' },
  mcp_live_: { family: 'tool_server', environment: 'production' },
  mcp_dev_: { family: 'tool_server', environment: 'development' },
  srv_: { family: 'tool_server', environment: 'service' },
  whsec_: { family: 'webhook_secret', environment: 'any' },
} as const

export type KeyPrefix = keyof typeof keyPrefixes
type KeyFamily = (typeof keyPrefixes)[KeyPrefix]['family']

const RANDOM_LENGTH = 30
const CHECKSUM_LENGTH = 6
/** How much of a key is kept in the clear for display: prefix plus 4 characters. */
const DISPLAY_EXTRA = 4

export function generateKey(prefix: KeyPrefix): string {
  const body = randomBase62(RANDOM_LENGTH)
  return `${prefix}${body}${toBase62(crc32(prefix + body), CHECKSUM_LENGTH)}`
}

export interface ParsedKey {
  prefix: KeyPrefix
  family: KeyFamily
  environment: string
}

/** Structural check only (prefix, length, alphabet, checksum): no I/O. */
export function parseKey(key: string): ParsedKey | null {
  const prefix = (Object.keys(keyPrefixes) as KeyPrefix[]).find((p) => key.startsWith(p))
  if (!prefix) return null
  const rest = key.slice(prefix.length)
  if (rest.length !== RANDOM_LENGTH + CHECKSUM_LENGTH || !isBase62(rest)) return null
  const body = rest.slice(0, RANDOM_LENGTH)
  if (toBase62(crc32(prefix + body), CHECKSUM_LENGTH) !== rest.slice(RANDOM_LENGTH)) return null
  return { prefix, ...keyPrefixes[prefix] }
}

export function displayPrefix(key: string): string {
  const parsed = parseKey(key)
  const length = (parsed?.prefix.length ?? 0) + DISPLAY_EXTRA
  return key.slice(0, length)
}

export const hashKey = sha256Hex
