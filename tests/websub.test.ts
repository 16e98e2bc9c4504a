import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestPlatform, type TestPlatform, type TestTenant } from './support/platform.ts'
import { waitFor } from './support/webhook-receiver.ts'
import { startWebsubHub, type WebsubHub } from './support/websub-hub.ts'

/**
 * WebSub push for feed sources over real HTTP (issue 47): a feed that names a hub is subscribed
 * to when it is connected, the hub verifies intent at the callback, and what it pushes (signed) is
 * ingested as a fetch would be, with one source.items_added event for what is new, in well under
 * a second. A forged signature, a wrong callback token and an unknown topic change nothing; the
 * renewal runs when its job is due; deleting the source unsubscribes it.
 */

/** The callback's public origin (PUBLIC_URL); the hub reaches it where the platform listens. */
const PUBLIC_ORIGIN = 'http://platform.invalid'
/** What the hub grants (it may grant less than asked): renewal is due at 80% of it. */
const LEASE = 600

let tp: TestPlatform
let hub: WebsubHub
let t: TestTenant
let sourceId = ''
let subscriptionId = ''

const sql = () => tp.db.sql
const itemsAdded = async () =>
  sql()<{ data: { source_id: string; item_ids: string[] }; created_at: Date }[]>`
    select data, created_at from public.event_outbox
    where tenant_id = ${t.tenantId} and type = 'source.items_added' order by created_at`
const itemGuids = async () =>
  (
    await sql()<{ external_id: string }[]>`
      select external_id from public.source_items where source_id = ${sourceId} order by external_id`
  ).map((r) => r.external_id)
const subscription = async () =>
  (
    await sql()<{ id: string; state: string; lease_expires_at: Date | null; renew_job_id: string | null }[]>`
      select id, state, lease_expires_at, renew_job_id from public.source_push_subscriptions where id = ${subscriptionId}`
  )[0]
const callbackOf = () => hub.subscriptions.values().next().value!.callback

beforeAll(async () => {
  hub = await startWebsubHub({
    leaseSeconds: LEASE,
    reach: (callback) => callback.replace(PUBLIC_ORIGIN, tp.baseUrl),
  })
  tp = await startTestPlatform({ env: { PUBLIC_URL: PUBLIC_ORIGIN } })
  t = await tp.createTenant()
}, 120_000)
afterAll(async () => {
  await tp?.close()
  await hub?.close()
})

