import { decodeCursor, keysetPage, type PageRequest } from '@shared/infra/pagination.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from './support/database.ts'

/**
 * keysetPage, the one keyset list of every endpoint, walked over a real table: two rows share a
 * timestamp, so the id must break the tie for no row to be skipped or repeated.
 */
let db: TestDatabase
const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute))
const rows = [
  { id: '00000000-0000-4000-8000-000000000001', created_at: at(1) },
  { id: '00000000-0000-4000-8000-000000000002', created_at: at(2) },
  { id: '00000000-0000-4000-8000-000000000003', created_at: at(2) },
  { id: '00000000-0000-4000-8000-000000000004', created_at: at(3) },
  { id: '00000000-0000-4000-8000-000000000005', created_at: at(4) },
]
type Row = (typeof rows)[number]

beforeAll(async () => {
  db = await createTestDatabase({ migrate: false })
  await db.sql`create table paged (id uuid primary key, created_at timestamptz not null)`
  for (const r of rows) await db.sql`insert into paged values (${r.id}, ${r.created_at})`
})
afterAll(() => db.close())

async function walk(oldestFirst: boolean, qualified: boolean): Promise<string[][]> {
  const pages: string[][] = []
  let page: PageRequest = { limit: 2, after: null }
  for (;;) {
    const got = await keysetPage(
      page,
      qualified
        ? { at: 'created_at', column: 'p.created_at', id: 'p.id', oldestFirst }
        : { at: 'created_at', oldestFirst },
      (r: Row) => r.id.slice(-1),
      (tail) => db.sql<Row[]>`select p.id, p.created_at from paged p where true ${tail(db.sql)}`,
    )
    pages.push(got.data)
    if (!got.next_cursor) return pages
    page = { limit: 2, after: decodeCursor(got.next_cursor) }
  }
}

describe('keysetPage', () => {
  it('pages newest first, breaking a timestamp tie by id, and ends with next_cursor null', async () => {
    expect(await walk(false, false)).toEqual([['5', '4'], ['3', '2'], ['1']])
  })

  it('pages oldest first when asked', async () => {
    expect(await walk(true, false)).toEqual([['1', '2'], ['3', '4'], ['5']])
  })

  it('takes qualified columns for a query that joins', async () => {
    expect(await walk(false, true)).toEqual([['5', '4'], ['3', '2'], ['1']])
  })

  it('gives no next_cursor when the last page is exactly full', async () => {
    const got = await keysetPage(
      { limit: 5, after: null },
      { at: 'created_at' },
      (r: Row) => r,
      (tail) => db.sql<Row[]>`select id, created_at from paged where true ${tail(db.sql)}`,
    )
    expect([got.data.length, got.next_cursor]).toEqual([5, null])
  })
})
