import { startScheduler } from '@local-platform/server.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ScriptedLlm, startScriptedLlm } from './support/assistant-llm.ts'
import { type FeedServer, startFeedServer } from './support/feed-server.ts'
import { startTestPlatform, type TestPlatform } from './support/platform.ts'
import { startReceiver, type WebhookReceiver, waitFor } from './support/webhook-receiver.ts'

/**
 * The newsroom's whole path over real HTTP, on two instances over one database, on the real clock
 * (issue 47): a feed is connected (fetched at once), its new items' event starts the automation
 * at once on the instance that wrote it (not at the next sweep), the model reads the items, has a
 * draft generated, sets its fields and asks to schedule it; one approval on the other instance;
 * the publish job publishes it; one signed webhook. Run twice: with the jobs at pg_cron's pace in
 * production (publish and assistant sweep every 10 seconds, the rest every minute) and at the
 * local platform's. Each step's time comes from the platform's own timestamps, and the platform
 * time (the path less the human's wait and the wait for the chosen publish_at) is under 60 s.
 */

let tp: TestPlatform
let llm: ScriptedLlm
let feeds: FeedServer
let receiver: WebhookReceiver
const OPENAI = 'bc152fb4-8e13-4148-bfdc-1734d3f3c667'
/** The publish_at the model chooses: this long after it asks. */
const CHOSEN_DELAY_MS = 3000

beforeAll(async () => {
  llm = await startScriptedLlm()
  feeds = await startFeedServer()
  receiver = await startReceiver()
  tp = await startTestPlatform({
    instances: 2,
    kickEventRuns: true,
    env: { OPENAI_BASE_URL: llm.openaiBaseUrl },
  })
}, 240_000)
afterAll(async () => {
  await tp?.close()
  await llm?.close()
  await feeds?.close()
  await receiver?.close()
})

type Message = { role: string; content: string }
const toolResults = (body: Record<string, any>) =>
  (body.messages as Message[]).filter((m) => m.role === 'tool').map((m) => JSON.parse(m.content))

/** The model's part: read the event's items, generate, edit, schedule; then answer. */
function script(siteId: string, slug: string) {
  let articleId = ''
  llm.reset([
    (body) => {
      const user = (body.messages as Message[]).find((m) => m.role === 'user')!.content
      const sourceId = /"source_id": "([0-9a-f-]{36})"/.exec(user)![1]
      return { toolCalls: [{ name: 'platform__list_source_items', arguments: { source_id: sourceId } }] }
    },
    (body) => ({
      toolCalls: [
        {
          name: 'platform__generate_draft',
          arguments: {
            site_id: siteId,
            item_ids: toolResults(body)[0].items.map((i: { id: string }) => i.id),
            instructions: 'A short round-up',
          },
        },
      ],
    }),
    { text: 'The week on the blog\n\nOne [1], two [2] and three [3].', usage: { input: 200, output: 40 } },
    (body) => {
      articleId = toolResults(body).at(-1).article_id
      return {
        toolCalls: [
          {
            name: 'platform__update_article',
            arguments: { article_id: articleId, slug, excerpt: 'One, two, three.', tags: ['blog'] },
          },
          {
            name: 'platform__schedule_article',
            arguments: {
              article_id: articleId,
              publish_at: new Date(Date.now() + CHOSEN_DELAY_MS).toISOString(),
            },
          },
        ],
      }
    },
    { text: 'Drafted and scheduled.' },
  ])
}

interface Step {
  step: string
  at: Date
}

