// Migration 20261201040000 gives existing sites and articles slugs from their names and titles
// (duplicates numbered, per tenant for sites and per site for articles) and changes nothing else.
import { readdir, readFile } from 'node:fs/promises'
import { applyMigrations, migrationsDir } from '@shared/infra/migrations.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from './support/database.ts'

const FIRST_NEW = '20261201040000'
let db: TestDatabase

/** Applies the migrations before `version`, recorded as the runner records them. */
async function migrateBefore(version: string) {
  const files = (await readdir(migrationsDir)).filter((f) => /^\d{14}_[\w-]+\.sql$/.test(f)).sort()
  await db.sql.unsafe(`create schema if not exists supabase_migrations;
    create table if not exists supabase_migrations.schema_migrations (version text primary key, statements text[], name text)`)
  for (const file of files.filter((f) => f.slice(0, 14) < version)) {
    await db.sql.begin(async (tx) => {
      await tx.unsafe(await readFile(migrationsDir + file, 'utf8')).simple()
      await tx`insert into supabase_migrations.schema_migrations (version, name) values (${file.slice(0, 14)}, ${file.slice(15, -4)})`
    })
  }
}

beforeAll(async () => {
  db = await createTestDatabase({ migrate: false })
  await migrateBefore(FIRST_NEW)
}, 120_000)
afterAll(() => db.close())

describe('slugs for existing rows', () => {
  it('derives them from titles and names, numbers duplicates, and leaves every other column as it was', async () => {
    const sql = db.sql
    await sql`insert into auth.users (id, email) values ('00000000-0000-0000-0000-0000000000a1', 'm@example.com')`
    await sql`insert into public.tenants (id, name, plan) values
      ('00000000-0000-0000-0000-0000000000b1', 'One', 'free'), ('00000000-0000-0000-0000-0000000000b2', 'Two', 'free')`
    const t1 = '00000000-0000-0000-0000-0000000000b1'
    const t2 = '00000000-0000-0000-0000-0000000000b2'
    await sql`insert into public.sites (id, tenant_id, name, created_at, updated_at) values
      ('00000000-0000-0000-0000-0000000000c1', ${t1}, 'Café Blog', '2026-01-01', '2026-01-02'),
      ('00000000-0000-0000-0000-0000000000c2', ${t1}, 'café blog!', '2026-01-03', '2026-01-03'),
      ('00000000-0000-0000-0000-0000000000c3', ${t2}, 'Café Blog', '2026-01-01', '2026-01-01')`
    const s1 = '00000000-0000-0000-0000-0000000000c1'
    const s2 = '00000000-0000-0000-0000-0000000000c2'
    await sql`insert into public.articles (id, tenant_id, site_id, title, body, status, published_at, created_at, updated_at) values
      ('00000000-0000-0000-0000-0000000000d1', ${t1}, ${s1}, 'Hello World', 'b1', 'published', '2026-02-01', '2026-01-05', '2026-01-06'),
      ('00000000-0000-0000-0000-0000000000d2', ${t1}, ${s1}, 'Hello, world!', 'b2', 'draft', null, '2026-01-07', '2026-01-07'),
      ('00000000-0000-0000-0000-0000000000d3', ${t1}, ${s1}, 'Straße über Ærø', 'b3', 'draft', null, '2026-01-08', '2026-01-08'),
      ('00000000-0000-0000-0000-0000000000d4', ${t1}, ${s1}, '日本語', 'b4', 'draft', null, '2026-01-09', '2026-01-09'),
      ('00000000-0000-0000-0000-0000000000d5', ${t1}, ${s2}, 'Hello World', 'b5', 'draft', null, '2026-01-10', '2026-01-10')`
    const before = await sql`select * from public.articles order by id`
    const sitesBefore = await sql`select * from public.sites order by id`

    await applyMigrations(sql)

    const sites = await sql<{ id: string; slug: string }[]>`select id, slug from public.sites order by id`
    expect(sites.map((s) => s.slug)).toEqual(['cafe-blog', 'cafe-blog-2', 'cafe-blog'])
    const articles = await sql`select * from public.articles order by id`
    expect(articles.map((a) => a.slug)).toEqual([
      'hello-world',
      'hello-world-2',
      'strasse-uber-aero',
      'article',
      'hello-world',
    ])
    // Nothing else changed: not the text, the status, the times.
    for (const [i, row] of before.entries())
      for (const [k, v] of Object.entries(row)) expect(articles[i]![k], k).toEqual(v)
    const sitesAfter = await sql`select * from public.sites order by id`
    for (const [i, row] of sitesBefore.entries())
      for (const [k, v] of Object.entries(row)) expect(sitesAfter[i]![k], k).toEqual(v)
    // And a row inserted without a slug afterwards gets the next free one.
    const [added] = await sql<{ slug: string }[]>`
      insert into public.articles (tenant_id, site_id, title) values (${t1}, ${s1}, 'Hello world') returning slug`
    expect(added!.slug).toBe('hello-world-3')
  }, 120_000)
})
