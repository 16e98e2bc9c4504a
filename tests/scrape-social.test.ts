import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ApifyServer, startApifyServer } from './support/apify-server.ts'
import { type FeedServer, startFeedServer } from './support/feed-server.ts'
import {
  addMember,
  setupTimeout,
  startTestPlatform,
  TestClock,
  type TestPlatform,
  type TestTenant,
} from './support/platform.ts'

let tp: TestPlatform
let feeds: FeedServer
let apify: ApifyServer
let a: TestTenant
let b: TestTenant
let siteA: string
let siteB: string
const clock = new TestClock(new Date())

const APIFY_PROVIDER = 'f6023e47-6607-4ef3-93eb-795993548d03'

beforeAll(async () => {
  feeds = await startFeedServer()
  apify = await startApifyServer()
  tp = await startTestPlatform({ clock, instances: 2, env: { APIFY_API_URL: apify.url } })
  a = await tp.createTenant()
  b = await tp.createTenant()
  const site = async (t: TestTenant) =>
    (
      await tp.db.sql<{ id: string }[]>`
        insert into public.sites (tenant_id, name) values (${t.tenantId}, 'Blog') returning id`
    )[0]!.id
  siteA = await site(a)
  siteB = await site(b)
}, setupTimeout())
afterAll(async () => {
  await tp?.close()
  await feeds?.close()
  await apify?.close()
})

/** The Supabase convention: the anon key names the project, the Bearer names the user. */
const asUser = (t: TestTenant) => ({ apikey: tp.anonKey, authorization: `Bearer ${t.token}` })

/**
 * Adds a source, paused unless the test says otherwise (most tests start each scrape themselves);
 * an enabled one is fetched on creation, and this waits for that first run to end.
 */
