/** `npm run migrate`: applies pending migrations to DATABASE_URL (or the running local platform). */

import { applyMigrations } from '@shared/infra/migrations.ts'
import { localDatabaseUrl } from '../local-platform/local-env.ts'
import { connectDatabase } from '../shared/infra/db.ts'

const url = process.env.DATABASE_URL ?? localDatabaseUrl()
const sql = connectDatabase(url, 1)
try {
  const applied = await applyMigrations(sql, (m) => console.log(m))
  console.log(applied.length ? `${applied.length} migration(s) applied` : 'database is up to date')
} finally {
  await sql.end()
}
