// The database restarts under load. The test starts a PostgreSQL cluster of its
// own, runs two platform instances on it with requests in flight (keyed reads, writes that fire
// webhooks, commerce deliveries, jobs), stops the server and starts it again. While it is down
// every request answers 503 in the error body with retryAfter, within its time bound, never 500;
// once it is back both instances serve again without a restart, and no webhook event, commerce
// delivery or job is lost or done twice.
//
// It needs the server binaries (initdb, pg_ctl: PG_BIN_DIR or /usr/lib/postgresql/<v>/bin) and
// runs where DATABASE_URL is unset (the embedded pass of CI), since it brings its own server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CONNECT_TIMEOUT_SECONDS, isDatabaseUnavailable } from '../shared/infra/db.ts'
import { createJobEngine, enqueueJob } from '../shared/infra/jobs/engine.ts'
import { shopifyHeaders, shopifyOrder, storePath } from './support/commerce.ts'
import { startTestPlatform, type TestPlatform, type TestTenant } from './support/platform.ts'
import {
  findPostgresBinaries,
  startThrowawayPostgres,
  type ThrowawayPostgres,
} from './support/throwaway-postgres.ts'
import { startReceiver, type WebhookReceiver, waitFor } from './support/webhook-receiver.ts'

const binDir = await findPostgresBinaries()
const skipReason = !binDir
  ? 'no PostgreSQL server binaries (initdb, pg_ctl); set PG_BIN_DIR to run it'
  : process.env.DATABASE_URL || process.env.SHARED_TEST_DATABASE_URL
    ? 'it brings its own server; it runs in the pass without DATABASE_URL'
    : null
if (skipReason) console.warn(`tests/db-restart.test.ts skipped: ${skipReason}`)

/** A request's bound: past it the request counts as hung (the requirement is "a few seconds"). */
const REQUEST_BOUND_MS = 10_000
const DOMAIN = 'restart.myshopify.com'
// Deliveries go to the store's own address (docs/commerce.md).
let storeId: string
const SECRET = 'shpss_restart_secret'
const JOB_KIND = 'test.restart'

type Phase = 'up' | 'down' | 'back'
interface Answer {
  phase: Phase
  what: string
  status: number
  // biome-ignore lint/suspicious/noExplicitAny: the error body, checked field by field
  body: any
  retryAfterHeader: string | null
}

/** Real time, moved ahead at the end so leases and retry delays of work the outage interrupted fall due. */
class ShiftedClock {
  offsetMs = 0
  now(): Date {
    return new Date(Date.now() + this.offsetMs)
  }
}
const clock = new ShiftedClock()

let pg: ThrowawayPostgres
let tp: TestPlatform
let receiver: WebhookReceiver
let a: TestTenant
let key: string

beforeAll(async () => {
  if (skipReason) return
  pg = await startThrowawayPostgres(binDir!)
  receiver = await startReceiver()
  tp = await startTestPlatform({ instances: 2, clock, databaseServerUrl: pg.url })
  a = await tp.createTenant()
  await tp.db.sql`update public.tenants set plan = 'pro' where id = ${a.tenantId}`
  key = (
    await tp.json('/api/api-keys', {
      token: a.token,
      body: {
        name: 'load',
        environment: 'production',
        scopes: ['content:read', 'content:write'],
        rate_limit_per_minute: 1000,
      },
    })
  ).body.key
  const sub = await tp.json('/api/webhooks', {
    token: a.token,
    body: { url: receiver.url, events: ['site.created'] },
  })
  expect(sub.status).toBe(201)
  const store = await tp.json('/api/commerce/stores', {
    token: a.token,
    body: { platform: 'shopify', shop_domain: DOMAIN, name: 'Restart', secret: SECRET },
  })
  expect(store.status).toBe(201)
  storeId = store.body.id
}, 120_000)

afterAll(async () => {
  await tp?.close().catch(() => {})
  await receiver?.close()
  await pg?.destroy()
})

