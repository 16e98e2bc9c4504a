import { readFileSync } from 'node:fs'
import { blocksOf, phaseOf, schemaDir, snapshotFiles } from '@scripts/lib/schema-files.ts'
import type { Sql, Tx } from '@shared/infra/db.ts'
import { applyMigrations, migrationsDir } from '@shared/infra/migrations.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'

/**
 * supabase/schema-snapshot/*.sql is where a reader finds the current definition of every function, table,
 * policy and grant of the platform's schemas (public and private), a table's all in one place. It is only worth reading if it
 * is true: one database is built from the migrations, another from Supabase's stand-ins (the
 * bootstrap migration) plus the schema files, and the two catalogs must match object for object.
 * After a new migration, `npm run schema:dump` rewrites the files.
 */

// One row per object, with everything that decides its behaviour: function bodies and settings,
// column types and defaults, persistence, RLS flags, constraints, indexes, triggers, policies, and
// the privileges on tables, columns, functions and schemas. An explicit privilege list equal to the
// owner's default counts as the default (a dump writes no grant for it).
const CATALOG = `
with ns as (select oid, nspname from pg_namespace where nspname in ('public', 'private'))
select 'function ' || ns.nspname || '.' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')' as object,
       pg_get_functiondef(p.oid) || ' acl=' || coalesce(nullif(p.proacl, acldefault('f', p.proowner))::text, 'default') as definition
  from pg_proc p join ns on ns.oid = p.pronamespace
union all
select 'relation ' || ns.nspname || '.' || c.relname,
       c.relkind::text || ' persistence=' || c.relpersistence::text || ' rls=' || c.relrowsecurity::text || ' force=' || c.relforcerowsecurity::text
       || ' acl=' || coalesce(nullif(c.relacl, acldefault('r', c.relowner))::text, 'default')
  from pg_class c join ns on ns.oid = c.relnamespace where c.relkind in ('r', 'v', 'm', 'S', 'p')
union all
select 'column ' || ns.nspname || '.' || c.relname || '.' || a.attname,
       format_type(a.atttypid, a.atttypmod) || ' notnull=' || a.attnotnull::text || ' default=' || coalesce(pg_get_expr(d.adbin, d.adrelid), '')
       || ' acl=' || coalesce(a.attacl::text, 'default')
  from pg_attribute a join pg_class c on c.oid = a.attrelid join ns on ns.oid = c.relnamespace
  left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
 where a.attnum > 0 and not a.attisdropped and c.relkind in ('r', 'v', 'p')
union all
select 'constraint ' || ns.nspname || '.' || c.relname || '.' || k.conname, pg_get_constraintdef(k.oid)
  from pg_constraint k join pg_class c on c.oid = k.conrelid join ns on ns.oid = c.relnamespace
union all
select 'index ' || ns.nspname || '.' || i.relname, pg_get_indexdef(i.oid)
  from pg_index x join pg_class i on i.oid = x.indexrelid join ns on ns.oid = i.relnamespace
union all
select 'trigger ' || ns.nspname || '.' || c.relname || '.' || t.tgname, pg_get_triggerdef(t.oid)
  from pg_trigger t join pg_class c on c.oid = t.tgrelid join ns on ns.oid = c.relnamespace where not t.tgisinternal
union all
select 'policy ' || schemaname || '.' || tablename || '.' || policyname,
       permissive || ' ' || cmd || ' to ' || roles::text || ' using ' || coalesce(qual, '') || ' check ' || coalesce(with_check, '')
  from pg_policies where schemaname in ('public', 'private')
union all
select 'schema ' || nspname, 'acl=' || coalesce(nullif(nspacl, acldefault('n', nspowner))::text, 'default')
  from pg_namespace where nspname in ('public', 'private')
order by 1`

type CatalogRow = { object: string; definition: string }
const catalogOf = (sql: Sql) => sql.unsafe<CatalogRow[]>(CATALOG)

async function applySchemaFiles(sql: Sql): Promise<void> {
  const bootstrap = readFileSync(`${migrationsDir}20261121000000_supabase_bootstrap.sql`, 'utf8')
  await sql.unsafe(bootstrap).simple()
  // The files are by area, for readers; the objects are created by kind, as a dump orders them.
  const blocks = snapshotFiles().flatMap((file) => blocksOf(readFileSync(schemaDir + file, 'utf8')))
  const ordered = blocks
    .map((b, i) => ({ ...b, i }))
    .sort((a, b) => phaseOf(a.kind) - phaseOf(b.kind) || a.i - b.i)
  await sql.begin(async (tx) => {
    await tx.unsafe('set local check_function_bodies = off').simple()
    await tx.unsafe(ordered.map((b) => `--\n${b.text}`).join('\n\n')).simple()
  })
}

let fromMigrations: TestDatabase
let fromSchema: TestDatabase
beforeAll(async () => {
  ;[fromMigrations, fromSchema] = await Promise.all([
    createTestDatabase({ migrate: false }),
    createTestDatabase({ migrate: false }),
  ])
  await applyMigrations(fromMigrations.sql)
  await applySchemaFiles(fromSchema.sql)
})
afterAll(async () => {
  await Promise.all([fromMigrations?.close(), fromSchema?.close()])
})

describe('supabase/schema-snapshot/ matches the migrations', () => {
  it('every function, table, column, constraint, index, trigger, policy and grant is the same', async () => {
    const [migrated, declared] = await Promise.all([catalogOf(fromMigrations.sql), catalogOf(fromSchema.sql)])
    expect(migrated.length).toBeGreaterThan(500)
    expect(snapshotFiles().length).toBeGreaterThan(5) // the areas' files and the functions' file
    // Compared as text, so a failure names the objects that differ. The parentheses of a constraint
    // or index expression are left out: a dump re-parsed nests \`a AND b AND c\` as ((a AND b) AND c).
    const lines = (rows: CatalogRow[]) =>
      rows.map(({ object, definition }) =>
        /^(constraint|index) /.test(object)
          ? `${object}: ${definition.replace(/[()]/g, '')}`
          : `${object}: ${definition}`,
      )
    expect(lines(declared)).toEqual(lines(migrated))
  })

  it('the comparison sees a changed function body, policy, column grant and persistence (it can fail)', async () => {
    const before = await catalogOf(fromSchema.sql)
    await fromSchema.sql.begin(async (tx) => {
      const changes = [
        `create or replace function private.user_tenant_ids() returns setof uuid language sql stable security definer set search_path = '' as $$ select null::uuid $$`,
        `alter policy ${await firstPolicy(tx)} using (true)`,
        'grant select (tenant_id) on public.api_keys to anon',
        'alter table private.rate_limit_buckets set logged',
      ]
      const seen: string[] = []
      for (const change of changes) {
        await tx.unsafe('savepoint probe')
        await tx.unsafe(change)
        const after = await tx.unsafe<CatalogRow[]>(CATALOG)
        const changed = after.filter(
          (r, i) => r.definition !== before[i]?.definition || r.object !== before[i]?.object,
        )
        seen.push(changed.length > 0 ? 'seen' : `missed: ${change}`)
        await tx.unsafe('rollback to savepoint probe')
      }
      expect(seen).toEqual(changes.map(() => 'seen'))
    })
  })
})

async function firstPolicy(tx: Tx): Promise<string> {
  const [p] = await tx<{ policyname: string; tablename: string }[]>`
    select policyname, tablename from pg_policies where schemaname = 'public' order by 2, 1 limit 1`
  return `"${p!.policyname}" on public.${p!.tablename}`
}
