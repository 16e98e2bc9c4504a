import { randomBytes } from 'node:crypto'
import { connectDatabase, type Sql } from '@shared/infra/db.ts'
import { applyMigrations } from '@shared/infra/migrations.ts'
import postgres from 'postgres'

export interface TestDatabase {
  url: string
  /** Owner connection: bypasses row-level security. For seeding and inspection only. */
  sql: Sql
  close(): Promise<void>
}

/**
 * A fresh, migrated database for one test file. With DATABASE_URL set (CI's PostgreSQL) each
 * file gets its own new database on that server; otherwise an in-memory embedded PGlite.
 * `migrate: false` leaves it empty, for tests that prepare it before migrating.
 * With SHARED_TEST_DATABASE_URL set, that database instead (see below). `serverUrl` names the
 * server explicitly.
 */
export async function createTestDatabase({
  migrate = true,
  serverUrl: givenServerUrl,
}: {
  migrate?: boolean
  serverUrl?: string
} = {}): Promise<TestDatabase> {
  // An existing database, already migrated, used as it is and shared by the test files: the
  // Supabase schema fixture in CI (where a new database would lack Supabase's schema).
  const sharedUrl = process.env.SHARED_TEST_DATABASE_URL
  if (sharedUrl && !givenServerUrl) {
    const sql = connectDatabase(sharedUrl, 4)
    if (migrate) await applyMigrations(sql)
    return { url: sharedUrl, sql, close: () => sql.end({ timeout: 5 }) }
  }
  // `serverUrl`: a server of the test's own (a throwaway cluster it restarts).
  const serverUrl = givenServerUrl ?? process.env.DATABASE_URL
  if (serverUrl) {
    const name = `test_${randomBytes(6).toString('hex')}`
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} })
    await admin.unsafe(`create database ${name}`)
    const url = new URL(serverUrl)
    url.pathname = `/${name}`
    const sql = connectDatabase(url.toString(), 4)
    if (migrate) {
      // Roles are the cluster's, not a database's: two test files migrating their new databases at
      // once on a fresh cluster would both create them (a unique violation in pg_authid). Until
      // they exist, migrations take turns, under a lock of the server's maintenance database.
      const [roles] = await admin<{ ready: boolean }[]>`
        select exists (select 1 from pg_roles where rolname = 'service_role') as ready`
      if (!roles!.ready) await admin`select pg_advisory_lock(hashtext('tenant-platform:test-roles'))`
      try {
        await applyMigrations(sql)
      } finally {
        if (!roles!.ready) await admin`select pg_advisory_unlock(hashtext('tenant-platform:test-roles'))`
      }
    }
    await admin.end()
    return {
      url: url.toString(),
      sql,
      close: async () => {
        await sql.end({ timeout: 5 })
        const dropper = postgres(serverUrl, { max: 1, onnotice: () => {} })
        await dropper.unsafe(`drop database if exists ${name} with (force)`)
        await dropper.end()
      },
    }
  }
  const { startEmbeddedPostgres } = await import('@local-platform/embedded-postgres.ts')
  const embedded = await startEmbeddedPostgres({ port: 0 })
  const sql = connectDatabase(embedded.url, 4)
  if (migrate) await applyMigrations(sql)
  return {
    url: embedded.url,
    sql,
    close: async () => {
      await sql.end({ timeout: 5 })
      await embedded.stop()
    },
  }
}
