import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { readSeals } from '@scripts/lib/migration-seals.ts'
import { migrationsDir } from '@shared/infra/migrations.ts'
import { describe, expect, it } from 'vitest'

/**
 * A migration that has landed is never edited: a database that already applied it would never run
 * the change, so the schema would differ between a fresh database and a deployed one. Each file is
 * held to the SHA-256 recorded in supabase/migrations.sha256 when it was added
 * (`npm run migrations:seal` records new files and never rewrites a line).
 */
const digest = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')

function sealProblems(files: Map<string, Buffer>, seals: Map<string, string>): string[] {
  const problems: string[] = []
  for (const [file, bytes] of files) {
    const sealed = seals.get(file)
    if (!sealed) problems.push(`${file}: not sealed (run npm run migrations:seal)`)
    else if (sealed !== digest(bytes))
      problems.push(`${file}: edited after it was sealed; add a new migration instead`)
  }
  for (const file of seals.keys()) {
    if (!files.has(file)) problems.push(`${file}: sealed but missing (a landed migration is never removed)`)
  }
  return problems
}

describe('migrations are sealed', () => {
  it('every migration matches the checksum recorded when it landed', () => {
    const files = new Map(
      readdirSync(migrationsDir)
        .filter((f) => f.endsWith('.sql'))
        .map((f) => [f, readFileSync(migrationsDir + f)] as const),
    )
    expect(files.size).toBeGreaterThan(20)
    expect(sealProblems(files, readSeals())).toEqual([])
  })

  it('refuses an edited, an unsealed and a removed migration (the check can fail)', () => {
    const a = Buffer.from('create table a ();\n')
    const seals = readSeals(
      `${digest(a)}  20260101000000_a.sql\n${digest(Buffer.from('x'))}  20260101000001_b.sql\n${digest(a)}  20260101000002_gone.sql\n`,
    )
    const files = new Map([
      ['20260101000000_a.sql', a],
      ['20260101000001_b.sql', Buffer.from('x -- edited')],
      ['20260101000003_new.sql', a],
    ])
    expect(sealProblems(files, seals)).toEqual([
      '20260101000001_b.sql: edited after it was sealed; add a new migration instead',
      '20260101000003_new.sql: not sealed (run npm run migrations:seal)',
      '20260101000002_gone.sql: sealed but missing (a landed migration is never removed)',
    ])
  })
})
