// Scheduled publishing across instances (docs/content.md): two platform instances on one
// PostgreSQL database run the publish-scheduled job at the same moments, directly and through
// PgBouncer in transaction mode; every due article is published once, with one content.published,
// and every article whose unpublish_at has come is unpublished once, with one content.unpublished.
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { chmod, mkdtemp, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { needsRealConcurrency, onPostgres } from './support/concurrency.ts'
import { startTestPlatform, TestClock, type TestPlatform } from './support/platform.ts'

const run = promisify(execFile)
/** Transaction poolers listen on 6543 (Supabase's convention, which the platform reads as "no prepared statements"). */
const POOLER_PORT = 6543

const portFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = createServer()
      .once('error', () => resolve(false))
      .listen(port, '127.0.0.1', () => s.close(() => resolve(true)))
  })

/** PgBouncer in transaction mode on POOLER_PORT in front of DATABASE_URL's server, any database. */
async function startPgBouncer(serverUrl: string): Promise<ChildProcess> {
  const server = new URL(serverUrl)
  const dir = await mkdtemp(join(tmpdir(), 'pgbouncer-'))
  await chmod(dir, 0o777)
  const ini = join(dir, 'pgbouncer.ini')
  await writeFile(
    ini,
    `[databases]\n* = host=${server.hostname} port=${server.port || 5432} user=${server.username || 'postgres'}\n` +
      `[pgbouncer]\nlisten_addr = 127.0.0.1\nlisten_port = ${POOLER_PORT}\nauth_type = any\npool_mode = transaction\n` +
      `max_client_conn = 200\ndefault_pool_size = 10\nunix_socket_dir =\nignore_startup_parameters = extra_float_digits,options\n`,
  )
  await chmod(ini, 0o644)
  const asRoot = process.getuid?.() === 0
  const child = asRoot
    ? spawn('runuser', ['-u', 'postgres', '--', 'pgbouncer', ini], { stdio: 'ignore' })
    : spawn('pgbouncer', [ini], { stdio: 'ignore' })
  for (let i = 0; i < 50 && (await portFree(POOLER_PORT)); i++) await new Promise((r) => setTimeout(r, 100))
  return child
}

const hasPgBouncer = await run('pgbouncer', ['--version']).then(
  () => true,
  () => false,
)

let tp: TestPlatform | undefined
let bouncer: ChildProcess | undefined
afterAll(async () => {
  await tp?.close()
  bouncer?.kill()
})

async function scheduleAndRace(platform: TestPlatform, clock: TestClock) {
  const t = await platform.createTenant()
  const token = t.token
  const site = (await platform.json('/v1/content/sites', { token, body: { name: 'Race' } })).body
  const publishAt = new Date(clock.now().getTime() + 30_000).toISOString()
  const ids: string[] = []
  for (let i = 0; i < 30; i++) {
    const art = (
      await platform.json('/v1/content/articles', { token, body: { site_id: site.id, title: `Due ${i}` } })
    ).body
    const res = await platform.json(`/v1/content/articles/${art.id}/schedule`, {
      token,
      body: { publish_at: publishAt },
    })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    ids.push(art.id)
  }
  clock.advance(60_000)
  // Both instances, several times each, at once.
  const runs = await Promise.all(
    [0, 1, 0, 1, 0, 1].map((instance) =>
      platform
        .json('/functions/v1/content/jobs/publish-scheduled', {
          method: 'POST',
          headers: { apikey: platform.serviceRoleKey },
          instance,
        })
        .then((r) => {
          expect(r.status).toBe(200)
          return r.body.published as number
        }),
    ),
  )
  expect(runs.reduce((s, n) => s + n, 0)).toBe(30)
  const events = await platform.db.sql<{ article_id: string }[]>`
    select data ->> 'article_id' as article_id from public.event_outbox
    where tenant_id = ${t.tenantId} and type = 'content.published'`
  expect(events.map((e) => e.article_id).sort()).toEqual([...ids].sort())
  const statuses = await platform.db.sql<{ status: string; published_at: Date }[]>`
    select status, published_at from public.articles where id = any (${ids})`
  for (const s of statuses) {
    expect(s.status).toBe('published')
    expect(s.published_at.toISOString()).toBe(publishAt)
  }
}

