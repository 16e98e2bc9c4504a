/**
 * `npm run migrations:seal`: records the SHA-256 of every migration not yet in
 * supabase/migrations.sha256. A migration that has landed is never edited (databases that already
 * ran it would never see the change); tests/checks/migrations-sealed.test.ts holds each file to its
 * recorded checksum. Lines already there are never rewritten: to change the schema, add a migration.
 */
import { createHash } from 'node:crypto'
import { appendFileSync, readdirSync, readFileSync } from 'node:fs'
import { migrationsDir } from '@shared/infra/migrations.ts'
import { readSeals, sealsFile } from './lib/migration-seals.ts'

const sealed = readSeals()
const added: string[] = []
for (const file of readdirSync(migrationsDir)
  .filter((f) => f.endsWith('.sql'))
  .sort()) {
  if (sealed.has(file)) continue
  const digest = createHash('sha256')
    .update(readFileSync(migrationsDir + file))
    .digest('hex')
  appendFileSync(sealsFile, `${digest}  ${file}\n`)
  added.push(file)
}
console.log(added.length ? `sealed ${added.join(', ')}` : 'every migration is already sealed')
