import type { TenantCaller } from '@shared/infra/caller.ts'
import { queryArticleBySlug } from '@shared/services/content/article-reads.ts'
import { queryContent, readContentAsTenant } from '@shared/services/content/feed.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { claimsSetup, type Tx, withTenant } from '../shared/infra/db.ts'
import { ensureMediaStoragePolicies } from './support/media-storage-policies.ts'
import { setupTimeout, startTestPlatform, type TestPlatform, type TestTenant } from './support/platform.ts'
import { seedEveryTenantTable } from './support/tenant-fixtures.ts'

let tp: TestPlatform
let a: TestTenant
let b: TestTenant

beforeAll(async () => {
  tp = await startTestPlatform()
  a = await tp.createTenant()
  b = await tp.createTenant()
  // Tenant B has a row in every tenant table, so "A sees none of B's rows" compares something with 0.
  await seedEveryTenantTable(tp, b)
  // On Supabase's schema the storage.objects policies are the operator's step (docs/deploy.md).
  if (process.env.SHARED_TEST_DATABASE_URL) await ensureMediaStoragePolicies(tp.db.sql, tp.db.url)
}, setupTimeout())
afterAll(() => tp.close())

const claimsOf = (t: TestTenant) => ({
  sub: t.userId,
  role: 'authenticated' as const,
  app_metadata: { tenant_id: t.tenantId },
})

/** Public tables that hold no tenant's data: catalogs every tenant reads. */
const SHARED_CATALOGS = ['media_plan_limits', 'plan_quotas', 'products', 'providers']

/** Every public table with a tenant_id column, from the catalog (not from a list kept by hand). */
async function tenantTables(): Promise<string[]> {
  const rows = await tp.db.sql<{ table_name: string }[]>`
    select c.table_name from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.table_schema = 'public' and c.column_name = 'tenant_id' and t.table_type = 'BASE TABLE'
    order by 1`
  return rows.map((r) => r.table_name)
}

/**
 * What `viewer` can read of other tenants' rows under row-level security, in `tx` (a transaction
 * on the owner connection, so a test can plant a policy in it and roll it back). First, as the
 * owner, which tables hold no row of `seeded`: there the check would compare 0 with 0.
 */
async function isolationReport(tx: Tx, viewer: TestTenant, seeded: TestTenant, tables: string[]) {
  const unseeded: string[] = []
  for (const table of tables) {
    const [owner] = await tx<{ n: number }[]>`
      select count(*)::int as n from ${tx(table)} where tenant_id = ${seeded.tenantId}`
    if (owner!.n === 0) unseeded.push(table)
  }
  await claimsSetup(tx, claimsOf(viewer))
  const leaks: string[] = []
  for (const table of tables) {
    const [seen] = await tx<{ n: number }[]>`
      select count(*)::int as n from ${tx(table)} where tenant_id is distinct from ${viewer.tenantId}`
    if (seen!.n > 0) leaks.push(table)
  }
  const [tenants] = await tx<{ n: number }[]>`
    select count(*)::int as n from public.tenants where id <> ${viewer.tenantId}`
  if (tenants!.n > 0) leaks.push('tenants')
  return { unseeded, leaks }
}

/**
 * Eight statements at once on the owner pool, so on each of its connections: none runs as
 * `authenticated`, none carries claims or a tenant.
 */
async function expectPoolWithoutTenantSettings() {
  const rows = await Promise.all(
    Array.from(
      { length: 8 },
      () =>
        tp.db.sql`select current_user as who, current_setting('request.jwt.claims', true) as claims,
                           current_setting('request.tenant_id', true) as tenant`,
    ),
  )
  for (const r of rows) {
    expect(r[0]!.who).not.toBe('authenticated')
    expect(r[0]!.claims || '').toBe('')
    expect(r[0]!.tenant || '').toBe('')
  }
}

class Rollback extends Error {}

