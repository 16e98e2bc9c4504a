import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Sql } from '@shared/infra/db.ts'
import postgres from 'postgres'

const MIGRATION = join(import.meta.dirname, '../../migrations/20261208070000_media_storage.sql')

/** The five media_objects_* policies, as the migration states them (one source for both). */
function mediaPolicyStatements(): string[] {
  const text = readFileSync(MIGRATION, 'utf8')
  return [...text.matchAll(/execute \$p\$([\s\S]*?)\$p\$/g)].map((m) => m[1]!.trim())
}

/**
 * The media policies on storage.objects where the migration could not make them: on Supabase's
 * schema storage.objects belongs to supabase_storage_admin and `postgres` may not add policies,
 * so docs/deploy.md has the operator add them in the Dashboard (which acts as Storage's owner).
 * On the Supabase schema fixture the test does that step as the fixture's bootstrap superuser
 * (supabase_admin), with the migration's own statements. Elsewhere the migration made them.
 */
export async function ensureMediaStoragePolicies(sql: Sql, url: string): Promise<void> {
  const [have] = await sql<{ n: number }[]>`
    select count(*)::int as n from pg_policies
    where schemaname = 'storage' and tablename = 'objects' and policyname like 'media_objects_%'`
  const statements = mediaPolicyStatements()
  if (have!.n >= statements.length) return
  const admin = new URL(url)
  admin.username = 'supabase_admin'
  const owner = postgres(admin.toString(), { max: 1, onnotice: () => {} })
  try {
    await owner.begin(async (tx) => {
      for (const statement of statements) await tx.unsafe(statement)
    })
  } finally {
    await owner.end({ timeout: 5 })
  }
}
