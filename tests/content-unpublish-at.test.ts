// unpublish_at (docs/content.md): bad input names the field and writes nothing; a scheduled
// window goes live and comes down through the publish-scheduled job, each with its one event.
// The race of two instances on PostgreSQL is tests/content-scheduler.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  addMember,
  startTestPlatform,
  TestClock,
  type TestPlatform,
  type TestTenant,
} from './support/platform.ts'
import { outbox } from './support/tenancy.ts'

let tp: TestPlatform
let t: TestTenant
let siteId: string
const clock = new TestClock(new Date('2026-12-01T09:00:00Z'))
const at = (minutes: number) => new Date(clock.now().getTime() + minutes * 60_000).toISOString()

beforeAll(async () => {
  tp = await startTestPlatform({ clock })
  t = await tp.createTenant()
  await tp.db.sql`update public.tenants set plan = 'pro' where id = ${t.tenantId}`
  siteId = (await tp.json('/v1/content/sites', { token: t.token, body: { name: 'Window' } })).body.id
})
afterAll(() => tp?.close())

async function draft(title: string, token = t.token) {
  const res = await tp.json('/v1/content/articles', { token, body: { site_id: siteId, title } })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body.id as string
}
const read = async (id: string) => (await tp.json(`/v1/content/articles/${id}`, { token: t.token })).body
const runJob = async () =>
  (
    await tp.json('/functions/v1/content/jobs/publish-scheduled', {
      method: 'POST',
      headers: { apikey: tp.serviceRoleKey },
    })
  ).body as { published: number; unpublished: number }

describe('unpublish_at: bad input', () => {
  it('refuses an unpublish_at before publish_at, or in the past, naming the field, and writes nothing', async () => {
    const id = await draft('Scheduled')
    const scheduled = await tp.json(`/v1/content/articles/${id}/schedule`, {
      token: t.token,
      body: { publish_at: at(120) },
    })
    expect(scheduled.status).toBe(200)
    const before = await read(id)
    for (const body of [
      { title: 'Renamed', unpublish_at: at(60) },
      { title: 'Renamed', unpublish_at: at(120) },
      { title: 'Renamed', unpublish_at: at(-1) },
    ]) {
      const res = await tp.json(`/v1/content/articles/${id}`, { method: 'PATCH', token: t.token, body })
      expect([res.status, res.body.code, res.body.details?.[0]?.field], JSON.stringify(body)).toEqual([
        400,
        'VALIDATION_ERROR',
        'unpublish_at',
      ])
    }
    expect(await read(id)).toEqual(before)
    const badSchedule = await tp.json(`/v1/content/articles/${id}/schedule`, {
      token: t.token,
      body: { publish_at: at(300), unpublish_at: at(200) },
    })
    expect([badSchedule.status, badSchedule.body.details?.[0]?.field]).toEqual([400, 'unpublish_at'])
    expect(await read(id)).toEqual(before)
    const malformed = await tp.json(`/v1/content/articles/${id}`, {
      method: 'PATCH',
      token: t.token,
      body: { unpublish_at: 'next tuesday' },
    })
    expect([malformed.status, malformed.body.details?.[0]?.field]).toEqual([400, 'unpublish_at'])
  })

  it('keeps an unpublish_at after a new publish_at: moving publish_at past it is refused, naming publish_at', async () => {
    const id = await draft('Window kept')
    const ok = await tp.json(`/v1/content/articles/${id}/schedule`, {
      token: t.token,
      body: { publish_at: at(60), unpublish_at: at(120) },
    })
    expect([ok.status, ok.body.publish_at, ok.body.unpublish_at]).toEqual([200, at(60), at(120)])
    const moved = await tp.json(`/v1/content/articles/${id}/schedule`, {
      token: t.token,
      body: { publish_at: at(180) },
    })
    expect([moved.status, moved.body.details?.[0]?.field]).toEqual([400, 'publish_at'])
    expect((await read(id)).publish_at).toBe(at(60))
  })

  it('is an editor’s call: a contributor setting it on its own draft is refused (403)', async () => {
    const contributor = await addMember(tp, t.tenantId, 'contributor')
    const id = await draft('Mine', contributor.token)
    const res = await tp.json(`/v1/content/articles/${id}`, {
      method: 'PATCH',
      token: contributor.token,
      body: { unpublish_at: at(60) },
    })
    expect([res.status, res.body.code]).toEqual([403, 'INSUFFICIENT_PERMISSIONS'])
  })
})

describe('unpublish_at: the job', () => {
  it('publishes a scheduled window at publish_at and unpublishes it at unpublish_at, one event each', async () => {
    const id = await draft('Sale weekend')
    await tp.json(`/v1/content/articles/${id}/schedule`, {
      token: t.token,
      body: { publish_at: at(10), unpublish_at: at(20) },
    })
    clock.advance(11 * 60_000)
    expect(await runJob()).toEqual({ published: 1, unpublished: 0 })
    expect((await read(id)).status).toBe('published')
    expect((await read(id)).unpublish_at).toBe(at(9))
    clock.advance(10 * 60_000)
    expect(await runJob()).toEqual({ published: 0, unpublished: 1 })
    expect(await runJob()).toEqual({ published: 0, unpublished: 0 })
    const after = await read(id)
    expect([after.status, after.published_at, after.unpublish_at]).toEqual(['draft', null, null])
    const events = (await outbox(tp, t.tenantId)).filter(
      (e) => e.data.article_id === id && ['content.published', 'content.unpublished'].includes(e.type),
    )
    expect(events.map((e) => e.type)).toEqual(['content.published', 'content.unpublished'])
    expect(events[1]!.data).toMatchObject({ previous_status: 'published', slug: 'sale-weekend' })
  })

  it('clears unpublish_at when an editor unpublishes by hand, and with null', async () => {
    const id = await draft('By hand')
    await tp.json(`/v1/content/articles/${id}/publish`, { method: 'POST', token: t.token })
    const set = await tp.json(`/v1/content/articles/${id}`, {
      method: 'PATCH',
      token: t.token,
      body: { unpublish_at: at(60) },
    })
    expect([set.status, set.body.unpublish_at, set.body.revision_id]).toEqual([
      200,
      at(60),
      (await read(id)).revision_id,
    ])
    const cleared = await tp.json(`/v1/content/articles/${id}`, {
      method: 'PATCH',
      token: t.token,
      body: { unpublish_at: null },
    })
    expect(cleared.body.unpublish_at).toBeNull()
    await tp.json(`/v1/content/articles/${id}`, {
      method: 'PATCH',
      token: t.token,
      body: { unpublish_at: at(60) },
    })
    await tp.json(`/v1/content/articles/${id}/unpublish`, { method: 'POST', token: t.token })
    expect((await read(id)).unpublish_at).toBeNull()
  })
})
