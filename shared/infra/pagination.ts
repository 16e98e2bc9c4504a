import { z } from '@hono/zod-openapi'
import { ServiceError } from './errors.ts'

/**
 * Keyset pagination over (timestamp, id): stable under inserts, no OFFSET scans.
 * The cursor is opaque to clients (base64url of "iso-timestamp|uuid").
 */
export const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20).openapi({ description: 'Page size (1-100)' }),
  cursor: z.string().max(200).optional().openapi({ description: 'next_cursor from the previous page' }),
})

export interface Cursor {
  at: Date
  id: string
}

export function encodeCursor(at: Date, id: string): string {
  return btoa(`${at.toISOString()}|${id}`).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

const ISO_YEAR = /^(?!0000)\d{4}-/
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export function decodeCursor(cursor: string | undefined): Cursor | null {
  if (!cursor) return null
  try {
    const [iso, id] = atob(cursor.replace(/-/g, '+').replace(/_/g, '/')).split('|')
    const at = new Date(iso ?? '')
    // Only what encodeCursor writes: anything else (year 0, +6-digit years, a dashes-only "uuid")
    // would reach the database and fail there as a 500.
    if (
      Number.isNaN(at.getTime()) ||
      at.toISOString() !== iso ||
      !ISO_YEAR.test(iso) ||
      !id ||
      !UUID.test(id)
    )
      throw new Error('bad cursor')
    return { at, id }
  } catch {
    throw new ServiceError('VALIDATION_ERROR', 'Invalid cursor', {
      details: [{ field: 'cursor', message: 'Invalid cursor' }],
    })
  }
}

export interface Page<T> {
  data: T[]
  next_cursor: string | null
}

/**
 * Given limit+1 rows in keyset order, the page (each row through `present`) and the cursor of
 * the next one: every keyset list endpoint ends here.
 */
export function paginate<Row, Out = Row>(
  rows: Row[],
  limit: number,
  key: (row: Row) => Cursor,
  present: (row: Row) => Out = (row) => row as unknown as Out,
): Page<Out> {
  const page = rows.slice(0, limit)
  const last = page[page.length - 1]
  const next = rows.length > limit && last ? key(last) : null
  return { data: page.map(present), next_cursor: next ? encodeCursor(next.at, next.id) : null }
}
