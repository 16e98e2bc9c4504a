import { areas } from '@scripts/lib/schema-files.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'

/**
 * Every content table (the area `content.sql` of supabase/schema-snapshot/: articles, article_*,
 * sites, tags) that the API role may write has the contributor's restrictive policy for each write
 * it may make (ADR 0027): a restrictive policy for that command (or for all) that calls
 * private.request_not_contributor. A content table added without them fails here, before a
 * contributor's claims used directly (the Data API) can write what the API refuses.
 */

const contentTables = areas.find((a) => a.file === 'content.sql')!.tables

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase()
})
afterAll(() => db.close())

describe('contributor policies', () => {
  it('cover every write the API role may make on a content table', async () => {
    const tables = await db.sql<{ name: string }[]>`
      select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p') order by 1`
    const content = tables.map((t) => t.name).filter((t) => contentTables.test(t))
    expect(content).toEqual(expect.arrayContaining(['articles', 'article_slug_redirects', 'sites', 'tags']))

    const missing: string[] = []
    for (const table of content) {
      for (const command of ['INSERT', 'UPDATE', 'DELETE'] as const) {
        const [{ granted } = { granted: false }] = await db.sql<{ granted: boolean }[]>`
          select has_table_privilege('authenticated', ${`public.${table}`}, ${command}) as granted`
        if (!granted) continue
        const policies = await db.sql<{ policyname: string }[]>`
          select policyname from pg_policies
          where schemaname = 'public' and tablename = ${table} and permissive = 'RESTRICTIVE'
            and cmd in (${command}, 'ALL') and 'authenticated' = any (roles)
            and (coalesce(qual, '') || ' ' || coalesce(with_check, '')) like '%request_not_contributor%'`
        if (policies.length === 0) missing.push(`${table} ${command}`)
      }
    }
    expect(missing).toEqual([])
  })
})
