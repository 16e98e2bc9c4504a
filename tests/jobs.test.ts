import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withTenant } from '../shared/infra/db.ts'
import { createJobEngine, enqueueJob, JobError, type JobHandler } from '../shared/infra/jobs/engine.ts'
import { needsRealConcurrency } from './support/concurrency.ts'
import {
  setupTimeout,
  startTestPlatform,
  TestClock,
  type TestPlatform,
  type TestTenant,
} from './support/platform.ts'

/**
 * The job engine over the real database, with two platform instances (two connection pools)
 * standing for two function instances.
 */
let tp: TestPlatform
let a: TestTenant
let b: TestTenant
const clock = new TestClock()

beforeAll(async () => {
  tp = await startTestPlatform({ instances: 2, clock })
  a = await tp.createTenant()
  b = await tp.createTenant()
}, setupTimeout())
afterAll(() => tp?.close())

const deps = (i: number) => tp.instances[i]!.platform.deps
const engines = (kind: string, handler: JobHandler, leaseSeconds?: number) =>
  [0, 1].map((i) => createJobEngine(deps(i), { [kind]: { handler, leaseSeconds } }, { random: () => 0 }))
const enqueue = (kind: string, input: Record<string, unknown> = {}, maxAttempts?: number) =>
  enqueueJob(tp.db.sql, { tenantId: a.tenantId, kind, input, maxAttempts, now: clock.now() })
const jobRow = async (id: string) => (await tp.db.sql`select * from public.jobs where id = ${id}`)[0]!
/** The tenant's job.failed events of one job (the webhook event a subscriber receives). */
const failedEvents = async (id: string) =>
  (
    await tp.db.sql<{ tenant_id: string; data: Record<string, unknown> }[]>`
      select tenant_id, data from public.event_outbox where type = 'job.failed' and data->>'job_id' = ${id}`
  ).map((e) => ({ tenant_id: e.tenant_id, ...e.data }))

