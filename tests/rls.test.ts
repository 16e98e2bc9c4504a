import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withTenant } from '../shared/infra/db.ts'
import { startTestPlatform, type TestPlatform, type TestTenant } from './support/platform.ts'

let tp: TestPlatform
let a: TestTenant
let b: TestTenant

beforeAll(async () => {
  tp = await startTestPlatform()
  a = await tp.createTenant()
  b = await tp.createTenant()
  // Give tenant B a row in every core table.
  const key = await tp.json('/api/api-keys', {
    token: b.token,
    body: { name: 'b', environment: 'production', scopes: ['content:read'], rate_limit_per_minute: 10 },
  })
  expect(key.status).toBe(201)
  const [site] = await tp.db
    .sql`insert into public.sites (tenant_id, name) values (${b.tenantId}, 'B') returning id`
  await tp.db
    .sql`insert into public.articles (tenant_id, site_id, title) values (${b.tenantId}, ${site!.id}, 'B article')`
  await tp.db
    .sql`insert into public.notifications (tenant_id, kind, recipient, subject, body) values (${b.tenantId}, 'test', 'b@example.com', 's', 'b')`
})
afterAll(() => tp.close())

const claimsOf = (t: TestTenant) => ({
  sub: t.userId,
  role: 'authenticated' as const,
  app_metadata: { tenant_id: t.tenantId },
})

async function tenantTables(): Promise<string[]> {
  const rows = await tp.db.sql<{ table_name: string }[]>`
    select c.table_name from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.table_schema = 'public' and c.column_name = 'tenant_id' and t.table_type = 'BASE TABLE'
    order by 1`
  return rows.map((r) => r.table_name)
}

describe('row-level security', () => {
  it('is enabled on every public table that holds tenant data, and tenant_id is indexed', async () => {
    const tables = await tenantTables()
    expect(tables).toEqual(
      expect.arrayContaining([
        'api_keys',
        'articles',
        'event_outbox',
        'notifications',
        'sites',
        'tenant_members',
      ]),
    )
    for (const table of tables) {
      const [rls] = await tp.db
        .sql`select relrowsecurity from pg_class where oid = ${`public.${table}`}::regclass`
      expect(rls!.relrowsecurity, table).toBe(true)
      const [indexed] = await tp.db.sql`
        select exists (
          select 1 from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = i.indkey[0]
          where i.indrelid = ${`public.${table}`}::regclass and a.attname = 'tenant_id'
        ) as ok`
      expect(indexed!.ok, `${table}.tenant_id indexed`).toBe(true)
    }
    const [tenants] = await tp.db
      .sql`select relrowsecurity from pg_class where oid = 'public.tenants'::regclass`
    expect(tenants!.relrowsecurity).toBe(true)
  })

  it("shows a user of tenant A none of tenant B's rows in any table, through SQL as role authenticated", async () => {
    for (const table of await tenantTables()) {
      const [owner] = await tp.db
        .sql`select count(*)::int as n from ${tp.db.sql(table)} where tenant_id = ${b.tenantId}`
      const [asA] = await withTenant(
        tp.db.sql,
        claimsOf(a),
        (tx) => tx`select count(*)::int as n from ${tx(table)} where tenant_id = ${b.tenantId}`,
      )
      expect(asA!.n, table).toBe(0)
      if (
        ['api_keys', 'sites', 'articles', 'notifications', 'event_outbox', 'tenant_members'].includes(table)
      ) {
        expect(owner!.n, `${table} has B rows to hide`).toBeGreaterThan(0)
      }
    }
    const tenants = await withTenant(tp.db.sql, claimsOf(a), (tx) => tx`select id from public.tenants`)
    expect(tenants.map((t) => t.id)).toEqual([a.tenantId])
  })

  it('refuses to write rows into another tenant', async () => {
    await expect(
      withTenant(
        tp.db.sql,
        claimsOf(a),
        (tx) => tx`insert into public.sites (tenant_id, name) values (${b.tenantId}, 'sneaky')`,
      ),
    ).rejects.toThrow(/row-level security/)
    const updated = await withTenant(
      tp.db.sql,
      claimsOf(a),
      (tx) => tx`update public.articles set title = 'pwned' where tenant_id = ${b.tenantId}`,
    )
    expect(updated.count).toBe(0)
    await expect(
      withTenant(
        tp.db.sql,
        claimsOf(a),
        (tx) => tx`update public.api_keys set key_hash = 'x' where tenant_id = ${a.tenantId}`,
      ),
    ).rejects.toThrow(/permission denied/)
  })

  it('lets tenants write events only through the functions, never by a direct insert', async () => {
    await expect(
      withTenant(
        tp.db.sql,
        claimsOf(a),
        (tx) =>
          tx`insert into public.event_outbox (id, tenant_id, type, data) values ('evt_forged', ${a.tenantId}, 'content.published', '{}')`,
      ),
    ).rejects.toThrow(/permission denied/)
    await expect(
      withTenant(
        tp.db.sql,
        claimsOf(a),
        (tx) =>
          tx`select private.record_event('evt_other', ${b.tenantId}, 'content.published', '{}'::jsonb, now())`,
      ),
    ).rejects.toThrow(/not a member/)
  })

  it('keeps private tables (rate limits, data keys) out of reach of role authenticated', async () => {
    await expect(
      withTenant(tp.db.sql, claimsOf(a), (tx) => tx`select * from private.tenant_data_keys`),
    ).rejects.toThrow(/permission denied/)
    await expect(
      withTenant(tp.db.sql, claimsOf(a), (tx) => tx`select * from private.rate_limit_buckets`),
    ).rejects.toThrow(/permission denied/)
  })

  it('stores default timestamps at millisecond precision, as keyset cursors carry them', async () => {
    const rows = await tp.db.sql`
      select table_schema || '.' || table_name || '.' || column_name as col, column_default from information_schema.columns
      where table_schema in ('public', 'private') and data_type = 'timestamp with time zone' and column_default is not null`
    expect(rows.length).toBeGreaterThan(10)
    for (const r of rows) expect(r.column_default, r.col).not.toBe('now()')
    // Measured in SQL: a JavaScript Date would hide the microseconds.
    const [site] = await tp.db.sql<{ micros: number }[]>`
      insert into public.sites (tenant_id, name) values (${a.tenantId}, 'ms')
      returning (extract(microseconds from created_at)::bigint % 1000)::int as micros`
    expect(site!.micros).toBe(0)
  })

  it('leaves no role or claims behind on a pooled connection after the transaction', async () => {
    await withTenant(tp.db.sql, claimsOf(a), (tx) => tx`select 1`)
    const rows = await Promise.all(
      Array.from(
        { length: 8 },
        () => tp.db.sql`select current_user as who, current_setting('request.jwt.claims', true) as claims`,
      ),
    )
    for (const r of rows) {
      expect(r[0]!.who).not.toBe('authenticated')
      expect(r[0]!.claims || '').toBe('')
    }
  })
})
