import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ScriptedLlm } from './support/assistant-llm.ts'
import {
  type AssistantPlatform,
  addModelCredential,
  startAssistantPlatform,
} from './support/assistant-platform.ts'
import { addMember, TestClock, type TestPlatform, type TestTenant } from './support/platform.ts'

/**
 * The assistant writing for the publication, over real HTTP with a scripted model provider: the
 * dashboard's suggested automation ("draft an article from yesterday's new source items") runs on
 * its schedule, the model reads the source's items, has the generator write a draft (the
 * generate-article job, metered to the Assistant API), sets the draft's fields, and asks to
 * schedule it, which waits for an owner's approval. The platform's content tools are also called
 * directly through the tool server, as a program holding a key calls them.
 */

let tp: TestPlatform
let llm: ScriptedLlm
let peers: AssistantPlatform | undefined
const clock = new TestClock(new Date('2026-12-02T07:30:00.000Z')) // a Wednesday

beforeAll(async () => {
  peers = await startAssistantPlatform({ instances: 2, clock })
  ;({ tp, llm } = peers)
}, 120_000)
afterAll(() => peers?.close())

/** A tenant with an OpenAI credential, a site, a tag and a feed source with three items. */
async function publication(): Promise<{ t: TestTenant; siteId: string; sourceId: string; fresh: string[] }> {
  const t = await tp.createTenant()
  await addModelCredential(tp, llm, t)
  const site = await tp.json('/v1/content/sites', { token: t.token, body: { name: 'The Garden Post' } })
  expect(site.status).toBe(201)
  expect((await tp.json('/v1/content/tags', { token: t.token, body: { name: 'Garden' } })).status).toBe(201)
  const source = await tp.json('/api/sources', {
    token: t.token,
    body: {
      site_id: site.body.id,
      name: 'Garden feed',
      kind: 'feed',
      config: { url: 'https://example.com/feed.xml' },
      // The test writes the items itself: no fetch on creation.
      enabled: false,
    },
  })
  expect(source.status, JSON.stringify(source.body)).toBe(201)
  // What the scraper stored: one item two days ago, two yesterday.
  const items = await tp.db.sql<{ id: string; title: string }[]>`
    insert into public.source_items (tenant_id, source_id, external_id, url, title, text, author, created_at)
    values
      (${t.tenantId}, ${source.body.id}, 'old', 'https://example.com/p/old', 'Old news', 'Frost in October.', 'Ada',
       '2026-11-30T09:00:00Z'),
      (${t.tenantId}, ${source.body.id}, 'a', 'https://example.com/p/a', 'Tulips early', 'Tulips bloom early.', 'Ada',
       '2026-12-01T09:00:00Z'),
      (${t.tenantId}, ${source.body.id}, 'b', 'https://example.com/p/b', 'Rain returns', 'Rain is back.', 'Bo',
       '2026-12-01T15:00:00Z')
    returning id, title`
  const fresh = items.filter((i) => i.title !== 'Old news').map((i) => i.id)
  return { t, siteId: site.body.id, sourceId: source.body.id, fresh }
}

/** The JSON results of the tool calls the model was sent in this request, in order. */
const toolResults = (body: Record<string, any>) =>
  (body.messages as { role: string; content: string }[])
    .filter((m) => m.role === 'tool')
    .map((m) => JSON.parse(m.content))