/** The path's steps for the tenant, each at the platform's own timestamp. */
async function stepsOf(tenantId: string, articleId: string): Promise<Step[]> {
  const one = async <T>(q: Promise<T[]>) => {
    const rows = await q
    expect(rows.length).toBe(1)
    return rows[0]!
  }
  const sql = tp.db.sql
  const item = await one(sql<{ at: Date }[]>`
    select min(created_at) as at from public.source_items where tenant_id = ${tenantId}`)
  const event = await one(sql<{ at: Date }[]>`
    select created_at as at from public.event_outbox where tenant_id = ${tenantId} and type = 'source.items_added'`)
  const run = await one(sql<{ at: Date; turn_at: Date }[]>`
    select r.created_at as at, t.created_at as turn_at from public.assistant_automation_runs r
    join public.assistant_turns t on t.id = r.turn_id where r.tenant_id = ${tenantId}`)
  const draft = await one(
    sql<{ at: Date }[]>`select created_at as at from public.articles where id = ${articleId}`,
  )
  const call = await one(sql<{ at: Date; decided_at: Date; publish_at: string }[]>`
    select created_at as at, decided_at, arguments ->> 'publish_at' as publish_at from public.assistant_tool_calls
    where tenant_id = ${tenantId} and tool = 'platform:schedule_article'`)
  const scheduled = await one(sql<{ at: Date }[]>`
    select created_at as at from public.event_outbox where tenant_id = ${tenantId} and type = 'content.scheduled'`)
  const published = await one(sql<{ at: Date }[]>`
    select created_at as at from public.event_outbox where tenant_id = ${tenantId} and type = 'content.published'`)
  const delivered = await one(sql<{ at: Date }[]>`
    select a.attempted_at as at from public.webhook_delivery_attempts a
    where a.tenant_id = ${tenantId} and a.event_type = 'content.published' and a.success`)
  return [
    { step: 'feed item stored (fetch on connect)', at: item.at },
    { step: 'source.items_added recorded', at: event.at },
    { step: 'automation run queued (fan-out)', at: run.at },
    { step: 'automation turn started', at: run.turn_at },
    { step: 'draft generated', at: draft.at },
    { step: 'schedule_article waits for approval', at: call.at },
    { step: 'approved (human, other instance)', at: call.decided_at },
    { step: 'content.scheduled recorded', at: scheduled.at },
    { step: 'publish_at the model chose', at: new Date(call.publish_at) },
    { step: 'content.published recorded', at: published.at },
    { step: 'webhook delivered (attempt 1)', at: delivered.at },
  ]
}

const ms = (a: Date, b: Date) => b.getTime() - a.getTime()

