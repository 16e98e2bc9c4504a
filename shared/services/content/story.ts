import type { Tx } from '@shared/infra/db.ts'
import type { ServiceContext } from '@shared/infra/deps.ts'
import { notFound } from '@shared/infra/errors.ts'
import type { ArticleStory, StoryStep } from './story-schema.ts'

/** Rows of each kind a story shows at most (an article edited for years keeps its newest). */
const MAX_PER_KIND = 200

/** Where each kind of step sorts when two share a timestamp: the order a story happens in. */
const rank: Record<StoryStep['kind'], number> = {
  source_item: 0,
  event_received: 1,
  automation_run: 2,
  conversation: 3,
  generation_job: 4,
  tool_call: 5,
  revision: 6,
  approval: 7,
  scheduled: 8,
  published: 9,
  unpublished: 10,
  webhook_delivery: 11,
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString())

/**
 * One article's path, in order (issue 47): the source items it was written from, the event and
 * the automation run that took them up with its conversation and tool calls, the generation job,
 * the revisions, who approved what and when, the schedule, the publish, and the webhook
 * deliveries of its events. Read as the caller under row-level security in one transaction: what
 * the caller may not see (another member's conversation) is simply not in it. Each step names its
 * record's id and the API path that reads it.
 */
export async function articleStory(ctx: ServiceContext, id: string): Promise<ArticleStory> {
  const { caller } = ctx
  if (caller.kind === 'published_key') throw notFound('Article')
  const story = await ctx.asTenant(async (tx) => {
    const [article] = await tx<{ id: string; title: string; status: string; created_at: Date }[]>`
      select id, title, status, created_at from public.articles where id = ${id} and tenant_id = ${caller.tenantId}`
    if (!article) return null
    const steps: StoryStep[] = [
      ...(await sourceSteps(tx, caller.tenantId, id)),
      ...(await eventSteps(tx, caller.tenantId, id)),
      ...(await revisionSteps(tx, caller.tenantId, id)),
    ]
    steps.push(...(await runSteps(tx, caller.tenantId, id)))
    steps.sort((a, b) => a.at.localeCompare(b.at) || rank[a.kind] - rank[b.kind])
    return {
      article: {
        id: article.id,
        title: article.title,
        status: article.status,
        created_at: iso(article.created_at)!,
      },
      steps,
    }
  })
  if (!story) throw notFound('Article')
  return story as ArticleStory
}

async function sourceSteps(tx: Tx, tenantId: string, id: string): Promise<StoryStep[]> {
  const items = await tx<
    {
      id: string
      source_id: string
      source_name: string
      title: string | null
      url: string | null
      created_at: Date
      job_id: string | null
    }[]
  >`
    select i.id, i.source_id, s.name as source_name, i.title, i.url, i.created_at, r.job_id
    from public.article_source_items r
    join public.source_items i on i.id = r.item_id and i.tenant_id = r.tenant_id
    join public.sources s on s.id = i.source_id and s.tenant_id = i.tenant_id
    where r.article_id = ${id} and r.tenant_id = ${tenantId}
    order by i.created_at, i.id limit ${MAX_PER_KIND}`
  const steps: StoryStep[] = items.map((i) => ({
    kind: 'source_item',
    at: iso(i.created_at)!,
    id: i.id,
    summary: `${i.title ?? i.url ?? 'An item'} (from ${i.source_name})`,
    link: `/api/sources/${i.source_id}/items`,
    actor: null,
  }))
  const jobIds = [...new Set(items.map((i) => i.job_id).filter((j): j is string => !!j))]
  if (jobIds.length > 0) {
    const jobs = await tx<{ id: string; status: string; created_at: Date; finished_at: Date | null }[]>`
      select id, status, created_at, finished_at from public.jobs where id = any(${jobIds}) and tenant_id = ${tenantId}`
    for (const j of jobs)
      steps.push({
        kind: 'generation_job',
        at: iso(j.created_at)!,
        id: j.id,
        summary: `Draft generated (job ${j.status}${j.finished_at ? `, finished ${iso(j.finished_at)}` : ''})`,
        link: `/api/jobs/${j.id}`,
        actor: null,
      })
  }
  return steps
}

async function revisionSteps(tx: Tx, tenantId: string, id: string): Promise<StoryStep[]> {
  const rows = await tx<
    { id: string; number: number; reason: string; created_by: string | null; created_at: Date }[]
  >`
    select id, number, reason, created_by, created_at from public.article_revisions
    where article_id = ${id} and tenant_id = ${tenantId}
    order by number desc limit ${MAX_PER_KIND}`
  return rows.map((r) => ({
    kind: 'revision',
    at: iso(r.created_at)!,
    id: r.id,
    summary: `Revision ${r.number} (${r.reason})`,
    link: `/v1/content/articles/${id}/revisions/${r.id}`,
    actor: r.created_by,
  }))
}

const eventKinds: Record<string, StoryStep['kind']> = {
  'content.scheduled': 'scheduled',
  'content.published': 'published',
  'content.unpublished': 'unpublished',
}