describe('the suggested automation', () => {
  it("drafts an article from yesterday's new source items with its fields; scheduling it waits for approval", async () => {
    const { t, siteId, sourceId, fresh } = await publication()
    const made = await tp.json('/v1/assistant/automations', {
      token: t.token,
      body: {
        name: 'Morning draft',
        instruction: "Draft an article from yesterday's new source items and schedule it for tomorrow 08:00.",
        schedule: '0 8 * * 1-5',
      },
    })
    expect(made.status, JSON.stringify(made.body)).toBe(201)

    let generated: { article_id: string; title: string } | undefined
    llm.reset([
      {
        toolCalls: [
          {
            name: 'platform__list_source_items',
            arguments: { source_id: sourceId, since: '2026-12-01T00:00:00Z' },
          },
        ],
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
      // The generator's own model call (not streamed): the title, a blank line, the body.
      {
        text: 'Spring comes early\n\nTulips bloom early [1], and the rain is back [2].',
        usage: { input: 300, output: 50 },
      },
      (body) => {
        generated = toolResults(body).at(-1)
        return {
          toolCalls: [
            {
              name: 'platform__update_article',
              arguments: {
                article_id: generated!.article_id,
                slug: 'spring-comes-early',
                excerpt: 'Tulips and rain: the week in the garden.',
                tags: ['garden'],
                feature_image: { url: 'https://images.example.com/tulips.jpg', alt: 'Tulips' },
                meta_title: 'Spring comes early | The Garden Post',
                meta_description: 'Tulips bloom early and the rain is back.',
                canonical_url: 'https://garden.example.com/spring-comes-early',
              },
            },
            {
              name: 'platform__schedule_article',
              arguments: { article_id: generated!.article_id, publish_at: '2026-12-03T08:00:00Z' },
            },
          ],
        }
      },
      { text: 'Drafted and scheduled for tomorrow at 08:00.' },
    ])
    const requestsBefore = llm.requests.length
    clock.set(new Date('2026-12-02T08:00:10.000Z'))
    const reports = await Promise.all([
      tp.instances[0]!.platform.runJob('assistant/jobs/sweep').then((r) => r.json()),
      tp.instances[1]!.platform.runJob('assistant/jobs/sweep').then((r) => r.json()),
    ])
    expect(reports.map((r) => r.scheduled).reduce((a, b) => a + b, 0)).toBe(1)

    // The model asked for yesterday's items only, and the generator wrote from exactly those.
    const sent = llm.requests.slice(requestsBefore)
    expect(
      toolResults(sent[1]!.body)[0]
        .items.map((i: { id: string }) => i.id)
        .sort(),
    ).toEqual([...fresh].sort())
    expect(sent[2]!.body.stream).not.toBe(true)
    expect(sent[2]!.body.messages[1].content).toContain('Tulips bloom early.')
    expect(sent[2]!.body.messages[1].content).not.toContain('Frost in October.')
    expect(generated).toMatchObject({ status: 'draft', title: 'Spring comes early' })

    const runs = await tp.json(`/v1/assistant/automations/${made.body.id}/runs`, { token: t.token })
    expect(runs.body.data[0]).toMatchObject({ status: 'started', turn_status: 'awaiting_approval' })
    const conversationId = runs.body.data[0].conversation_id
    const conversation = await tp.json(`/v1/assistant/conversations/${conversationId}`, { token: t.token })
    const calls = conversation.body.messages
      .flatMap((m: { tool_calls?: { tool: string; status: string }[] }) => m.tool_calls ?? [])
      .map((c: { tool: string; status: string }) => [c.tool, c.status])
    expect(calls).toEqual([
      ['platform:list_source_items', 'ok'],
      ['platform:generate_draft', 'ok'],
      ['platform:update_article', 'ok'],
      ['platform:schedule_article', 'awaiting_approval'],
    ])

    // The draft exists with the fields, written from its sources, and is not yet scheduled.
    const article = await tp.json(`/v1/content/articles/${generated!.article_id}`, { token: t.token })
    expect(article.status).toBe(200)
    expect(article.body).toMatchObject({
      status: 'draft',
      title: 'Spring comes early',
      slug: 'spring-comes-early',
      excerpt: 'Tulips and rain: the week in the garden.',
      feature_image: { url: 'https://images.example.com/tulips.jpg', alt: 'Tulips' },
      meta_title: 'Spring comes early | The Garden Post',
      canonical_url: 'https://garden.example.com/spring-comes-early',
    })
    expect(article.body.tags.map((g: { slug: string }) => g.slug)).toEqual(['garden'])
    const sources = await tp.json(`/v1/content/articles/${generated!.article_id}/sources`, { token: t.token })
    expect(sources.body.data.map((s: { id: string }) => s.id).sort()).toEqual([...fresh].sort())
    // Metered as generation is: the generator's tokens count against the Assistant API.
    const [job] = await tp.db.sql<{ status: string; result: { usage: { total_tokens: number } } }[]>`
      select status, result from public.jobs where tenant_id = ${t.tenantId} and kind = 'generate-article.article'`
    expect(job).toMatchObject({ status: 'succeeded', result: { usage: { total_tokens: 350 } } })

    // The owner approves the schedule; the turn resumes and the article is scheduled.
    const pending = conversation.body.messages
      .flatMap((m: { tool_calls?: { id: string; status: string }[] }) => m.tool_calls ?? [])
      .find((c: { status: string }) => c.status === 'awaiting_approval')
    const approved = await tp.json(`/v1/assistant/conversations/${conversationId}/approvals/${pending.id}`, {
      token: t.token,
      body: { approve: true },
      instance: 1,
    })
    expect(approved.status, JSON.stringify(approved.body)).toBe(200)
    expect(approved.body.turn.status).toBe('completed')
    const scheduled = await tp.json(`/v1/content/articles/${generated!.article_id}`, { token: t.token })
    expect(scheduled.body).toMatchObject({ status: 'scheduled', publish_at: '2026-12-03T08:00:00.000Z' })

    // Every platform tool call of the run is in the usage log, with what asked for it and for whom.
    const log = await tp.db.sql<
      { tool_name: string; action: string; triggered_by: string; user_id: string; success: boolean }[]
    >`
      select tool_name, action, triggered_by, user_id, success from public.integration_usage
      where tenant_id = ${t.tenantId} and connection_id is null order by id`
    expect(log.map((l) => [l.tool_name, l.action, l.triggered_by, l.user_id, l.success])).toEqual([
      ['platform:list_source_items', 'read', 'automation', t.userId, true],
      ['platform:generate_draft', 'write', 'automation', t.userId, true],
      ['platform:update_article', 'write', 'automation', t.userId, true],
      ['platform:schedule_article', 'write', 'automation', t.userId, true],
    ])
    const stats = await tp.json('/api/integrations/platform/stats?period=24h', { token: t.token })
    expect(stats.status, JSON.stringify(stats.body)).toBe(200)
    expect(stats.body).toMatchObject({ total_calls: 4, success_count: 4, triggered_by: { automation: 4 } })
  })
})

describe('a late approval', () => {
  it('publishes at once when the chosen time passed while it waited, or at the time the approver sets', async () => {
    const { t, siteId } = await publication()
    const draft = async (title: string) => {
      const made = await tp.json('/v1/content/articles', { token: t.token, body: { site_id: siteId, title } })
      expect(made.status, JSON.stringify(made.body)).toBe(201)
      return made.body.id as string
    }
    const late = await draft('Late one')
    const moved = await draft('Moved one')
    const chosen = new Date(clock.now().getTime() + 60_000).toISOString()
    const conversation = (
      await tp.json('/v1/assistant/conversations', { token: t.token, body: { title: 'Plan' } })
    ).body.id as string
    llm.reset([
      {
        toolCalls: [
          { name: 'platform__schedule_article', arguments: { article_id: late, publish_at: chosen } },
          { name: 'platform__schedule_article', arguments: { article_id: moved, publish_at: chosen } },
        ],
      },
      { text: 'Done.' },
    ])
    const said = await tp.json(`/v1/assistant/conversations/${conversation}/messages`, {
      token: t.token,
      body: { content: 'Schedule both for a minute from now.' },
    })
    expect(said.body.turn?.status, JSON.stringify(said.body)).toBe('awaiting_approval')
    // The inbox shows the time the model chose.
    const inbox = await tp.json('/v1/assistant/approvals', { token: t.token })
    expect(inbox.status, JSON.stringify(inbox.body)).toBe(200)
    const waiting = inbox.body.data as { id: string; arguments: { article_id: string; publish_at: string } }[]
    expect(waiting.map((w) => w.arguments.publish_at)).toEqual([chosen, chosen])
    const lateCall = waiting.find((w) => w.arguments.article_id === late)!
    const movedCall = waiting.find((w) => w.arguments.article_id === moved)!

    clock.advance(5 * 60_000) // The approver comes back after the chosen time.
    const decide = (id: string, body: Record<string, unknown>) =>
      tp.json(`/v1/assistant/approvals/${id}`, { token: t.token, body })
    const bad = await decide(movedCall.id, { approve: true, publish_at: 'tomorrow' })
    expect([bad.status, bad.body.details?.[0]?.field]).toEqual([400, 'publish_at'])
    const denyWithTime = await decide(movedCall.id, { approve: false, publish_at: chosen })
    expect(denyWithTime.status).toBe(400)
    const later = new Date(clock.now().getTime() + 3600_000).toISOString()
    expect((await decide(movedCall.id, { approve: true, publish_at: later })).status).toBe(200)
    const approved = await decide(lateCall.id, { approve: true })
    expect(approved.status, JSON.stringify(approved.body)).toBe(200)

    await expect
      .poll(async () => (await tp.json(`/v1/content/articles/${late}`, { token: t.token })).body.status, {
        timeout: 20_000,
      })
      .toBe('published')
    const movedArticle = (await tp.json(`/v1/content/articles/${moved}`, { token: t.token })).body
    expect(movedArticle).toMatchObject({ status: 'scheduled', publish_at: later })
    const turn = (await tp.json(`/v1/assistant/conversations/${conversation}`, { token: t.token })).body
    const calls = turn.messages.flatMap((m: { tool_calls?: { status: string }[] }) => m.tool_calls ?? [])
    expect(calls.map((c: { status: string }) => c.status)).toEqual(['ok', 'ok'])
  })
})

describe('an approved publication', () => {
  /**
   * A contributor's draft; the owner asks the assistant to publish it, which waits for approval.
   * `between` runs while it waits; then the owner approves. Returns what the approval answered,
   * the stored call and the article afterwards.
   */
  async function approvePublication(
    between: (t: TestTenant, contributor: TestTenant, id: string) => Promise<void>,
  ) {
    const t = await tp.createTenant()
    await addModelCredential(tp, llm, t)
    const site = await tp.json('/v1/content/sites', { token: t.token, body: { name: 'The Garden Post' } })
    const contributor = await addMember(tp, t.tenantId, 'contributor')
    const draft = await tp.json('/v1/content/articles', {
      token: contributor.token,
      body: { site_id: site.body.id, title: 'Roses in June', body: 'Prune after flowering.' },
    })
    expect(draft.status, JSON.stringify(draft.body)).toBe(201)
    const articleId = draft.body.id as string

    llm.reset([
      { toolCalls: [{ name: 'platform__publish_article', arguments: { article_id: articleId } }] },
      { text: 'Done.' },
    ])
    const conversation = await tp.json('/v1/assistant/conversations', { token: t.token, body: {} })
    const turn = await tp.json(`/v1/assistant/conversations/${conversation.body.id}/messages`, {
      token: t.token,
      body: { content: 'Publish the roses article.' },
    })
    expect(turn.body.turn?.status, JSON.stringify(turn.body)).toBe('awaiting_approval')
    const callId = turn.body.tool_calls[0].id as string

    await between(t, contributor, articleId)

    const approved = await tp.json(
      `/v1/assistant/conversations/${conversation.body.id}/approvals/${callId}`,
      { token: t.token, body: { approve: true }, instance: 1 },
    )
    expect(approved.status, JSON.stringify(approved.body)).toBe(200)
    const [call] = await tp.db.sql<{ status: string; result: string }[]>`
      select status, result from public.assistant_tool_calls where id = ${callId}`
    const article = await tp.json(`/v1/content/articles/${articleId}`, { token: t.token })
    // What the model was told after the approval: the call's result.
    const told = toolResultsText(llm.requests.at(-1)!.body)
    return { approved: approved.body, call: call!, article: article.body, told }
  }

  const toolResultsText = (body: { messages?: unknown }) =>
    (body.messages as { role: string; content: string }[])
      .filter((m) => m.role === 'tool')
      .map((m) => m.content)

  it('does not publish an article a contributor edited after approval was asked, and says why', async () => {
    const { approved, call, article, told } = await approvePublication(async (_t, contributor, id) => {
      const edited = await tp.json(`/v1/content/articles/${id}`, {
        method: 'PATCH',
        token: contributor.token,
        body: { body: 'Prune after flowering. Also: buy my pills at example.com.' },
      })
      expect(edited.status, JSON.stringify(edited.body)).toBe(200)
    })
    expect(approved.turn.status).toBe('completed')
    expect(call.status).toBe('refused')
    expect(call.result).toContain('the article changed after approval was asked')
    expect(told.at(-1)).toContain('the article changed after approval was asked')
    expect(article).toMatchObject({ status: 'draft', published_at: null })
  })

  it('publishes the article when nothing changed since approval was asked', async () => {
    const { approved, call, article } = await approvePublication(async () => {})
    expect(approved.turn.status).toBe('completed')
    expect(call.status).toBe('ok')
    expect(article).toMatchObject({ status: 'published', body: 'Prune after flowering.' })
  })
})

describe('the content tools on the tool server', () => {
  it('create and update drafts with the fields, list scheduled ones, and refuse what the API refuses', async () => {
    const { t, siteId } = await publication()
    const made = await tp.json('/api/api-keys', {
      token: t.token,
      body: {
        name: 'tools',
        environment: 'production',
        kind: 'tool_server',
        scopes: ['content:read', 'content:write'],
        rate_limit_per_minute: 100,
      },
    })
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    const key = made.body.key as string
    const call = (tool: string, params: Record<string, unknown>) =>
      tp.json('/mcp/tools/execute', { token: key, body: { tool, params } })

    const created = await call('platform:create_draft', {
      site_id: siteId,
      title: 'Pruning roses',
      body: 'Cut above an outward bud.\n\nThen feed them.',
      tags: ['garden'],
      meta_description: 'When and how to prune roses.',
    })
    expect(created.status, JSON.stringify(created.body)).toBe(200)
    const draft = created.body.result
    expect(draft).toMatchObject({
      status: 'draft',
      slug: 'pruning-roses',
      excerpt: 'Cut above an outward bud.',
      meta_description: 'When and how to prune roses.',
    })
    const taken = await call('platform:create_draft', {
      site_id: siteId,
      title: 'Again',
      slug: 'pruning-roses',
    })
    expect(JSON.stringify(taken.body)).toContain(draft.id)
    const unknownTag = await call('platform:create_draft', { site_id: siteId, title: 'X', tags: ['nope'] })
    expect([unknownTag.status, unknownTag.body.code]).toEqual([400, 'VALIDATION_ERROR'])

    const updated = await call('platform:update_article', {
      article_id: draft.id,
      excerpt: 'Prune in March.',
    })
    expect(updated.body.result).toMatchObject({ excerpt: 'Prune in March.', title: 'Pruning roses' })
    const empty = await call('platform:update_article', { article_id: draft.id })
    expect([empty.status, empty.body.code]).toEqual([400, 'VALIDATION_ERROR'])

    const past = await call('platform:schedule_article', {
      article_id: draft.id,
      publish_at: '2026-01-01T00:00:00Z',
    })
    expect([past.status, past.body.code]).toEqual([400, 'VALIDATION_ERROR'])
    const future = await call('platform:schedule_article', {
      article_id: draft.id,
      publish_at: '2027-01-01T00:00:00Z',
    })
    expect(future.body.result).toMatchObject({ status: 'scheduled' })
    const listed = await call('platform:list_content', { type: 'article', status: 'scheduled' })
    expect(listed.body.result.items.map((i: { id: string }) => i.id)).toEqual([draft.id])
  })
})
