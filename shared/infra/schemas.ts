import { z } from '@hono/zod-openapi'

/**
 * Shared request schemas for values that reach PostgreSQL, so no input gives a 5xx: every timestamp a
 * client sends is bounded to what both JavaScript and PostgreSQL store (years 0001 to 9999, where
 * PostgreSQL has no year 0), and every free-form JSON field is capped in depth and size.
 */

const MIN_TIME = Date.parse('0001-01-01T00:00:00Z')
const MAX_TIME = Date.parse('9999-12-31T23:59:59.999Z')
const RANGE = 'must lie between 0001-01-01 and 9999-12-31'

/** ISO 8601 date-time with offset, within years 0001..9999. */
export const isoTimestamp = () =>
  z.iso.datetime({ offset: true }).refine((s) => {
    const t = Date.parse(s)
    return t >= MIN_TIME && t <= MAX_TIME
  }, RANGE)

/** A month as YYYY-MM, years 0001..9999. */
export const isoMonth = () =>
  z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'a month as YYYY-MM')
    .refine((s) => !s.startsWith('0000'), RANGE)

/** Depth of a JSON value: a scalar is 0, `{}` and `[]` are 1. Stops counting past `limit`. */
function jsonDepth(value: unknown, limit = Number.POSITIVE_INFINITY): number {
  if (value === null || typeof value !== 'object') return 0
  let deepest = 0
  for (const v of Array.isArray(value) ? value : Object.values(value)) {
    if (deepest >= limit) break
    deepest = Math.max(deepest, jsonDepth(v, limit - 1))
  }
  return deepest + 1
}

const JSON_FIELD_DEFAULTS = { maxDepth: 8, maxBytes: 8192 } as const

/**
 * A free-form JSON object (settings, restrictions, properties): keys of at most 100 characters,
 * at most `maxDepth` levels deep and `maxBytes` of JSON text.
 */
export const boundedJsonObject = (opts: { maxDepth?: number; maxBytes?: number } = {}) => {
  const { maxDepth, maxBytes } = { ...JSON_FIELD_DEFAULTS, ...opts }
  return z
    .record(z.string().max(100), z.unknown())
    .superRefine((value, ctx) => {
      if (jsonDepth(value, maxDepth + 1) > maxDepth)
        ctx.addIssue({ code: 'custom', message: `at most ${maxDepth} levels of nesting` })
      else if (new TextEncoder().encode(JSON.stringify(value)).length > maxBytes)
        ctx.addIssue({ code: 'custom', message: `at most ${maxBytes} bytes of JSON` })
    })
    .openapi({ description: `Free-form JSON object (at most ${maxDepth} levels, ${maxBytes} bytes)` })
}

/** The first string (or key) PostgreSQL cannot store as text: a NUL or a lone UTF-16 surrogate. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what this looks for
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

export function hasUnstorableText(s: string): boolean {
  return UNSTORABLE.test(s)
}

/**
 * The path of the first unstorable string in a JSON value, or nesting past `maxDepth`. Nesting is
 * reported at the top-level field it starts from (`settings`, or `(body)` for an array body), not
 * as a path of `maxDepth` segments.
 */
export function findUnstorable(
  value: unknown,
  maxDepth: number,
  path = '(body)',
  limit = maxDepth,
  topField = '(body)',
): { field: string; message: string } | null {
  if (typeof value === 'string')
    return hasUnstorableText(value) ? { field: path, message: 'contains a NUL or a lone surrogate' } : null
  if (value === null || typeof value !== 'object') return null
  if (maxDepth <= 0)
    return { field: topField, message: `is nested more than ${limit} levels deep: send flatter JSON` }
  const isArray = Array.isArray(value)
  const entries = isArray ? value.map((v, i) => [String(i), v] as const) : Object.entries(value)
  for (const [k, v] of entries) {
    const atTop = path === '(body)'
    const field = atTop ? k : `${path}.${k}`
    if (hasUnstorableText(k)) return { field, message: 'key contains a NUL or a lone surrogate' }
    const found = findUnstorable(v, maxDepth - 1, field, limit, atTop && !isArray ? k : topField)
    if (found) return found
  }
  return null
}