/** Runs fn in an owner transaction that is always rolled back (for planting a policy). */
async function inThrowawayTransaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
  let result: T | undefined
  await tp.db.sql
    .begin(async (tx) => {
      result = await fn(tx)
      throw new Rollback()
    })
    .catch((err) => {
      if (!(err instanceof Rollback)) throw err
    })
  return result as T
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

  it('has a fixture row in every tenant table, and classifies every other public table', async () => {
    const tables = await tenantTables()
    expect(tables.length).toBeGreaterThan(25)
    const { unseeded } = await inThrowawayTransaction((tx) => isolationReport(tx, a, b, tables))
    expect(unseeded, 'tenant tables without a row of B: add one in tests/support/tenant-fixtures.ts').toEqual(
      [],
    )
    const others = await tp.db.sql<{ table_name: string }[]>`
      select table_name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE' and table_name <> all(${tables}) order by 1`
    expect(
      others.map((r) => r.table_name),
      'a public table without tenant_id is either tenants or a shared catalog',
    ).toEqual(['tenants', ...SHARED_CATALOGS].sort())
  })

  it("shows a user of tenant A none of tenant B's rows in any table, through SQL as role authenticated", async () => {
    const tables = await tenantTables()
    const report = await inThrowawayTransaction((tx) => isolationReport(tx, a, b, tables))
    expect(report).toEqual({ unseeded: [], leaks: [] })
    // And B, as B, sees its own rows: the policies hide other tenants' rows, not everything.
    const own = await inThrowawayTransaction((tx) => isolationReport(tx, b, a, tables))
    expect(own.leaks).toEqual([])
    for (const table of tables) {
      const [asB] = await withTenant(
        tp.db.sql,
        claimsOf(b),
        (tx) => tx`select count(*)::int as n from ${tx(table)} where tenant_id = ${b.tenantId}`,
      )
      expect(asB!.n, `${table}: B reads its own rows`).toBeGreaterThan(0)
    }
    const tenants = await withTenant(tp.db.sql, claimsOf(a), (tx) => tx`select id from public.tenants`)
    expect(tenants.map((t) => t.id)).toEqual([a.tenantId])
  })

  it('catches a permissive select policy planted on any one tenant table (the proof bites)', async () => {
    const tables = [...(await tenantTables()), 'tenants']
    for (const table of tables) {
      const { leaks } = await inThrowawayTransaction(async (tx) => {
        await tx`create policy planted_open on ${tx(table)} for select to authenticated using (true)`
        return isolationReport(
          tx,
          a,
          b,
          tables.filter((t) => t !== 'tenants'),
        )
      })
      expect(leaks, `an open policy on ${table}`).toEqual([table])
    }
    // Rolled back: nothing planted is left.
    const [left] = await tp.db.sql`select count(*)::int as n from pg_policy where polname = 'planted_open'`
    expect(left!.n).toBe(0)
  })

  it("keeps storage.objects apart by the tenant prefix: B's media objects are neither seen nor written by A", async () => {
    // The fixture's image is B's object under B's prefix (the local Storage wrote it as B).
    const [own] = await withTenant(
      tp.db.sql,
      claimsOf(b),
      (tx) =>
        tx`select count(*)::int as n from storage.objects where bucket_id = 'media' and name like ${`${b.tenantId}/%`}`,
    )
    expect(own!.n).toBeGreaterThan(0)
    const [seen] = await withTenant(
      tp.db.sql,
      claimsOf(a),
      (tx) => tx`select count(*)::int as n from storage.objects where name like ${`${b.tenantId}/%`}`,
    )
    expect(seen!.n).toBe(0)
    await expect(
      withTenant(
        tp.db.sql,
        claimsOf(a),
        (tx) =>
          tx`insert into storage.objects (bucket_id, name, owner) values ('media', ${`${b.tenantId}/planted.png`}, ${a.userId})`,
      ),
    ).rejects.toThrow(/row-level security/)
    const removed = await withTenant(
      tp.db.sql,
      claimsOf(a),
      (tx) => tx`delete from storage.objects where name like ${`${b.tenantId}/%`} returning id`,
    )
    expect(removed).toEqual([])
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

  it('shows the hot tables (sites, articles) only for the tenant the transaction acts for, and only to its members', async () => {
    // A member of A and of B, acting for A: B's sites and articles are hidden although it is a member.
    await tp.db
      .sql`insert into public.tenant_members (tenant_id, user_id, role) values (${b.tenantId}, ${a.userId}, 'member')`
    try {
      const countIn = (tx: Tx, table: string, tenantId: string) =>
        tx<{ n: number }[]>`select count(*)::int as n from ${tx(table)} where tenant_id = ${tenantId}`.then(
          (r) => r[0]!.n,
        )
      for (const table of ['sites', 'articles']) {
        const [ownerCount] = await tp.db.sql<{ n: number }[]>`
          select count(*)::int as n from ${tp.db.sql(table)} where tenant_id = ${b.tenantId}`
        expect(ownerCount!.n, `${table}: B has rows`).toBeGreaterThan(0)
        expect(await withTenant(tp.db.sql, claimsOf(a), (tx) => countIn(tx, table, b.tenantId)), table).toBe(
          0,
        )
        // Acting for B (its active tenant), the same user sees them.
        const forB = { ...claimsOf(a), app_metadata: { tenant_id: b.tenantId } }
        expect(await withTenant(tp.db.sql, forB, (tx) => countIn(tx, table, b.tenantId)), table).toBe(
          ownerCount!.n,
        )
      }
    } finally {
      await tp.db
        .sql`delete from public.tenant_members where tenant_id = ${b.tenantId} and user_id = ${a.userId}`
    }
    // A setting naming a tenant the claims' user does not belong to selects nothing and admits no write.
    const [seen] = await inThrowawayTransaction(async (tx) => {
      await claimsSetup(tx, claimsOf(a))
      await tx`select set_config('request.tenant_id', ${b.tenantId}, true)`
      return tx<{ sites: number; articles: number }[]>`
        select (select count(*)::int from public.sites) as sites, (select count(*)::int from public.articles) as articles`
    })
    expect(seen).toEqual({ sites: 0, articles: 0 })
    await expect(
      inThrowawayTransaction(async (tx) => {
        await claimsSetup(tx, claimsOf(a))
        await tx`select set_config('request.tenant_id', ${b.tenantId}, true)`
        await tx`insert into public.sites (tenant_id, name) values (${b.tenantId}, 'sneaky')`
      }),
    ).rejects.toThrow(/row-level security/)
  })

  it('lets a caller with only request.jwt.claims (PostgREST, supabase-js) read its active tenant through the hot tables', async () => {
    const [row] = await inThrowawayTransaction(async (tx) => {
      // As PostgREST sets them: role and claims, no request.tenant_id.
      await tx`select set_config('role', 'authenticated', true), set_config('request.jwt.claims', ${JSON.stringify(claimsOf(b))}, true)`
      return tx<{ own: number; other: number }[]>`
        select (select count(*)::int from public.articles where tenant_id = ${b.tenantId}) as own,
               (select count(*)::int from public.articles where tenant_id <> ${b.tenantId}) as other`
    })
    expect(row!.own).toBeGreaterThan(0)
    expect(row!.other).toBe(0)
    // The claims' tenant counts only for a member: a user of A whose claims name B sees nothing.
    const [forged] = await inThrowawayTransaction(async (tx) => {
      await tx`select set_config('role', 'authenticated', true), set_config('request.jwt.claims', ${JSON.stringify({ ...claimsOf(a), app_metadata: { tenant_id: b.tenantId } })}, true)`
      return tx<{ n: number }[]>`select count(*)::int as n from public.articles`
    })
    expect(forged!.n).toBe(0)
  })

  it('reads the content feed in one statement only under the policies: a member sees its tenant, claims naming another tenant see nothing', async () => {
    const callerOf = (user: TestTenant, tenantId: string): TenantCaller => ({
      kind: 'user',
      role: 'owner',
      tenantId,
      userId: user.userId,
      claims: { sub: user.userId, role: 'authenticated', app_metadata: { tenant_id: tenantId } },
    })
    const [owner] = await tp.db.sql<{ n: number }[]>`
      select (select count(*) from public.sites where tenant_id = ${b.tenantId})
           + (select count(*) from public.articles where tenant_id = ${b.tenantId}) as n`
    expect(Number(owner!.n)).toBeGreaterThan(0)
    const own = await readContentAsTenant(tp.db.sql, callerOf(b, b.tenantId), { limit: 100 })
    expect(own.length).toBe(Number(owner!.n))
    // A's user with claims that name B: the function reads for tenant B, the policies refuse every row.
    const forged = callerOf(a, b.tenantId)
    expect(await readContentAsTenant(tp.db.sql, forged, { limit: 100 })).toEqual([])
    // A plan made for the owner is not reused for the tenant: on one connection, the bare read
    // (no claims, as the owner) and then A's claims naming B, in the same transaction.
    const afterOwner = await inThrowawayTransaction(async (tx) => {
      const bare = await queryContent(tx as never, null, b.tenantId, { limit: 100 })
      expect(bare.length).toBe(Number(owner!.n))
      return readContentAsTenant(tx as never, forged, { limit: 100 })
    })
    expect(afterOwner).toEqual([])
    // The proof bites: the same function without its switch to role authenticated (the owner
    // reads past row-level security) returns B's rows to A's claims.
    const leaked = await inThrowawayTransaction(async (tx) => {
      const [def] = await tx<{ d: string }[]>`
        select pg_get_functiondef('private.content_feed(text, uuid, integer, timestamptz, uuid, boolean, text, uuid, text, timestamptz, text[], text, uuid, timestamptz, boolean, text)'::regprocedure) as d`
      const withoutRole = def!.d.replace(/,\s*pg_catalog\.set_config\('role', 'authenticated', true\)/, '')
      expect(withoutRole).not.toBe(def!.d)
      await tx.unsafe(withoutRole)
      return readContentAsTenant(tx as never, forged, { limit: 100 })
    })
    expect(leaked.length).toBe(Number(owner!.n))
    // Role and settings end with the statement's transaction: the pooled connections keep none.
    await expectPoolWithoutTenantSettings()
  })

  it('reads an article by slug in one statement only under the policies: claims naming another tenant see nothing', async () => {
    const claimsFor = (user: TestTenant, tenantId: string) => ({
      sub: user.userId,
      role: 'authenticated' as const,
      app_metadata: { tenant_id: tenantId },
    })
    const [row] = await tp.db.sql<{ site_id: string; slug: string }[]>`
      select site_id, slug from public.articles where tenant_id = ${b.tenantId} limit 1`
    expect(row).toBeDefined()
    const read = (db: Tx | typeof tp.db.sql, claims: ReturnType<typeof claimsFor> | null) =>
      queryArticleBySlug(db as never, claims, b.tenantId, row!.site_id, row!.slug)
    expect(await read(tp.db.sql, claimsFor(b, b.tenantId))).toHaveLength(1)
    // A's user with claims that name B: the policies refuse the row.
    expect(await read(tp.db.sql, claimsFor(a, b.tenantId))).toEqual([])
    // The proof bites: without its switch to role authenticated the owner reads past the policies.
    const leaked = await inThrowawayTransaction(async (tx) => {
      const [def] = await tx<{ d: string }[]>`
        select pg_get_functiondef('private.article_by_slug(text, uuid, uuid, text, text)'::regprocedure) as d`
      const withoutRole = def!.d.replace(/,\s*pg_catalog\.set_config\('role', 'authenticated', true\)/, '')
      expect(withoutRole).not.toBe(def!.d)
      await tx.unsafe(withoutRole)
      return read(tx, claimsFor(a, b.tenantId))
    })
    expect(leaked).toHaveLength(1)
    await expectPoolWithoutTenantSettings()
  })

  it('leaves no role or claims behind on a pooled connection after the transaction', async () => {
    await withTenant(tp.db.sql, claimsOf(a), (tx) => tx`select 1`)
    await expectPoolWithoutTenantSettings()
  })
})

