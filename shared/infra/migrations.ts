import { readdir, readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import type { Sql } from '@shared/infra/db.ts'

export const migrationsDir = fileURLToPath(new URL('../../migrations/', import.meta.url))

/**
 * Applies each file in migrations/ once, in name order, recording it in the table the Supabase
 * CLI uses (supabase_migrations.schema_migrations), so `supabase db push` and this runner agree
 * on what has been applied. An advisory lock lets several instances start at once safely.
 */
export async function applyMigrations(sql: Sql, log: (msg: string) => void = () => {}): Promise<string[]> {
  const files = (await readdir(migrationsDir)).filter((f) => /^\d{14}_[\w-]+\.sql$/.test(f)).sort()
  const applied: string[] = []
  await sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(hashtext('tenant-platform:migrations'))`
    await tx
      .unsafe(`
      create schema if not exists supabase_migrations;
      create table if not exists supabase_migrations.schema_migrations (
        version text primary key, statements text[], name text
      )`)
      .simple()
    const done = new Set(
      (await tx<{ version: string }[]>`select version from supabase_migrations.schema_migrations`).map(
        (r) => r.version,
      ),
    )
    for (const file of files) {
      const version = file.slice(0, 14)
      if (done.has(version)) continue
      const text = await readFile(migrationsDir + file, 'utf8')
      await tx.unsafe(text).simple()
      await tx`insert into supabase_migrations.schema_migrations (version, name, statements)
               values (${version}, ${file.slice(15, -4)}, ${[text]})`
      applied.push(file)
      log(`applied ${file}`)
    }
  })
  return applied
}