describe('job engine', () => {
  it('runs a job claimed from two instances at once exactly once', async (ctx) => {
    needsRealConcurrency(ctx)
    let runs = 0
    const [one, two] = engines('test.once', async ({ job }) => {
      runs++
      await new Promise((r) => setTimeout(r, 50))
      return { echoed: job.input.n as number }
    })
    const jobs = await Promise.all(Array.from({ length: 6 }, (_, n) => enqueue('test.once', { n })))
    const reports = await Promise.all([one!.runDue(), two!.runDue(), one!.runDue(), two!.runDue()])
    expect(runs).toBe(6)
    expect(reports.reduce((s, r) => s + r.succeeded, 0)).toBe(6)
    for (const [n, job] of jobs.entries()) {
      const row = await jobRow(job.id)
      expect([row.status, row.attempts, row.result]).toEqual(['succeeded', 1, { echoed: n }])
      expect(row.finished_at).toBeInstanceOf(Date)
    }
  })

  it('retries a transient failure with exponential backoff, then succeeds', async () => {
    let calls = 0
    const [engine] = engines('test.flaky', async () => {
      calls++
      if (calls < 3) throw new JobError(`provider answered 503 (call ${calls})`, { transient: true })
      return 'done'
    })
    const job = await enqueue('test.flaky')
    expect(await engine!.runDue()).toEqual({ succeeded: 0, failed: 0, retried: 1 })
    let row = await jobRow(job.id)
    expect([row.status, row.attempts, row.error]).toEqual(['queued', 1, 'provider answered 503 (call 1)'])
    expect(row.run_after.getTime() - clock.now().getTime()).toBe(2000)
    // Not due yet: nothing runs.
    expect((await engine!.runDue()).retried).toBe(0)
    clock.advance(2000)
    await engine!.runDue()
    row = await jobRow(job.id)
    expect(row.run_after.getTime() - clock.now().getTime()).toBe(4000) // doubled
    clock.advance(4000)
    await engine!.runDue()
    row = await jobRow(job.id)
    expect([row.status, row.attempts, row.result, row.error]).toEqual(['succeeded', 3, 'done', null])
  })

  it('fails at once on a permanent error, and after max_attempts on transient ones', async () => {
    const [permanent] = engines('test.bad', async () => {
      throw new JobError('feed answered 404 Not Found')
    })
    const bad = await enqueue('test.bad')
    expect(await permanent!.runDue()).toEqual({ succeeded: 0, failed: 1, retried: 0 })
    expect(await jobRow(bad.id)).toMatchObject({
      status: 'failed',
      attempts: 1,
      error: 'feed answered 404 Not Found',
    })

    const [transient] = engines('test.down', async () => {
      throw new JobError('time-out', { transient: true })
    })
    const down = await enqueue('test.down', {}, 2)
    await transient!.runDue()
    clock.advance(60_000)
    await transient!.runDue()
    expect(await jobRow(down.id)).toMatchObject({ status: 'failed', attempts: 2, error: 'time-out' })

    // Each failed for good once, with one job.failed event for the tenant; a retried attempt has none.
    expect(await failedEvents(bad.id)).toEqual([
      {
        tenant_id: a.tenantId,
        job_id: bad.id,
        kind: 'test.bad',
        attempts: 1,
        max_attempts: 5,
        reason: 'permanent_error',
        error: 'feed answered 404 Not Found',
        failed_at: expect.any(String),
      },
    ])
    expect(await failedEvents(down.id)).toEqual([
      expect.objectContaining({
        attempts: 2,
        max_attempts: 2,
        reason: 'retries_exhausted',
        error: 'time-out',
      }),
    ])
  })

  it('takes over a job whose lease ran out, and the stale worker cannot overwrite the outcome', async () => {
    let release!: (v: string) => void
    const gate = new Promise<string>((r) => (release = r))
    let attempt = 0
    const [one, two] = engines(
      'test.lease',
      async () => {
        attempt++
        return attempt === 1 ? await gate : 'second'
      },
      30,
    )
    const job = await enqueue('test.lease')
    const stale = one!.runDue()
    await expect.poll(async () => (await jobRow(job.id)).status).toBe('running')
    // Within the lease, nobody else takes it.
    expect((await two!.runDue()).succeeded).toBe(0)
    clock.advance(31_000)
    expect((await two!.runDue()).succeeded).toBe(1)
    release('first (stale)')
    await stale
    expect(await jobRow(job.id)).toMatchObject({ status: 'succeeded', attempts: 2, result: 'second' })
  })

  it('fails a job whose worker died on every attempt (the sweep finds it)', async () => {
    const [engine] = engines('test.crash', async () => 'never')
    const job = await enqueue('test.crash', {}, 1)
    await tp.db
      .sql`update public.jobs set status = 'running', attempts = 1, lease_until = ${clock.now()} where id = ${job.id}`
    clock.advance(1000)
    expect((await engine!.runDue()).failed).toBe(1)
    expect((await jobRow(job.id)).error).toMatch(/stopped without finishing 1 times/)
    expect(await failedEvents(job.id)).toEqual([
      expect.objectContaining({ kind: 'test.crash', reason: 'stalled', attempts: 1, max_attempts: 1 }),
    ])
  })

  it('kicks a job in process after enqueueing', async () => {
    const [engine] = engines('test.kick', async () => 42)
    const job = await enqueue('test.kick')
    engine!.kick([job.id])
    await engine!.idle()
    expect(await jobRow(job.id)).toMatchObject({ status: 'succeeded', result: 42 })
  })

  it("queues only for the caller's own tenant in a tenant transaction", async () => {
    const claims = { sub: a.userId, role: 'authenticated' as const, app_metadata: { tenant_id: a.tenantId } }
    const own = await withTenant(tp.db.sql, claims, (tx) =>
      enqueueJob(tx, { tenantId: a.tenantId, kind: 'test.own', input: {}, now: clock.now() }),
    )
    expect(own.created_by).toBe(a.userId)
    await expect(
      withTenant(tp.db.sql, claims, (tx) =>
        enqueueJob(tx, { tenantId: b.tenantId, kind: 'test.own', input: {}, now: clock.now() }),
      ),
    ).rejects.toThrow(/not a member/)
  })
})

describe('GET /api/jobs', () => {
  it("lists and gets the tenant's own jobs, never another tenant's", async () => {
    const job = await enqueue('test.visible', { hello: 'world' })
    const list = await tp.json('/api/jobs?kind=test.visible', { token: a.token })
    expect(list.status).toBe(200)
    expect(list.body.data.map((j: { id: string }) => j.id)).toEqual([job.id])
    const one = await tp.json(`/api/jobs/${job.id}`, { token: a.token })
    expect(one.status).toBe(200)
    expect(one.body).toMatchObject({
      id: job.id,
      kind: 'test.visible',
      status: 'queued',
      input: { hello: 'world' },
    })
    expect((await tp.json(`/api/jobs/${job.id}`, { token: b.token })).status).toBe(404)
    expect((await tp.json('/api/jobs', { token: b.token })).body.data).toEqual([])
    expect((await tp.json('/api/jobs?status=bogus', { token: a.token })).status).toBe(400)
  })
})

describe('GET /api/jobs?kind=a,b', () => {
  it('lists the jobs of any of several kinds, and refuses a kind list it cannot read', async () => {
    const [scrape, article] = [await enqueue('test.scrape'), await enqueue('test.article')]
    await enqueue('test.turn')
    const list = await tp.json('/api/jobs?kind=test.scrape,test.article', { token: a.token })
    expect(list.status).toBe(200)
    expect(list.body.data.map((j: { id: string }) => j.id).sort()).toEqual([scrape.id, article.id].sort())
    const refused = await tp.json('/api/jobs?kind=test.scrape,,x', { token: a.token })
    expect(refused.status).toBe(400)
    expect(refused.body).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'kind' }] })
    const tooMany = Array.from({ length: 11 }, (_, i) => `k${i}`).join(',')
    expect((await tp.json(`/api/jobs?kind=${tooMany}`, { token: a.token })).status).toBe(400)
  })
})
