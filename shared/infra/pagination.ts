import { z } from '@hono/zod-openapi'
import type { Fragment } from './claim-lease.ts'
import type { Queryable } from './db.ts'
import { ServiceError } from './errors.ts'

/**
 * Keyset pagination over (timestamp, id): stable under inserts, no OFFSET scans.
 * The cursor is opaque to clients (base64url of "iso-timestamp|id", the id a uuid or, for the
 * request log's bigint rows, digits).
 */
export const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20).openapi({ description: 'Page size (1-100)' }),
  cursor: z.string().max(200).optional().openapi({ description: 'next_cursor from the previous page' }),
})

export interface Cursor {
  at: Date
  id: string
}

function encodeCursor(at: Date, id: string): string {
  return btoa(`${at.toISOString()}|${id}`).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

const ISO_YEAR = /^(?!0000)\d{4}-/
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
/** A bigint id: at most 18 digits, so it always fits. */
const BIGINT = /^[0-9]{1,18}$/

export function decodeCursor(cursor: string | undefined): Cursor | null {
  return decodeCursorOf(cursor, UUID)
}

/** A cursor over rows with a bigint id (the request log). */
export function decodeBigintCursor(cursor: string | undefined): Cursor | null {
  return decodeCursorOf(cursor, BIGINT)
}

function decodeCursorOf(cursor: string | undefined, idPattern: RegExp): Cursor | null {
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
      !idPattern.test(id)
    )
      throw new Error('bad cursor')
    return { at, id }
  } catch {
    throw new ServiceError('VALIDATION_ERROR', 'Invalid cursor', {
      details: [{ field: 'cursor', message: 'Invalid cursor' }],
    })
  }
}

/** What a list asks for: the page size and where the previous page ended. */
export interface PageRequest {
  limit: number
  after: Cursor | null
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

/**
 * How a list walks its rows: the timestamp column and the id column (qualified when the query
 * joins, e.g. `c.created_at`), newest first unless `oldestFirst`.
 */
export interface Keyset<Row> {
  at: keyof Row & string
  column?: string
  id?: string
  oldestFirst?: boolean
}

/**
 * One keyset list: `read` gets `tail`, which renders the rest of the query after its own filters
 * (`and (at, id) < cursor order by at desc, id desc limit n + 1`), and the rows come back as the
 * page (each through `present`) and its next_cursor. The column names come from code, never from
 * a request.
 */
export async function keysetPage<Row extends { id: string }, Out = Row>(
  page: PageRequest,
  keyset: Keyset<NoInfer<Row>>,
  present: (row: Row) => Out,
  read: (tail: (q: Queryable) => Fragment) => Promise<Row[]>,
): Promise<Page<Out>> {
  const at = keyset.column ?? keyset.at
  const id = keyset.id ?? 'id'
  const tail = (q: Queryable): Fragment => {
    const after = page.after
    const order = keyset.oldestFirst
      ? q`order by ${q(at)}, ${q(id)}`
      : q`order by ${q(at)} desc, ${q(id)} desc`
    const past = !after
      ? q``
      : keyset.oldestFirst
        ? q`and (${q(at)}, ${q(id)}) > (${after.at}, ${after.id})`
        : q`and (${q(at)}, ${q(id)}) < (${after.at}, ${after.id})`
    return q`${past} ${order} limit ${page.limit + 1}` as Fragment
  }
  const rows = await read(tail)
  return paginate(rows, page.limit, (r) => ({ at: r[keyset.at] as Date, id: r.id }), present)
}