/**
 * Thirty published articles with an unpublish_at that comes while the clock moves; both instances
 * run the job at once, several times: each is unpublished once, with one content.unpublished.
 */
async function unpublishAndRace(platform: TestPlatform, clock: TestClock) {
  const t = await platform.createTenant()
  const token = t.token
  const site = (await platform.json('/v1/content/sites', { token, body: { name: 'Window' } })).body
  const unpublishAt = new Date(clock.now().getTime() + 30_000).toISOString()
  const ids: string[] = []
  for (let i = 0; i < 30; i++) {
    const art = (
      await platform.json('/v1/content/articles', { token, body: { site_id: site.id, title: `Until ${i}` } })
    ).body
    await platform.json(`/v1/content/articles/${art.id}/publish`, { method: 'POST', token })
    const res = await platform.json(`/v1/content/articles/${art.id}`, {
      method: 'PATCH',
      token,
      body: { unpublish_at: unpublishAt },
    })
    expect([res.status, res.body.unpublish_at], JSON.stringify(res.body)).toEqual([200, unpublishAt])
    ids.push(art.id)
  }
  clock.advance(60_000)
  const runs = await Promise.all(
    [0, 1, 0, 1, 0, 1].map((instance) =>
      platform
        .json('/functions/v1/content/jobs/publish-scheduled', {
          method: 'POST',
          headers: { apikey: platform.serviceRoleKey },
          instance,
        })
        .then((r) => {
          expect(r.status).toBe(200)
          return r.body.unpublished as number
        }),
    ),
  )
  expect(runs.reduce((s, n) => s + n, 0)).toBe(30)
  const events = await platform.db.sql<{ article_id: string; previous_status: string }[]>`
    select data ->> 'article_id' as article_id, data ->> 'previous_status' as previous_status
    from public.event_outbox where tenant_id = ${t.tenantId} and type = 'content.unpublished'`
  expect(events.map((e) => e.article_id).sort()).toEqual([...ids].sort())
  expect(new Set(events.map((e) => e.previous_status))).toEqual(new Set(['published']))
  const rows = await platform.db.sql<{ status: string; unpublish_at: Date | null }[]>`
    select status, unpublish_at from public.articles where id = any (${ids})`
  for (const r of rows) expect([r.status, r.unpublish_at]).toEqual(['draft', null])
}

describe('publish-scheduled across instances', () => {
  it('publishes each due article once, with one event, when two instances run the job at once', async (ctx) => {
    needsRealConcurrency(ctx)
    const clock = new TestClock(new Date())
    const platform = await startTestPlatform({ instances: 2, clock })
    try {
      await scheduleAndRace(platform, clock)
      await unpublishAndRace(platform, clock)
    } finally {
      await platform.close()
    }
  }, 120_000)

  it('does the same through PgBouncer in transaction mode', async (ctx) => {
    needsRealConcurrency(ctx)
    ctx.skip(!hasPgBouncer, 'pgbouncer is not installed')
    ctx.skip(!(await portFree(POOLER_PORT)), `port ${POOLER_PORT} is taken (another pooler)`)
    const direct = new URL(process.env.DATABASE_URL!)
    bouncer = await startPgBouncer(direct.toString())
    const pooled = new URL(direct)
    pooled.port = String(POOLER_PORT)
    const clock = new TestClock(new Date())
    tp = await startTestPlatform({ instances: 2, clock, databaseServerUrl: pooled.toString() })
    expect(new URL(tp.db.url).port).toBe(String(POOLER_PORT))
    await scheduleAndRace(tp, clock)
    await unpublishAndRace(tp, clock)
  }, 180_000)
})

if (!onPostgres) console.warn('tests/content-scheduler.test.ts: PostgreSQL only (DATABASE_URL)')