describe('WebSub push for a feed source', () => {
  it('subscribes when a feed naming a hub is connected, and the hub verifies intent', async () => {
    const site = await tp.json('/v1/content/sites', { token: t.token, body: { name: 'Pushed' } })
    const created = await tp.json('/api/sources', {
      token: t.token,
      body: { site_id: site.body.id, name: 'Pushed feed', kind: 'feed', config: { url: hub.feedUrl } },
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    sourceId = created.body.id
    await waitFor(() => hub.subscriptions.has(hub.feedUrl), 10_000, 'the hub to verify the subscription')
    const [asked] = hub.requests
    expect(asked).toMatchObject({ mode: 'subscribe', topic: hub.feedUrl, verified: true })
    // The callback is the platform's public address with the subscription's id and an unguessable token.
    expect(asked!.callback).toMatch(
      new RegExp(`^${PUBLIC_ORIGIN}/api/sources/websub/[0-9a-f-]{36}/[0-9A-Za-z]{43}$`),
    )
    subscriptionId = /websub\/([0-9a-f-]{36})\//.exec(asked!.callback)![1]!
    await waitFor(
      async () => (await subscription())?.state === 'active',
      5000,
      'the subscription to be active',
    )
    const shown = await tp.json(`/api/sources/${sourceId}`, { token: t.token })
    expect(shown.body.push).toMatchObject({ state: 'active', hub_url: hub.url, last_error: null })
    expect(Date.parse(shown.body.push.lease_expires_at) - Date.now()).toBeGreaterThan((LEASE - 30) * 1000)
    // The secrets are the server's: the API role cannot read them.
    await expect(
      tp.db.sql.begin(async (tx) => {
        await tx`set local role authenticated`
        return tx`select secret_ciphertext from public.source_push_subscriptions`
      }),
    ).rejects.toThrow(/permission denied/)
    expect(await itemGuids()).toEqual(['first'])
  })

  it('ingests a signed push within seconds, with one source.items_added for the new item', async () => {
    const before = (await itemsAdded()).length
    hub.addItem('second', 'Second post')
    const pushedAt = Date.now()
    const sent = await hub.publish()
    expect(sent).toEqual([{ status: 200, body: JSON.stringify({ status: 'accepted' }) }])
    // The items are written, then the event (two statements): the event is what automations wait for.
    await waitFor(async () => (await itemsAdded()).length > before, 5000, 'the pushed item and its event')
    const events = await itemsAdded()
    expect(events.length).toBe(before + 1)
    const event = events.at(-1)!
    expect(event.data.source_id).toBe(sourceId)
    expect(event.data.item_ids.length).toBe(1)
    const [item] = await sql()<{ id: string; created_at: Date }[]>`
      select id, created_at from public.source_items where source_id = ${sourceId} and external_id = 'second'`
    expect(event.data.item_ids).toEqual([item!.id])
    const latency = event.created_at.getTime() - pushedAt
    console.info(
      `push -> item stored ${item!.created_at.getTime() - pushedAt} ms, -> source.items_added ${latency} ms`,
    )
    expect(latency).toBeLessThan(5000)

    // The same feed pushed again: nothing new, no second event.
    expect((await hub.publish())[0]!.status).toBe(200)
    await waitFor(
      async () =>
        (
          await sql()<{ n: number }[]>`
          select count(*)::int as n from public.jobs where tenant_id = ${t.tenantId} and kind = 'scrape-social.push'
            and status in ('queued', 'running')`
        )[0]!.n === 0,
      5000,
      'the second push to be ingested',
    )
    expect((await itemsAdded()).length).toBe(before + 1)
  })

  it('ignores a push with a bad signature (answered 200, nothing ingested)', async () => {
    const jobs = async () =>
      (
        await sql()<{ n: number }[]>`
        select count(*)::int as n from public.jobs where tenant_id = ${t.tenantId} and kind = 'scrape-social.push'`
      )[0]!.n
    const before = await jobs()
    hub.addItem('forged', 'Forged post')
    const sent = await hub.publish({ secret: 'not-the-secret' })
    expect(sent).toEqual([{ status: 200, body: JSON.stringify({ status: 'ignored' }) }])
    // The route decides before it answers: no job was queued, so nothing can be ingested later.
    expect(await jobs()).toBe(before)
    expect(await itemGuids()).not.toContain('forged')
    // sha1, which the recommendation also defines, is taken when it is right.
    expect((await hub.publish({ algorithm: 'sha1' }))[0]!.body).toBe(JSON.stringify({ status: 'accepted' }))
    await waitFor(async () => (await itemGuids()).includes('forged'), 5000, 'the sha1-signed push')
  })

  it('answers 404 to a wrong token and an unknown topic, echoing no challenge and changing nothing', async () => {
    const callback = callbackOf().replace(PUBLIC_ORIGIN, tp.baseUrl)
    const wrongToken = callback.replace(/\/[0-9A-Za-z]{43}$/, `/${'x'.repeat(43)}`)
    const state = await subscription()
    const push = await fetch(wrongToken, { method: 'POST', body: 'anything' })
    expect(push.status).toBe(404)
    const challenge = 'c'.repeat(20)
    const verify = (url: string, topic: string) =>
      fetch(`${url}?hub.mode=subscribe&hub.topic=${encodeURIComponent(topic)}&hub.challenge=${challenge}`)
    const wrong = await verify(wrongToken, hub.feedUrl)
    expect(wrong.status).toBe(404)
    expect(await wrong.text()).not.toContain(challenge)
    const unknownTopic = await verify(callback, 'http://elsewhere.example/feed.xml')
    expect(unknownTopic.status).toBe(404)
    expect(await unknownTopic.text()).not.toContain(challenge)
    // A credential of any kind is not a hub: refused as that credential.
    const keyed = await fetch(callback, { method: 'POST', headers: { authorization: `Bearer ${t.token}` } })
    expect(keyed.status).toBe(401)
    expect(await subscription()).toEqual(state)
  })

  it('renews the lease when the renewal job is due', async () => {
    const before = (await subscription())!
    const [renewal] = await sql()<{ run_after: Date; created_at: Date }[]>`
      select run_after, created_at from public.jobs where id = ${before.renew_job_id}`
    // Due at 80% of the granted lease.
    expect(renewal!.run_after.getTime() - renewal!.created_at.getTime()).toBeGreaterThan(
      LEASE * 0.8 * 1000 - 2000,
    )
    expect(renewal!.run_after.getTime() - renewal!.created_at.getTime()).toBeLessThan(
      LEASE * 0.8 * 1000 + 2000,
    )
    // Time is driven by the job's due time: made due now, then the sweep runs it.
    await sql()`update public.jobs set run_after = now() where id = ${before.renew_job_id}`
    const asked = hub.requests.length
    const swept = await tp.instances[0]!.platform.runJob('scrape-social/jobs/sweep')
    expect(swept.status).toBe(200)
    await waitFor(
      () => hub.requests.length > asked && hub.requests.at(-1)!.verified === true,
      5000,
      'the renewal',
    )
    expect(hub.requests.at(-1)).toMatchObject({ mode: 'subscribe', topic: hub.feedUrl })
    const after = (await subscription())!
    expect(after.state).toBe('active')
    expect(after.lease_expires_at!.getTime()).toBeGreaterThan(before.lease_expires_at!.getTime())
    expect(after.renew_job_id).not.toBe(before.renew_job_id)
  })

  it('unsubscribes when the source is paused, and subscribes again at the first fetch after resuming', async () => {
    const paused = await tp.json(`/api/sources/${sourceId}`, {
      method: 'PATCH',
      token: t.token,
      body: { enabled: false },
    })
    expect(paused.status, JSON.stringify(paused.body)).toBe(200)
    await waitFor(
      () => !hub.subscriptions.has(hub.feedUrl),
      10_000,
      'the hub to drop the paused subscription',
    )
    expect(hub.requests.at(-1)).toMatchObject({ mode: 'unsubscribe', topic: hub.feedUrl, verified: true })
    await waitFor(async () => (await subscription()) === undefined, 5000, 'the record to go')

    const resumed = await tp.json(`/api/sources/${sourceId}`, {
      method: 'PATCH',
      token: t.token,
      body: { enabled: true },
    })
    expect(resumed.status).toBe(200)
    const fetched = await tp.json('/functions/v1/scrape-social', {
      token: t.token,
      body: { source_id: sourceId },
    })
    expect(fetched.status, JSON.stringify(fetched.body)).toBeLessThan(300)
    await waitFor(() => hub.subscriptions.has(hub.feedUrl), 10_000, 'the hub to verify the new subscription')
    subscriptionId = /websub\/([0-9a-f-]{36})\//.exec(hub.requests.at(-1)!.callback)![1]!
    await waitFor(
      async () => (await subscription())?.state === 'active',
      5000,
      'the new subscription to be active',
    )
  })

  it('unsubscribes when the source is deleted', async () => {
    const deleted = await tp.request(`/api/sources/${sourceId}`, { method: 'DELETE', token: t.token })
    expect(deleted.status).toBe(204)
    await waitFor(() => !hub.subscriptions.has(hub.feedUrl), 5000, 'the hub to drop the subscription')
    expect(hub.requests.at(-1)).toMatchObject({ mode: 'unsubscribe', topic: hub.feedUrl, verified: true })
    await waitFor(async () => (await subscription()) === undefined, 5000, 'the record to go')
  })
})
