import { readFileSync } from 'node:fs'
import { configSchema } from '@shared/infra/config.ts'
import { publicRoutes } from '@shared/infra/http/public-routes.ts'
import { catalog } from '@shared/services/integrations/catalog.ts'
import { mediaBucketSettings } from '@shared/services/media/bucket.ts'
import { describe, expect, it } from 'vitest'

/**
 * docs/deploy.md against the code: every environment variable that shared/infra/config.ts reads
 * appears in the guide's secrets step, every variable that step names is read, and the proxy
 * rewrites are the route table.
 */
const guide = readFileSync('docs/deploy.md', 'utf8')
const configSource = readFileSync('shared/infra/config.ts', 'utf8')

function section(heading: string): string {
  const start = guide.indexOf(`\n## ${heading}`)
  expect(start, `docs/deploy.md has a section "## ${heading}"`).toBeGreaterThan(0)
  const end = guide.indexOf('\n## ', start + 1)
  return guide.slice(start, end === -1 ? undefined : end)
}

/** Every variable the code reads through loadConfig. */
function variablesRead(): string[] {
  const schemaKeys = Object.keys(configSchema.shape).filter((k) => k !== 'OAUTH_ENV')
  // Names loadConfig reads from env itself (fallbacks and aliases), e.g. env.SUPABASE_DB_URL.
  const aliases = [...configSource.matchAll(/\benv\.([A-Z][A-Z0-9_]+)/g)].map((m) => m[1]!)
  // OAUTH_* is collected whole (OAUTH_ENV); the integrations catalog reads these from it.
  const oauth = [
    ...catalog.flatMap((e) => (e.oauth ? [e.oauth.clientIdEnv, e.oauth.clientSecretEnv] : [])),
    ...(configSource.includes("startsWith('OAUTH_')") ? ['OAUTH_PROVIDERS_OVERRIDE'] : []),
  ]
  return [...new Set([...schemaKeys, ...aliases, ...oauth])].sort()
}

/** Variable names the secrets step mentions: in backticks, or assigned in its commands. */
function variablesNamed(text: string): string[] {
  const quoted = [...text.matchAll(/`([A-Z][A-Z0-9_]*[A-Z0-9])`/g)].map((m) => m[1]!)
  const assigned = [...text.matchAll(/^\s*(?:supabase secrets set\s+)?([A-Z][A-Z0-9_]+)=/gm)].map(
    (m) => m[1]!,
  )
  return [...new Set([...quoted, ...assigned])].sort()
}

describe('docs/deploy.md', () => {
  const secrets = section('2. Set the secrets')

  it('lists every variable the code reads in the secrets step', () => {
    const named = new Set(variablesNamed(secrets))
    expect(variablesRead().filter((v) => !named.has(v))).toEqual([])
  })

  it('names no variable the code does not read', () => {
    const read = new Set(variablesRead())
    expect(variablesNamed(secrets).filter((v) => !read.has(v))).toEqual([])
  })

  it('sets no secret whose name the CLI refuses (SUPABASE_*)', () => {
    const commands = [...secrets.matchAll(/```bash\n([\s\S]*?)```/g)].map((m) => m[1]!).join('\n')
    const set = [...commands.matchAll(/\b([A-Z][A-Z0-9_]+)=/g)].map((m) => m[1]!)
    expect(set.length).toBeGreaterThan(3)
    expect(set.filter((v) => v.startsWith('SUPABASE_'))).toEqual([])
  })

  it('keeps the steps in the order of a first deploy', () => {
    const steps = [...guide.matchAll(/^## (\d)\. /gm)].map((m) => Number(m[1]))
    expect(steps).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
  })

  it('gives each public route as proxy rewrites, and no others', () => {
    const rewrites = section('7. Put the proxy rewrites in front')
    const locations = [
      ...rewrites.matchAll(/^location (=\s+)?(\S+)\s+\{ proxy_pass https:\/\/<ref>\.supabase\.co(\S+); \}/gm),
    ].map((m) => `${m[1] ? '=' : ''}${m[2]} ${m[3]}`)
    const expected = publicRoutes.flatMap((r) => [
      `=${r.prefix} /functions/v1/${r.fn}${r.path}`,
      `${r.prefix}/ /functions/v1/${r.fn}${r.path}/`,
    ])
    expect(locations.sort()).toEqual(expected.sort())
  })
})

describe('docs/deploy.md: the media bucket', () => {
  it('names the settings the migration gives the bucket and the deploy check reads back', () => {
    const bucket = section('5. Apply the migrations')
    expect(bucket).toContain(`\`${mediaBucketSettings.id}\``)
    expect(bucket).toMatch(/Public bucket\s*\| off/)
    expect(bucket).toContain(`\`${mediaBucketSettings.file_size_limit}\` bytes`)
    for (const type of mediaBucketSettings.allowed_mime_types) expect(bucket).toContain(`\`${type}\``)
    const migration = readFileSync('migrations/20261208070000_media_storage.sql', 'utf8')
    expect(migration).toContain(`${mediaBucketSettings.file_size_limit},`)
    for (const type of mediaBucketSettings.allowed_mime_types) expect(migration).toContain(`'${type}'`)
  })
})