describe.each(['production', 'local'] as const)('the newsroom path, jobs at the %s cadence', (cadence) => {
  it('runs from a connected feed to one published article and one webhook in under 60 s of platform time', async () => {
    const t = await tp.createTenant()
    await tp.db.sql`update public.tenants set plan = 'pro' where id = ${t.tenantId}`
    const cred = await tp.json('/api/credentials', {
      token: t.token,
      body: { provider_id: OPENAI, name: 'openai', environment: 'production', credential: llm.key },
    })
    expect(cred.status, JSON.stringify(cred.body)).toBe(201)
    const site = await tp.json('/v1/content/sites', { token: t.token, body: { name: 'The Blog' } })
    expect((await tp.json('/v1/content/tags', { token: t.token, body: { name: 'Blog' } })).status).toBe(201)
    const hook = await tp.json('/api/webhooks', {
      token: t.token,
      body: { url: receiver.url, events: ['content.published'] },
    })
    expect(hook.status, JSON.stringify(hook.body)).toBe(201)
    const auto = await tp.json('/v1/assistant/automations', {
      token: t.token,
      body: {
        name: 'Newsroom',
        instruction: 'Draft an article from the new items, set its fields, and schedule it.',
        trigger: { type: 'event', event: 'source.items_added' },
        unattended_tools: ['platform:generate_draft', 'platform:update_article'],
      },
    })
    expect(auto.status, JSON.stringify(auto.body)).toBe(201)
    script(site.body.id, `week-${cadence}`)
    const received = receiver.received.length

    // The jobs at their pace start now, so no sweep runs before its first interval has passed.
    const stops = tp.instances.map((i) =>
      startScheduler(i.platform, (path, err) => console.warn(path, err), { cadence }),
    )
    try {
      const source = await tp.json('/api/sources', {
        token: t.token,
        body: {
          site_id: site.body.id,
          name: 'Blog feed',
          kind: 'feed',
          config: { url: `${feeds.url}/rss.xml` },
        },
      })
      expect(source.status, JSON.stringify(source.body)).toBe(201)

      // The human step: the approval, on the other instance, as soon as the inbox shows it.
      let callId = ''
      await waitFor(
        async () => {
          const inbox = await tp.json('/v1/assistant/approvals', { token: t.token, instance: 1 })
          callId = inbox.body.data?.[0]?.id ?? ''
          return callId !== ''
        },
        60_000,
        'the approval in the inbox',
      )
      const decided = await tp.json(`/v1/assistant/approvals/${callId}`, {
        token: t.token,
        body: { approve: true },
        instance: 1,
      })
      expect(decided.status, JSON.stringify(decided.body)).toBe(200)
      await waitFor(() => receiver.received.length > received, 60_000, 'the content.published webhook')
    } finally {
      for (const stop of stops) stop()
    }

    const [article] = await tp.db.sql<{ id: string; status: string; slug: string }[]>`
      select id, status, slug from public.articles where tenant_id = ${t.tenantId}`
    expect(article).toMatchObject({ status: 'published', slug: `week-${cadence}` })
    const steps = await stepsOf(t.tenantId, article!.id)
    const at = (name: string) => steps.find((s) => s.step.startsWith(name))!.at
    // Exactly once: one event, one run, one article (stepsOf found one of each), one webhook.
    expect(receiver.received.length - received).toBe(1)
    expect(receiver.received.at(-1)!.body.data).toMatchObject({ article_id: article!.id })

    // The event started the run at once: the first sweep at this pace comes 10 s after the start.
    expect(ms(at('source.items_added'), at('automation turn started'))).toBeLessThan(2000)
    const human = ms(at('schedule_article waits'), at('approved'))
    const chosenWait = Math.max(0, ms(at('content.scheduled'), at('publish_at')))
    const total = ms(at('feed item stored'), at('content.published'))
    const platform = total - human - chosenWait
    expect(platform).toBeLessThan(60_000)

    const start = steps[0]!.at
    const table = steps.map((s) => `| ${s.step} | ${ms(start, s.at)} ms |`).join('\n')
    console.log(
      `newsroom path, ${cadence} cadence\n| step | since the feed item |\n| --- | --- |\n${table}\n` +
        `platform time ${platform} ms (total ${total} ms, less the approver's ${human} ms and the chosen publish_at's ${chosenWait} ms); ` +
        `publish_at -> published ${ms(at('publish_at'), at('content.published'))} ms`,
    )

    // The story view shows the same path, in order, each step with its record.
    const story = await tp.json(`/v1/content/articles/${article!.id}/story`, { token: t.token })
    expect(story.status, JSON.stringify(story.body)).toBe(200)
    const kinds = story.body.steps.map((s: { kind: string }) => s.kind)
    const firstOf = (k: string) => kinds.indexOf(k)
    expect(kinds.filter((k: string) => k === 'source_item')).toHaveLength(3)
    for (const [a, b] of [
      ['source_item', 'event_received'],
      ['event_received', 'automation_run'],
      ['automation_run', 'generation_job'],
      ['generation_job', 'approval'],
      ['approval', 'scheduled'],
      ['scheduled', 'published'],
      ['published', 'webhook_delivery'],
    ])
      expect(firstOf(a!), `${a} before ${b}`).toBeLessThan(firstOf(b!))
    expect(story.body.steps.find((s: { kind: string }) => s.kind === 'approval')).toMatchObject({
      actor: t.userId,
      summary: 'platform:schedule_article approved',
    })
    expect(kinds).toContain('revision')
    expect(kinds).toContain('conversation')
  }, 180_000)
})
