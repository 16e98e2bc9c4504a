import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { scheduledJobs } from '../shared/infra/jobs/schedule.ts'
import { useCredential } from '../shared/services/credentials/use-credential.ts'
import { needsRealConcurrency } from './support/concurrency.ts'
import {
  addMember,
  startTestPlatform,
  TestClock,
  type TestPlatform,
  type TestTenant,
} from './support/platform.ts'

const DAY = 86_400_000
const HOUR = 3_600_000
const clock = new TestClock(new Date('2026-12-01T07:00:00.000Z'))
let tp: TestPlatform
let owner: TestTenant
let admin: TestTenant
let member: TestTenant
let other: TestTenant
let openai: string

beforeAll(async () => {
  // Two instances on one database, as on Supabase.
  tp = await startTestPlatform({ clock, instances: 2 })
  owner = await tp.createTenant()
  admin = await addMember(tp, owner.tenantId, 'admin')
  member = await addMember(tp, owner.tenantId, 'member')
  other = await tp.createTenant()
  const providers = (await tp.json('/api/providers?category=AI', { token: owner.token })).body.data as {
    id: string
    slug: string
  }[]
  openai = providers.find((p) => p.slug === 'openai')!.id
})
afterAll(() => tp.close())

async function create(t: TestTenant, name: string, expiresInMs: number | null) {
  const res = await tp.json('/api/credentials', {
    token: t.token,
    body: {
      provider_id: openai,
      name,
      environment: 'production',
      credential: `sk-${name}-0123456789abcdef`,
      scopes: [],
      ...(expiresInMs !== null && {
        expires_at: new Date(clock.now().getTime() + expiresInMs).toISOString(),
      }),
    },
  })
  expect(res.status).toBe(201)
  return res.body as { id: string; expires_at: string | null }
}

const runEverywhere = (times: number) =>
  Promise.all(
    Array.from({ length: times }, (_, i) =>
      tp.instances[i % 2]!.platform.runJob('credentials/jobs/expiry-alerts'),
    ),
  )

async function alerts() {
  return tp.db.sql<
    { recipient: string; subject: string; body: string; dedupe_key: string; tenant_id: string }[]
  >`
    select recipient, subject, body, dedupe_key, tenant_id from public.notifications
    where kind = 'credential.expiring' order by dedupe_key`
}

const alertsFor = (rows: Awaited<ReturnType<typeof alerts>>, id: string, threshold: string) =>
  rows
    .filter((r) => r.dedupe_key.startsWith(`credential-expiry:${id}:${threshold}:`))
    .map((r) => r.recipient)
    .sort()