async function createSource(body: Record<string, unknown>, t = a) {
  const res = await tp.json('/api/sources', {
    token: t.token,
    body: { site_id: siteA, name: 'Source', enabled: false, ...body },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  if (res.body.last_job_id) await finished(res.body.last_job_id, t)
  return res.body as { id: string; last_job_id: string | null }
}

async function trigger(
  sourceId: string,
  headers: Record<string, string> = asUser(a),
  extra: Record<string, unknown> = {},
) {
  return tp.json('/functions/v1/scrape-social', { headers, body: { source_id: sourceId, ...extra } })
}

/** Waits for the job to finish (the request kicked it in process) and returns it. */
async function finished(jobId: string, t = a) {
  let job: { status: string; [k: string]: unknown } = { status: 'queued' }
  await expect
    .poll(
      async () => {
        job = (await tp.json(`/api/jobs/${jobId}`, { token: t.token })).body
        return job.status
      },
      { timeout: 20_000, interval: 50 },
    )
    .toMatch(/succeeded|failed/)
  return job as { status: string; result: Record<string, unknown>; error: string | null; attempts: number }
}

async function scrape(sourceId: string) {
  const res = await trigger(sourceId)
  expect(res.status, JSON.stringify(res.body)).toBe(202)
  expect(res.body).toMatchObject({ kind: 'scrape-social.source', status: 'queued' })
  expect(res.body.status_url).toBe(`/api/jobs/${res.body.job_id}`)
  return finished(res.body.job_id)
}

const items = async (sourceId: string) =>
  (await tp.json(`/api/sources/${sourceId}/items?limit=100`, { token: a.token })).body.data as Record<
    string,
    any
  >[]

describe('sources API', () => {
  it('creates, lists, gets, updates and deletes sources under RLS', async () => {
    const s = await createSource({
      kind: 'feed',
      config: { url: `${feeds.url}/rss.xml` },
      schedule: 'hourly',
      enabled: true,
    })
    const got = await tp.json(`/api/sources/${s.id}`, { token: a.token })
    expect(got.body).toMatchObject({
      kind: 'feed',
      schedule: 'hourly',
      enabled: true,
      last_status: 'succeeded',
    })
    expect(new Date(got.body.next_run_at).getTime() - clock.now().getTime()).toBe(3600_000)
    const list = await tp.json('/api/sources', { token: a.token })
    expect(list.body.data.map((x: { id: string }) => x.id)).toContain(s.id)
    const patched = await tp.json(`/api/sources/${s.id}`, {
      method: 'PATCH',
      token: a.token,
      body: { name: 'Renamed', schedule: null },
    })
    expect(patched.body).toMatchObject({ name: 'Renamed', schedule: null, next_run_at: null })
    expect((await tp.json(`/api/sources/${s.id}`, { token: b.token })).status).toBe(404)
    expect((await tp.json(`/api/sources/${s.id}`, { method: 'DELETE', token: b.token })).status).toBe(404)
    expect((await tp.request(`/api/sources/${s.id}`, { method: 'DELETE', token: a.token })).status).toBe(204)
    expect((await tp.json(`/api/sources/${s.id}`, { token: a.token })).status).toBe(404)
  })

  it('validates each kind of source and refuses members and foreign sites', async () => {
    const bad = await tp.json('/api/sources', {
      token: a.token,
      body: { site_id: siteA, name: 'x', kind: 'feed', config: { url: 'ftp://example.com/feed' } },
    })
    expect([bad.status, bad.body.code, bad.body.details?.[0]?.field]).toEqual([
      400,
      'VALIDATION_ERROR',
      'config.url',
    ])
    const apifyBad = await tp.json('/api/sources', {
      token: a.token,
      body: { site_id: siteA, name: 'x', kind: 'apify', config: { actor_id: '../../etc' } },
    })
    expect(apifyBad.status).toBe(400)
    const foreign = await tp.json('/api/sources', {
      token: a.token,
      body: { site_id: siteB, name: 'x', kind: 'feed', config: { url: `${feeds.url}/rss.xml` } },
    })
    expect([foreign.status, foreign.body.details?.[0]?.field]).toEqual([400, 'site_id'])
    const member = await addMember(tp, a.tenantId, 'member')
    const refused = await tp.json('/api/sources', {
      token: member.token,
      body: { site_id: siteA, name: 'x', kind: 'feed', config: { url: `${feeds.url}/rss.xml` } },
    })
    expect([refused.status, refused.body.code]).toEqual([403, 'INSUFFICIENT_PERMISSIONS'])
  })
})

describe('sources: fetched when connected', () => {
  /** Waits until the source's first run has an outcome, then returns the source. */
  async function firstRun(id: string) {
    let source: Record<string, any> = {}
    await expect
      .poll(
        async () => {
          source = (await tp.json(`/api/sources/${id}`, { token: a.token })).body
          return source.last_status
        },
        { timeout: 20_000, interval: 50 },
      )
      .toMatch(/succeeded|failed/)
    return source
  }

  it('fetches a feed at once when it is added: its items, or its error, show without Scrape now', async () => {
    const res = await tp.json('/api/sources', {
      token: a.token,
      body: {
        site_id: siteA,
        name: 'Now',
        kind: 'feed',
        config: { url: `${feeds.url}/atom.xml` },
        schedule: 'every_minute',
      },
    })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    // The answer names the first scrape's job, and the next scheduled run is a minute away.
    expect(res.body.last_job_id).toEqual(expect.any(String))
    expect(new Date(res.body.next_run_at).getTime() - clock.now().getTime()).toBe(60_000)
    const source = await firstRun(res.body.id)
    expect(source).toMatchObject({ last_status: 'succeeded', last_job_id: res.body.last_job_id })
    expect((await items(res.body.id)).length).toBeGreaterThan(0)
    const [job] = await tp.db.sql`select kind, input from public.jobs where id = ${res.body.last_job_id}`
    expect(job).toMatchObject({
      kind: 'scrape-social.source',
      input: { source_id: res.body.id, trigger: 'created' },
    })

    const broken = await createSource({
      kind: 'feed',
      config: { url: `${feeds.url}/not-xml` },
      enabled: true,
    })
    const failed = await firstRun(broken.id)
    expect(failed.last_status).toBe('failed')
    expect(failed.last_error).toEqual(expect.any(String))
    // Later tests run the schedule sweep: this every-minute source must not be due there.
    await tp.request(`/api/sources/${res.body.id}`, { method: 'DELETE', token: a.token })
  })

  it('does not run a paused source, or an Apify actor that runs only when asked, on creation', async () => {
    const paused = await createSource({
      kind: 'feed',
      config: { url: `${feeds.url}/rss.xml` },
      enabled: false,
    })
    const actor = await createSource({ kind: 'apify', config: { actor_id: 'apify~instagram-scraper' } })
    for (const s of [paused, actor]) {
      const got = (await tp.json(`/api/sources/${s.id}`, { token: a.token })).body
      expect(got.last_job_id).toBeNull()
      const jobs = await tp.db.sql`select id from public.jobs where input->>'source_id' = ${s.id}`
      expect(jobs).toHaveLength(0)
    }
  })
})

describe('scrape-social: feeds', () => {
  it('scrapes RSS 2.0 into items, then uses conditional GET and de-duplicates', async () => {
    const s = await createSource({ kind: 'feed', config: { url: `${feeds.url}/rss.xml` } })
    const job = await scrape(s.id)
    expect(job.status, job.error ?? '').toBe('succeeded')
    expect(job.result).toMatchObject({ format: 'rss', fetched: 3, new_items: 3 })
    const stored = await items(s.id)
    // Listed in the order the feed gave them (one fetch's items share a fetch time).
    expect(stored.map((i) => i.external_id)).toEqual(['post-1', 'post-2', 'post-3'])
    const first = stored.find((i) => i.external_id === 'post-1')!
    expect(first).toMatchObject({
      url: 'https://blog.example.com/post-1',
      title: 'One',
      text: 'Post One & more',
      author: 'Writer 0',
      media: [{ url: 'https://cdn.example.com/post-1.jpg', type: 'image/jpeg' }],
      published_at: '2026-11-23T00:00:00.000Z',
    })
    // Unchanged: the server answers 304 to the stored ETag.
    const again = await scrape(s.id)
    expect(again.result).toMatchObject({ not_modified: true, new_items: 0 })
    expect(feeds.notModified.get('/rss.xml')).toBe(1)
    // One new post: only it is stored.
    feeds.addRssItem('post-4', 'Four')
    const third = await scrape(s.id)
    expect(third.result).toMatchObject({ fetched: 4, new_items: 1 })
    expect(await items(s.id)).toHaveLength(4)
    // Each fetch that stored something is one source.items_added event; the 304 is none.
    const added = await tp.db.sql<{ data: { new_items: number; item_ids: string[] } }[]>`
      select data from public.event_outbox
      where type = 'source.items_added' and data->>'source_id' = ${s.id} order by seq`
    expect(added.map((e) => [e.data.new_items, e.data.item_ids.length])).toEqual([
      [3, 3],
      [1, 1],
    ])
    const source = (await tp.json(`/api/sources/${s.id}`, { token: a.token })).body
    expect(source).toMatchObject({ last_status: 'succeeded', last_error: null })
  })

  it('scrapes Atom (a YouTube channel feed) and JSON Feed', async () => {
    const atom = await createSource({ kind: 'feed', config: { url: `${feeds.url}/atom.xml` } })
    expect((await scrape(atom.id)).result).toMatchObject({ format: 'atom', new_items: 2 })
    const video = (await items(atom.id)).find((i) => i.external_id === 'yt:video:abc123')!
    expect(video).toMatchObject({
      url: 'https://www.youtube.com/watch?v=abc123',
      title: 'First video',
      author: 'Channel Owner',
      published_at: '2026-11-22T08:00:00.000Z',
    })
    expect(video.media.map((m: { url: string }) => m.url)).toContain(
      'https://i.ytimg.com/vi/abc123/hqdefault.jpg',
    )

    const json = await createSource({ kind: 'feed', config: { url: `${feeds.url}/feed.json` } })
    expect((await scrape(json.id)).result).toMatchObject({ format: 'json', new_items: 2 })
    const toot = (await items(json.id)).find((i) => i.external_id === 'https://mastodon.example/@me/1')!
    expect(toot).toMatchObject({
      text: 'Hello from the fediverse',
      author: 'Me',
      media: [{ url: 'https://files.example/1.png', type: 'image' }],
    })
  })

  it.each([
    ['not XML', '/not-xml', /not an RSS, Atom or JSON feed/],
    ['a 404', '/gone.xml', /the feed answered 404/],
    ['a 10 MB body', '/huge.xml', /larger than 5242880 bytes/],
    ['a 10 MB chunked body', '/huge-chunked.xml', /larger than 5242880 bytes/],
    ['a gzip bomb', '/bomb.xml', /larger than 5242880 bytes/],
    ['a redirect to a private address', '/to-private', /blocked: private address 10\.0\.0\.1/],
  ])('fails the job with a readable reason on %s', async (_, path, reason) => {
    const s = await createSource({ kind: 'feed', config: { url: `${feeds.url}${path}` } })
    const job = await scrape(s.id)
    expect([job.status, job.attempts]).toEqual(['failed', 1])
    expect(job.error).toMatch(reason)
    const source = (await tp.json(`/api/sources/${s.id}`, { token: a.token })).body
    expect(source.last_status).toBe('failed')
    expect(source.last_error).toMatch(reason)
  })
})

describe('scrape-social: Apify', () => {
  beforeAll(async () => {
    const res = await tp.json('/api/credentials', {
      token: a.token,
      body: {
        provider_id: APIFY_PROVIDER,
        name: 'Apify',
        environment: 'production',
        credential: apify.token,
      },
    })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
  })

  it('starts a run with the input, waits for it, reads its dataset, and records the credential use', async () => {
    const s = await createSource({
      kind: 'apify',
      config: { actor_id: 'someone/tweet-posts', input: { handles: ['example'] } },
    })
    const job = await scrape(s.id)
    expect(job.status, job.error ?? '').toBe('succeeded')
    expect(job.result).toMatchObject({ kind: 'apify', fetched: 3, new_items: 2 })
    const run = apify.runs.get(String(job.result.apify_run_id))!
    expect([run.actor, run.input]).toEqual(['someone~tweet-posts', { handles: ['example'] }])
    const stored = await items(s.id)
    expect(stored.find((i) => i.external_id === 'tw-1')).toMatchObject({
      text: 'First post from the actor',
      author: 'Poster',
      media: [{ url: 'https://pbs.example/1.jpg', type: null }],
      published_at: '2026-11-23T06:00:00.000Z',
    })
    expect(stored.find((i) => i.external_id === 'tw-2')).toMatchObject({ author: 'poster2', text: 'Second' })
    const [use] = await tp.db.sql`
      select function_name, caller_kind from public.credential_usage where tenant_id = ${a.tenantId}`
    expect(use).toMatchObject({ function_name: 'scrape-social', caller_kind: 'server_function' })
  })

  it('fails the job when the run fails or does not finish in time', async () => {
    const failing = await createSource({ kind: 'apify', config: { actor_id: 'someone~fails' } })
    const failed = await scrape(failing.id)
    expect(failed.status).toBe('failed')
    expect(failed.error).toMatch(/ended FAILED: The actor crashed: login wall/)

    const hanging = await createSource({
      kind: 'apify',
      config: { actor_id: 'someone~hangs', timeout_seconds: 1 },
    })
    const timedOut = await scrape(hanging.id)
    expect(timedOut.status).toBe('failed')
    expect(timedOut.error).toMatch(/did not finish within 1 s/)
    expect([...apify.runs.values()].find((r) => r.actor === 'someone~hangs')?.status).toBe('ABORTED')
  })

  it('fails the job with a readable reason without a credential', async () => {
    const s = await createSource({ kind: 'apify', config: { actor_id: 'someone~posts' } }, a)
    await tp.db.sql`delete from public.credentials where tenant_id = ${a.tenantId}`
    const job = await scrape(s.id)
    expect(job.status).toBe('failed')
    expect(job.error).toMatch(/no usable Apify credential/)
  })
})

describe('scrape-social: calling convention and schedules', () => {
  it('takes a platform key with content:write, and the service-role key naming the tenant', async () => {
    const s = await createSource({ kind: 'feed', config: { url: `${feeds.url}/atom.xml` } })
    const key = async (scopes: string[]) =>
      (
        await tp.json('/api/api-keys', {
          token: a.token,
          body: { name: 'k', environment: 'production', scopes, rate_limit_per_minute: 100 },
        })
      ).body.key as string
    const writer = await trigger(s.id, {
      apikey: tp.anonKey,
      authorization: `Bearer ${await key(['content:write'])}`,
    })
    expect(writer.status).toBe(202)
    const reader = await trigger(s.id, { authorization: `Bearer ${await key(['content:read'])}` })
    expect([reader.status, reader.body.code]).toEqual([403, 'INSUFFICIENT_PERMISSIONS'])

    const service = { apikey: tp.serviceRoleKey }
    const asService = await trigger(s.id, service, { tenant_id: a.tenantId })
    expect(asService.status).toBe(202)
    expect((await finished(asService.body.job_id)).status).toBe('succeeded')
    const noTenant = await trigger(s.id, service)
    expect([noTenant.status, noTenant.body.details?.[0]?.field]).toEqual([400, 'tenant_id'])
    // The service acts inside the named tenant only: another tenant's source is not found.
    expect((await trigger(s.id, service, { tenant_id: b.tenantId })).status).toBe(404)
    // A user cannot name another tenant.
    expect((await trigger(s.id, asUser(a), { tenant_id: b.tenantId })).status).toBe(403)
    expect((await trigger(s.id, {})).status).toBe(401)
    expect((await trigger(s.id, { apikey: tp.anonKey })).status).toBe(401)
  })

  it('runs scheduled sources from the sweep job when they are due', async () => {
    const s = await createSource({
      kind: 'feed',
      config: { url: `${feeds.url}/feed.json` },
      schedule: 'every_15_minutes',
      enabled: true,
    })
    const sweep = () => tp.instances[0]!.platform.runJob('scrape-social/jobs/sweep').then((r) => r.json())
    expect((await sweep()).scheduled).toBe(0)
    clock.advance(15 * 60_000)
    expect(await sweep()).toMatchObject({ scheduled: 1, succeeded: 1 })
    const source = (await tp.json(`/api/sources/${s.id}`, { token: a.token })).body
    expect(source.last_status).toBe('succeeded')
    expect(new Date(source.next_run_at).getTime() - clock.now().getTime()).toBe(15 * 60_000)
    const [job] = await tp.db.sql`select created_by, input from public.jobs where id = ${source.last_job_id}`
    expect(job).toMatchObject({ created_by: null, input: { source_id: s.id, trigger: 'schedule' } })
    expect((await sweep()).scheduled).toBe(0)
  })
})

describe('two instances, one source', () => {
  it('scrapes once when both instances and the schedule ask for it at once (they join one job)', async () => {
    const s = await createSource({
      kind: 'feed',
      // The scrape is still running while the others ask.
      config: { url: `${feeds.url}/slow.xml` },
      schedule: 'every_15_minutes',
      enabled: true,
    })
    clock.advance(15 * 60_000)
    const before = feeds.hits.get('/slow.xml') ?? 0
    const [asked, swept] = await Promise.all([
      Promise.all(
        [0, 1, 0, 1].map((instance) =>
          tp.json('/functions/v1/scrape-social', {
            headers: asUser(a),
            body: { source_id: s.id },
            instance,
          }),
        ),
      ),
      tp.instances[1]!.platform.runJob('scrape-social/jobs/sweep').then((r) => r.json()),
    ])
    expect(asked.map((r) => r.status)).toEqual([202, 202, 202, 202])
    const jobIds = new Set(asked.map((r) => r.body.job_id as string))
    expect(jobIds.size).toBe(1)
    expect((await finished([...jobIds][0]!)).status).toBe('succeeded')
    for (const i of tp.instances) await i.platform.runJob('scrape-social/jobs/sweep')
    const jobs = await tp.db.sql<{ id: string }[]>`
      select id from public.jobs where kind = 'scrape-social.source' and input->>'source_id' = ${s.id}
        and id <> ${s.last_job_id}`
    expect(jobs.map((j) => j.id)).toEqual([...jobIds])
    expect(swept.failed).toBe(0)
    expect((feeds.hits.get('/slow.xml') ?? 0) - before).toBe(1)
  })
})