/** The schedule, publish and unpublish events of the article, and the webhook deliveries of all its events. */
async function eventSteps(tx: Tx, tenantId: string, id: string): Promise<StoryStep[]> {
  const events = await tx<{ id: string; type: string; data: Record<string, unknown>; created_at: Date }[]>`
    select id, type, data, created_at from public.event_outbox
    where tenant_id = ${tenantId} and data ->> 'article_id' = ${id}
    order by seq desc limit ${MAX_PER_KIND}`
  const steps: StoryStep[] = []
  for (const e of events) {
    const kind = eventKinds[e.type]
    if (!kind) continue
    const when = kind === 'scheduled' ? ` for ${String(e.data.publish_at)}` : ''
    steps.push({
      kind,
      at: iso(e.created_at)!,
      id: e.id,
      summary: `${e.type}${when}`,
      link: null,
      actor: null,
    })
  }
  if (events.length === 0) return steps
  const deliveries = await tx<
    {
      id: string
      subscription_id: string
      event_type: string
      status: string
      attempts: number
      created_at: Date
      last_attempt_at: Date | null
    }[]
  >`
    select id, subscription_id, event_type, status, attempts, created_at, last_attempt_at
    from public.webhook_deliveries
    where tenant_id = ${tenantId} and event_id = any(${events.map((e) => e.id)}) and not is_test
    order by created_at limit ${MAX_PER_KIND}`
  for (const d of deliveries)
    steps.push({
      kind: 'webhook_delivery',
      at: iso(d.last_attempt_at ?? d.created_at)!,
      id: d.id,
      summary: `${d.event_type} webhook ${d.status} after ${d.attempts} attempt${d.attempts === 1 ? '' : 's'}`,
      link: `/api/webhooks/${d.subscription_id}/deliveries`,
      actor: null,
    })
  return steps
}

/**
 * The automation run that wrote the article, found by the cause its events carry (ADR 0030) or,
 * failing that, by a tool call that named it; then the event that started the run, its
 * conversation, the tool calls about the article and the decisions on them.
 */
async function runSteps(tx: Tx, tenantId: string, id: string): Promise<StoryStep[]> {
  const [run] = await tx<
    {
      id: string
      automation_id: string
      name: string
      status: string
      created_at: Date
      conversation_id: string | null
      event_id: string | null
      event_type: string | null
    }[]
  >`
    select r.id, r.automation_id, a.name, r.status, r.created_at, r.conversation_id, r.event_id, r.event_type
    from public.assistant_automation_runs r
    join public.assistant_automations a on a.id = r.automation_id
    where r.tenant_id = ${tenantId} and r.id = coalesce(
      (select (e.cause ->> 'run_id')::uuid from public.event_outbox e
       where e.tenant_id = ${tenantId} and e.data ->> 'article_id' = ${id} and e.cause ->> 'kind' = 'automation'
       order by e.seq limit 1),
      (select r2.id from public.assistant_tool_calls c
       join public.assistant_automation_runs r2 on r2.conversation_id = c.conversation_id
       where c.tenant_id = ${tenantId} and c.arguments ->> 'article_id' = ${id}
       order by c.created_at limit 1))`
  if (!run) return []
  const steps: StoryStep[] = [
    {
      kind: 'automation_run',
      at: iso(run.created_at)!,
      id: run.id,
      summary: `Automation “${run.name}” run ${run.status}${run.event_type ? ` on ${run.event_type}` : ''}`,
      link: `/v1/assistant/automations/${run.automation_id}/runs`,
      actor: null,
    },
  ]
  if (run.event_id) {
    const [event] = await tx<{ id: string; type: string; created_at: Date }[]>`
      select id, type, created_at from public.event_outbox where id = ${run.event_id} and tenant_id = ${tenantId}`
    if (event)
      steps.push({
        kind: 'event_received',
        at: iso(event.created_at)!,
        id: event.id,
        summary: event.type,
        link: null,
        actor: null,
      })
  }
  if (!run.conversation_id) return steps
  const [conversation] = await tx<{ id: string; title: string; created_at: Date }[]>`
    select id, title, created_at from public.assistant_conversations where id = ${run.conversation_id}`
  if (!conversation) return steps
  steps.push({
    kind: 'conversation',
    at: iso(conversation.created_at)!,
    id: conversation.id,
    summary: conversation.title,
    link: `/v1/assistant/conversations/${conversation.id}`,
    actor: null,
  })
  const calls = await tx<
    {
      id: string
      tool: string
      status: string
      created_at: Date
      decided_by: string | null
      decided_at: Date | null
      decision: string | null
    }[]
  >`
    select id, tool, status, created_at, decided_by, decided_at, decision from public.assistant_tool_calls
    where conversation_id = ${conversation.id} and tenant_id = ${tenantId}
    order by created_at, position limit ${MAX_PER_KIND}`
  for (const c of calls) {
    const link = `/v1/assistant/conversations/${conversation.id}`
    steps.push({
      kind: 'tool_call',
      at: iso(c.created_at)!,
      id: c.id,
      summary: `${c.tool}: ${c.status}`,
      link,
      actor: null,
    })
    if (c.decided_at)
      steps.push({
        kind: 'approval',
        at: iso(c.decided_at)!,
        id: c.id,
        summary: `${c.tool} ${c.decision ?? 'decided'}`,
        link,
        actor: c.decided_by,
      })
  }
  return steps
}