describe('credential expiry alerts', () => {
  it('is scheduled daily (pg_cron in production, the local scheduler otherwise) and takes only the service key', async () => {
    expect(scheduledJobs).toContainEqual(
      expect.objectContaining({ path: 'credentials/jobs/expiry-alerts', cron: '0 7 * * *' }),
    )
    const asUser = await tp.json('/functions/v1/credentials/jobs/expiry-alerts', {
      token: owner.token,
      method: 'POST',
    })
    expect(asUser.status).toBe(401)
    expect(asUser.body.code).toBe('AUTH_REQUIRED')
    const asAnon = await tp.json('/functions/v1/credentials/jobs/expiry-alerts', {
      headers: { apikey: tp.anonKey },
      method: 'POST',
    })
    expect(asAnon.status).toBe(401)
  })

  it('alerts owners and admins 7 days and 1 day before expiry, once per threshold, even when runs overlap', async (ctx) => {
    needsRealConcurrency(ctx)
    const in10d = await create(owner, 'ten-days', 10 * DAY)
    const in5d = await create(owner, 'five-days', 5 * DAY)
    const in12h = await create(owner, 'twelve-hours', 12 * HOUR)
    await create(owner, 'no-expiry', null)
    const soonGone = await create(owner, 'expires-in-a-minute', 60_000)
    const otherTenant = await create(other, 'other-tenant', 3 * DAY)
    const admins = [owner.email, admin.email].sort()

    // Five runs at the same moment on two instances.
    const results = await Promise.all((await runEverywhere(5)).map((r) => r.json()))
    expect(results.map((r) => r.expiring)).toEqual([4, 4, 4, 4, 4])
    expect(results.reduce((sum, r) => sum + r.notified, 0)).toBe(2 + 2 + 2 + 1)
    let rows = await alerts()
    expect(rows).toHaveLength(7)
    expect(alertsFor(rows, in5d.id, '7d')).toEqual(admins)
    // First seen inside the last day: only the 1-day alert.
    expect(alertsFor(rows, in12h.id, '1d')).toEqual(admins)
    expect(alertsFor(rows, in12h.id, '7d')).toEqual([])
    expect(alertsFor(rows, soonGone.id, '1d')).toEqual(admins)
    expect(alertsFor(rows, in10d.id, '7d')).toEqual([])
    // Members are not alerted; the other tenant's owner only about its own credential.
    expect(rows.some((r) => r.recipient === member.email)).toBe(false)
    expect(alertsFor(rows, otherTenant.id, '7d')).toEqual([other.email])
    expect(rows.filter((r) => r.recipient === other.email)).toHaveLength(1)
    const five = rows.find((r) => r.dedupe_key.startsWith(`credential-expiry:${in5d.id}:7d:`))!
    expect(five.dedupe_key).toBe(`credential-expiry:${in5d.id}:7d:${in5d.expires_at}:${five.recipient}`)
    expect(five.subject).toBe('Credential "five-days" (OpenAI, production) expires in 5 days')
    expect(five.body).toContain('...abcdef')
    expect(five.body).not.toContain('sk-five-days-0123456789abcdef')

    // Four days later: ten-days reaches its 7-day mark, five-days its 1-day mark. Again overlapping runs.
    clock.advance(4 * DAY)
    await runEverywhere(4)
    rows = await alerts()
    expect(alertsFor(rows, in10d.id, '7d')).toEqual(admins)
    expect(alertsFor(rows, in5d.id, '1d')).toEqual(admins)
    expect(alertsFor(rows, in5d.id, '7d')).toEqual(admins)
    expect(rows).toHaveLength(11)

    // The next days bring only what is due: nothing twice.
    clock.advance(1 * DAY)
    await runEverywhere(2)
    expect(await alerts()).toHaveLength(11)
    clock.advance(4 * DAY + 12 * HOUR)
    await runEverywhere(2)
    rows = await alerts()
    expect(alertsFor(rows, in10d.id, '1d')).toEqual(admins)
    expect(rows).toHaveLength(13)
    clock.advance(2 * DAY)
    await runEverywhere(2)
    expect(await alerts()).toHaveLength(13)
  })

  it('re-arms the alerts when the expiry moves (rotation with a new expires_at)', async () => {
    const cred = await create(owner, 'renewed', 2 * DAY)
    await runEverywhere(2)
    expect(alertsFor(await alerts(), cred.id, '7d')).toHaveLength(2)
    const rotated = await tp.json(`/api/credentials/${cred.id}/rotate`, {
      token: owner.token,
      body: {
        credential: 'sk-renewed-new-secret-value',
        expires_at: new Date(clock.now().getTime() + 3 * DAY).toISOString(),
      },
    })
    expect(rotated.status).toBe(200)
    await runEverywhere(2)
    const keys = (await alerts())
      .filter((r) => r.dedupe_key.startsWith(`credential-expiry:${cred.id}:7d:`))
      .map((r) => r.dedupe_key)
    expect(keys).toHaveLength(4)
    expect(keys.some((k) => k.includes(rotated.body.expires_at))).toBe(true)
  })
})

describe('usage retention', () => {
  it('deletes usage records older than 90 days', async () => {
    const cred = await create(owner, 'retained', null)
    const deps = tp.instances[0]!.platform.deps
    const req = {
      tenantId: owner.tenantId,
      provider: 'openai',
      environment: 'production' as const,
      callerKind: 'automation' as const,
      functionName: 'f',
      name: 'retained',
    }
    await useCredential(deps, req)
    clock.advance(60 * DAY)
    await useCredential(deps, req)
    clock.advance(40 * DAY)
    const res = await tp.instances[1]!.platform.runJob('credentials/jobs/prune-usage')
    expect(await res.json()).toMatchObject({ deleted: 1 })
    const usage = await tp.json(`/api/credentials/${cred.id}/usage`, { token: member.token })
    expect(usage.body.data).toHaveLength(1)
  })
})