describe.skipIf(skipReason)('a database restart under load', () => {
  it('answers 503 with retryAfter while down, serves again within 5 s, and loses or repeats nothing', async () => {
    let phase: Phase = 'up'
    let loading = true
    const answers: Answer[] = []
    const hung: string[] = []

    // One request with its bound; the answer is recorded under the phase it was sent in.
    const send = async (what: string, path: string, init: RequestInit & { instance: number }) => {
      const sentIn = phase
      try {
        const res = await fetch(`${tp.instances[init.instance]!.baseUrl}${path}`, {
          ...init,
          signal: AbortSignal.timeout(REQUEST_BOUND_MS),
        })
        const text = await res.text()
        const answer: Answer = {
          phase: sentIn,
          what,
          status: res.status,
          body: text ? JSON.parse(text) : undefined,
          retryAfterHeader: res.headers.get('retry-after'),
        }
        answers.push(answer)
        return answer
      } catch (err) {
        hung.push(`${what} (${sentIn}): ${String(err)}`)
        return undefined
      }
    }
    const pause = () => new Promise((r) => setTimeout(r, 20))

    // Keyed reads on both instances.
    const reads = (async () => {
      for (let n = 0; loading; n++) {
        await send('read', '/v1/content', { instance: n % 2, headers: { authorization: `Bearer ${key}` } })
        await pause()
      }
    })()
    // Writes that fire a webhook event each (site.created).
    const createdSites: string[] = []
    const writes = (async () => {
      for (let n = 0; loading; n++) {
        const answer = await send('write', '/v1/content/sites', {
          instance: n % 2,
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name: `Site ${n}` }),
        })
        if (answer?.status === 201) createdSites.push(answer.body.id)
        await pause()
      }
    })()
    // Commerce deliveries, each sent again (same webhook id) until answered 2xx, as Shopify does.
    const acceptedOrders: string[] = []
    const deliveries = (async () => {
      for (let n = 0; loading; n++) {
        const orderId = String(9_100_000_000 + n)
        const body = shopifyOrder({ id: orderId, updatedAt: '2026-11-01T00:00:00Z' })
        const headers = shopifyHeaders({
          domain: DOMAIN,
          secret: SECRET,
          topic: 'orders/create',
          body,
          webhookId: `restart-${n}`,
        })
        for (let attempt = 0; ; attempt++) {
          const answer = await send('delivery', storePath(storeId), {
            instance: (n + attempt) % 2,
            method: 'POST',
            headers,
            body,
          })
          if (answer && answer.status < 300) break
          await pause()
        }
        acceptedOrders.push(orderId)
      }
    })()

    // Jobs claimed before the stop whose handlers finish while the server is down.
    const runs = new Map<string, number>()
    let releaseJobs!: () => void
    const jobGate = new Promise<void>((r) => {
      releaseJobs = r
    })
    const engine = createJobEngine(tp.instances[0]!.platform.deps, {
      [JOB_KIND]: {
        handler: async ({ job }) => {
          runs.set(job.id, (runs.get(job.id) ?? 0) + 1)
          await jobGate
          return 'done'
        },
      },
    })
    const jobs = await Promise.all(
      Array.from({ length: 5 }, (_, n) =>
        enqueueJob(tp.db.sql, { tenantId: a.tenantId, kind: JOB_KIND, input: { n }, now: new Date() }),
      ),
    )
    // The sweep's next claim may meet the outage (it then fails, as a sweep does); the claimed
    // jobs' outcomes are written before it.
    const jobRun = engine.runDue().then(
      () => null,
      (err: unknown) => err,
    )
    await waitFor(() => runs.size === jobs.length, 10_000, 'the jobs to start')

    const served = (what: string) => answers.filter((x) => x.what === what && x.status < 300).length
    await waitFor(
      () => served('read') >= 10 && served('write') >= 10 && served('delivery') >= 5,
      20_000,
      'load',
    )

    // Down: fast shutdown ends every connection of both instances.
    await pg.stop('fast')
    phase = 'down'
    releaseJobs()
    const downAnswers = () => answers.filter((x) => x.phase === 'down')
    await waitFor(
      () => ['read', 'write', 'delivery'].every((w) => downAnswers().some((x) => x.what === w)),
      20_000,
      'answers while down',
    )

    // Back: the same server, same port. Each instance must serve a keyed read again by itself.
    await pg.start()
    const backAt = performance.now()
    phase = 'back'
    const servedAgainMs: number[] = []
    const probes: string[] = []
    for (const instance of [0, 1]) {
      for (;;) {
        const sentAt = performance.now()
        const answer = await send('probe', '/v1/content', {
          instance,
          headers: { authorization: `Bearer ${key}` },
        })
        probes.push(`${instance}:${answer?.status ?? 'none'} in ${Math.round(performance.now() - sentAt)} ms`)
        if (answer?.status === 200) break
        await pause()
      }
      servedAgainMs.push(performance.now() - backAt)
    }
    const servedBefore = { write: served('write'), delivery: served('delivery') }
    await waitFor(
      () => served('write') >= servedBefore.write + 5 && served('delivery') >= servedBefore.delivery + 5,
      20_000,
      'load after the restart',
    )
    loading = false
    await Promise.all([reads, writes, deliveries])
    const sweepError = await jobRun
    if (sweepError) expect(isDatabaseUnavailable(sweepError), String(sweepError)).toBe(true)

    // Everything still queued goes out: webhook attempts and commerce processing. Work the
    // outage interrupted waits for its lease (60 s) or its retry (1 min): two hours on, all is due.
    // First the attempts in flight finish (moving the clock past their live leases would send
    // them again): no lease held, or a few seconds for a claim whose answer the outage lost.
    const sql = tp.db.sql
    await waitFor(
      async () => {
        const [row] = await sql<{ leased: number }[]>`
          select (select count(*) from public.webhook_deliveries where lease_id is not null)
               + (select count(*) from public.commerce_deliveries where lease_id is not null and status = 'pending')
                 as leased`
        return Number(row!.leased) === 0
      },
      5_000,
      'the attempts in flight',
    ).catch(() => {})
    clock.offsetMs += 2 * 60 * 60_000
    const platform = tp.instances[0]!.platform
    await waitFor(
      async () => {
        await platform.runJob('webhooks/jobs/dispatch')
        const [row] = await sql<{ pending: number }[]>`
          select count(*)::int as pending from public.webhook_deliveries where status <> 'succeeded'`
        return row!.pending === 0
      },
      30_000,
      'every webhook delivery to succeed',
    )
    await waitFor(
      async () => {
        await platform.runJob('commerce-webhook/jobs/process')
        const [row] = await sql<{ pending: number }[]>`
          select count(*)::int as pending from public.commerce_deliveries where status <> 'processed'`
        return row!.pending === 0
      },
      30_000,
      'every commerce delivery to be processed',
    )

    const count503 = answers.filter((x) => x.status === 503).length
    console.info(
      `db restart: served again after ${servedAgainMs.map((ms) => `${Math.round(ms)} ms`).join(' and ')} ` +
        `(instances 0 and 1); ${answers.length} answers, ${count503} of them 503; ${receiver.received.length} ` +
        `webhook deliveries for ${createdSites.length} sites created with 201; ${acceptedOrders.length} commerce deliveries`,
    )

    // No request hung, none answered 500; every failure was the 503 body with retryAfter.
    expect(hung).toEqual([])
    expect(answers.filter((x) => x.status >= 500 && x.status !== 503)).toEqual([])
    const failures = answers.filter((x) => x.status >= 300)
    expect(failures.length).toBeGreaterThan(0)
    for (const f of failures) {
      expect(f.status, JSON.stringify(f)).toBe(503)
      expect(f.body).toEqual({
        error: 'Service Unavailable',
        code: 'SERVICE_UNAVAILABLE',
        message: expect.any(String),
        retryAfter: 2,
      })
      expect(f.retryAfterHeader).toBe('2')
    }
    // While down (a request sent just before the restart may be served after it), each kind failed.
    for (const what of ['read', 'write', 'delivery'])
      expect(
        downAnswers().some((x) => x.what === what && x.status === 503),
        what,
      ).toBe(true)
    // Serving again by itself, without a restart of ours, within the bound of one wait for a
    // connection and a retry. Usually 0.1 to 0.8 s; on a loaded 2-core machine one reservation
    // has been seen to wait out the whole bound in postgres.js's reconnect loop (5.2 s in CI), so
    // the bound here is that wait plus 3 s (docs/adr/0011-database-faults.md).
    for (const ms of servedAgainMs)
      expect(ms, `probes after the restart: ${probes.join(', ')}`).toBeLessThan(
        CONNECT_TIMEOUT_SECONDS * 1000 + 3000,
      )

    // Webhooks: every site.created event in the outbox (also of a write whose answer was lost)
    // reached the receiver exactly once; every site answered 201 has its event.
    const eventIds = receiver.received.map((r) => r.body.id as string)
    expect(new Set(eventIds).size).toBe(eventIds.length)
    const outbox = await sql<{ id: string }[]>`
      select id from public.event_outbox where tenant_id = ${a.tenantId} and type = 'site.created'`
    expect(eventIds.sort()).toEqual(outbox.map((e) => e.id).sort())
    const deliveredSites = new Set(receiver.received.map((r) => r.body.data.site_id as string))
    for (const id of createdSites) expect(deliveredSites.has(id), id).toBe(true)

    // Commerce: each delivery stored once and applied; one order each.
    const stored = await sql<{ webhook_id: string; status: string; outcome: string }[]>`
      select webhook_id, status, outcome from public.commerce_deliveries where tenant_id = ${a.tenantId}`
    expect(stored.length).toBeGreaterThanOrEqual(acceptedOrders.length)
    expect(stored.every((d) => d.status === 'processed' && d.outcome === 'applied')).toBe(true)
    const orders = await sql<{ external_id: string; n: number }[]>`
      select external_id, count(*)::int as n from public.commerce_orders where tenant_id = ${a.tenantId}
      group by external_id`
    expect(orders.every((o) => o.n === 1)).toBe(true)
    for (const id of acceptedOrders)
      expect(
        orders.some((o) => o.external_id === id),
        id,
      ).toBe(true)

    // Jobs: each ran once and its outcome, written while the server was down, was kept.
    expect([...runs.values()]).toEqual(jobs.map(() => 1))
    const rows = await sql<{ status: string; attempts: number }[]>`
      select status, attempts from public.jobs where kind = ${JOB_KIND}`
    expect(rows).toEqual(jobs.map(() => ({ status: 'succeeded', attempts: 1 })))
  }, 180_000)
})