/**
 * A published-only key's claims (docs/adr/0029-published-only-key-is-its-own-caller.md): the
 * database shows them the tenant's published content and nothing else, and takes no write,
 * whatever the code in front of it asks. Tenant B has a row in every table; one of its articles
 * is published here, with a tag of its own, beside the fixture draft and its tag.
 */
describe('a published-only claim', () => {
  const publishedOnlyClaims = () => ({ ...claimsOf(b), published_only: true as const })
  /** What such a claim may read of each published content table, counted as the owner. */
  const publishedContent: Record<string, (tx: Tx) => Promise<{ n: number }[]>> = {
    sites: (tx) => tx`select count(*)::int as n from public.sites where tenant_id = ${b.tenantId}`,
    articles: (tx) =>
      tx`select count(*)::int as n from public.articles where tenant_id = ${b.tenantId} and status = 'published'`,
    article_tags: (tx) => tx`select count(*)::int as n from public.article_tags x
      join public.articles a on a.id = x.article_id where x.tenant_id = ${b.tenantId} and a.status = 'published'`,
    tags: (tx) => tx`select count(*)::int as n from public.tags t where t.tenant_id = ${b.tenantId}
      and exists (select 1 from public.article_tags x join public.articles a on a.id = x.article_id
                  where x.tag_id = t.id and a.status = 'published')`,
    article_slug_redirects: (tx) => tx`select count(*)::int as n from public.article_slug_redirects r
      join public.articles a on a.id = r.article_id where r.tenant_id = ${b.tenantId} and a.status = 'published'`,
    article_revisions: async () => [{ n: 0 }],
  }

  /**
   * Every table with row-level security in schemas public and private that role authenticated may
   * read a column of (others refuse it before any policy), with one such column to count.
   */
  async function rowSecuredTables(tx: Tx): Promise<{ name: string; column: string }[]> {
    return tx<{ name: string; column: string }[]>`
      select c.oid::regclass::text as name,
             (select a.attname from pg_attribute a where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
                and has_column_privilege('authenticated', c.oid, a.attnum, 'SELECT') order by a.attnum limit 1) as column
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname in ('public', 'private') and c.relkind in ('r', 'p') and c.relrowsecurity
        and has_any_column_privilege('authenticated', c.oid, 'SELECT')
      order by 1`
  }

  /** Per table: [rows the owner counts, rows the published-only claim sees], where they differ from the rule. */
  async function publishedOnlyReport(tx: Tx) {
    const [site] = await tx<
      { id: string }[]
    >`select id from public.sites where tenant_id = ${b.tenantId} limit 1`
    const [live] = await tx<{ id: string }[]>`
      insert into public.articles (tenant_id, site_id, title, slug, body, status, published_at, author_id)
      values (${b.tenantId}, ${site!.id}, 'Live', 'live-for-the-claim', 'x', 'published', now(), ${b.userId})
      returning id`
    const [tag] = await tx<{ id: string }[]>`
      insert into public.tags (tenant_id, name, slug) values (${b.tenantId}, 'Live tag', 'live-tag') returning id`
    await tx`insert into public.article_tags (tenant_id, article_id, tag_id, position)
      values (${b.tenantId}, ${live!.id}, ${tag!.id}, 0)`
    const tables = await rowSecuredTables(tx)
    expect(tables.length).toBeGreaterThan(30)
    const expected: Record<string, number> = {}
    for (const { name } of tables) {
      const count = publishedContent[name]
      expected[name] = count ? (await count(tx))[0]!.n : 0
    }
    const [all] = await tx<
      { n: number }[]
    >`select count(*)::int as n from public.articles where tenant_id = ${b.tenantId}`
    expect(all!.n, 'a draft beside the published article').toBeGreaterThan(expected.articles!)
    await claimsSetup(tx, publishedOnlyClaims())
    const wrong: Record<string, [number, number]> = {}
    for (const { name, column } of tables) {
      const [seen] = await tx<{ n: number }[]>`
        select count(*)::int as n from (select ${tx(column)} from ${tx.unsafe(name)}) s`
      if (seen!.n !== expected[name]) wrong[name] = [expected[name]!, seen!.n]
    }
    return { expected, wrong }
  }

  it('sees the published content of its tenant and no row of any other table', async () => {
    const { expected, wrong } = await inThrowawayTransaction((tx) => publishedOnlyReport(tx))
    expect(wrong).toEqual({})
    // Something to see, so the comparison is not 0 with 0.
    for (const table of ['sites', 'articles', 'tags', 'article_tags'])
      expect(expected[table], table).toBeGreaterThan(0)
    // And what it does not see, B's user (the key's creator) does, in the tenant tables.
    const memberSees = await withTenant(
      tp.db.sql,
      claimsOf(b),
      (tx) => tx<{ n: number }[]>`select count(*)::int as n from public.commerce_orders`,
    )
    expect(memberSees[0]!.n).toBeGreaterThan(0)
  })

  it('catches any one table whose published-only policy is dropped (the proof bites)', async () => {
    const policies = await tp.db.sql<{ table: string; name: string }[]>`
      select c.oid::regclass::text as table, p.polname as name from pg_policy p join pg_class c on c.oid = p.polrelid
      where p.polname in ('published_only_sees_nothing', 'articles_published_only', 'tags_published_only',
                          'article_tags_published_only', 'article_revisions_published_only')
        and has_any_column_privilege('authenticated', c.oid, 'SELECT')
      order by 1`
    expect(policies.length).toBeGreaterThan(40)
    const dropAll = async (tx: Tx) => {
      for (const { table, name } of policies)
        if (name === 'published_only_sees_nothing') await tx.unsafe(`drop policy ${name} on ${table}`)
    }
    // Without every published_only_sees_nothing policy and the membership rule, the claim reads
    // the tenant's tables; with the membership rule alone, fewer of them.
    const neither = await inThrowawayTransaction(async (tx) => {
      await dropAll(tx)
      await withoutMembershipRule(tx)
      return publishedOnlyReport(tx)
    })
    expect(Object.keys(neither.wrong)).toEqual(expect.arrayContaining(['commerce_orders', 'sources', 'jobs']))
    const helperOnly = await inThrowawayTransaction(async (tx) => {
      await dropAll(tx)
      return publishedOnlyReport(tx)
    })
    expect(Object.keys(helperOnly.wrong).length).toBeLessThan(Object.keys(neither.wrong).length)
    // One table's policy at a time: that table shows rows, unless its rows show only through a
    // table whose own policy still holds (an assistant turn through its conversation), which the
    // first report counted.
    const unbitten: string[] = []
    for (const { table, name } of policies) {
      const { wrong } = await inThrowawayTransaction(async (tx) => {
        await tx.unsafe(`drop policy ${name} on ${table}`)
        await withoutMembershipRule(tx)
        return publishedOnlyReport(tx)
      })
      const leaked = Object.keys(wrong).join()
      if (leaked !== table && !(leaked === '' && table in neither.wrong))
        unbitten.push(`${name} on ${table}: ${leaked}`)
    }
    expect(unbitten).toEqual([])
  })

  /** The membership helpers as they were before 20261207010000: a membership for any claim. */
  async function withoutMembershipRule(tx: Tx) {
    await tx`create or replace function private.user_tenant_ids() returns setof uuid
      language sql stable security definer set search_path = '' as $$
        select tm.tenant_id from public.tenant_members tm where tm.user_id = auth.uid() $$`
    await tx`create or replace function private.has_tenant_role(target_tenant uuid, roles text[]) returns boolean
      language sql stable security definer set search_path = '' as $$
        select exists (select 1 from public.tenant_members tm
          where tm.tenant_id = target_tenant and tm.user_id = auth.uid() and tm.role = any (roles)) $$`
  }

  it('writes nothing, not even to the published content tables', async () => {
    const claims = publishedOnlyClaims()
    const [site] = await tp.db.sql<
      { id: string }[]
    >`select id from public.sites where tenant_id = ${b.tenantId} limit 1`
    await expect(
      withTenant(
        tp.db.sql,
        claims,
        (tx) => tx`insert into public.sites (tenant_id, name) values (${b.tenantId}, 'x')`,
      ),
    ).rejects.toThrow(/row-level security/)
    await expect(
      withTenant(
        tp.db.sql,
        claims,
        (tx) => tx`insert into public.tags (tenant_id, name, slug) values (${b.tenantId}, 'x', 'x')`,
      ),
    ).rejects.toThrow(/row-level security/)
    for (const write of [
      (tx: Tx) => tx`update public.sites set name = 'pwned' where id = ${site!.id}`,
      (tx: Tx) => tx`update public.articles set title = 'pwned' where tenant_id = ${b.tenantId}`,
    ]) {
      const done = await withTenant(tp.db.sql, claims, write)
      expect(done.count).toBe(0)
    }
    // Every table it could delete from, as its creator could: it deletes no row (rolled back
    // whatever happens).
    const deleted = await inThrowawayTransaction(async (tx) => {
      const tables = await tx<{ name: string }[]>`
        select c.oid::regclass::text as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname in ('public', 'private') and c.relkind in ('r', 'p') and c.relrowsecurity
          and has_table_privilege('authenticated', c.oid, 'DELETE')
        order by 1`
      expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['sites', 'articles', 'tags']))
      await claimsSetup(tx, claims)
      const counts: Record<string, number> = {}
      for (const { name } of tables) counts[name] = (await tx`delete from ${tx.unsafe(name)}`).count
      return counts
    })
    expect(
      Object.values(deleted).every((n) => n === 0),
      JSON.stringify(deleted),
    ).toBe(true)
    // The membership helpers find no membership for it.
    const [helpers] = await withTenant(
      tp.db.sql,
      claims,
      (tx) => tx<{ tenants: number; owner: boolean }[]>`
        select (select count(*)::int from private.user_tenant_ids()) as tenants,
               private.has_tenant_role(${b.tenantId}, array['owner','admin','member','contributor']) as owner`,
    )
    expect(helpers).toEqual({ tenants: 0, owner: false })
  })

  it('is a rule every table with row-level security carries (a new table must opt in)', async () => {
    const missing = await tp.db.sql<{ name: string }[]>`
      select c.oid::regclass::text as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname in ('public', 'private') and c.relkind in ('r', 'p') and c.relrowsecurity
        -- A partition read through its parent is held by the parent's policies; one that an API
        -- role could read or write directly would need its own, so only those are let off.
        and not (c.relispartition and not exists (
          select 1 from unnest(array['anon', 'authenticated']) r
          where pg_catalog.has_table_privilege(r, c.oid, 'select, insert, update, delete')))
        and not exists (select 1 from pg_policy p where p.polrelid = c.oid and not p.polpermissive
                          and pg_get_expr(p.polqual, p.polrelid) like '%request_published_only()%')
      order by 1`
    expect(
      missing.map((r) => r.name),
      'tables without a restrictive published-only policy: see CONTRIBUTING.md, "A new table"',
    ).toEqual([])
  })
})
