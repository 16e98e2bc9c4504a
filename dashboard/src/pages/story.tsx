/**
 * An article's story (#/story/<article id>): where it came from and what happened to it, in order
 * (GET /v1/content/articles/{id}/story): the source items, the event and the automation run that
 * took them up, its conversation and tool calls, the generation job, the revisions, who approved
 * what and when, the schedule, the publish and the webhook deliveries. Each step links to the
 * page that shows its record and names the record's id.
 */
import type { VNode } from 'preact'
import { type Story, type StoryStep, useStory } from '../data/content.ts'
import { useMembers } from '../data/team.ts'
import { Loaded, Refresh } from '../ui.tsx'

const labels: Record<string, string> = {
  source_item: 'Source item',
  event_received: 'Event',
  automation_run: 'Automation run',
  conversation: 'Conversation',
  generation_job: 'Generated',
  tool_call: 'Tool call',
  revision: 'Revision',
  approval: 'Approval',
  scheduled: 'Scheduled',
  published: 'Published',
  unpublished: 'Unpublished',
  webhook_delivery: 'Webhook',
}

/** The dashboard page that shows a step's record (the API path is in the step's link). */
function pageOf(step: StoryStep, articleId: string): string | null {
  const conversation = /\/v1\/assistant\/conversations\/([0-9a-f-]{36})/.exec(step.link ?? '')?.[1]
  const subscription = /\/api\/webhooks\/([0-9a-f-]{36})\//.exec(step.link ?? '')?.[1]
  switch (step.kind) {
    case 'source_item':
      return '#/sources'
    case 'automation_run':
      return '#/assistant'
    case 'conversation':
    case 'tool_call':
    case 'approval':
      return conversation ? `#/assistant/${conversation}` : null
    case 'generation_job':
      return '#/jobs'
    case 'revision':
    case 'scheduled':
    case 'published':
    case 'unpublished':
      return `#/articles/${articleId}`
    case 'webhook_delivery':
      return subscription ? `#/webhooks/${subscription}` : null
    default:
      return null
  }
}

/** Exact to the second: a story's steps are often seconds apart. */
const clock = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' })

/** "+3.2 s", "+4 min 5 s" after the story's first step. */
function since(first: string, iso: string): string {
  const ms = new Date(iso).getTime() - new Date(first).getTime()
  if (ms < 60_000) return `+${(ms / 1000).toFixed(1)} s`
  const min = Math.floor(ms / 60_000)
  return min < 120 ? `+${min} min ${Math.round((ms % 60_000) / 1000)} s` : `+${Math.round(min / 60)} h`
}

export function StoryPage({ id }: { id: string }): VNode {
  const story = useStory(id)
  // Who approved or edited: members by e-mail (an id stays an id for someone who left, or when
  // the member list is not readable).
  const members = useMembers()
  const who = (userId: string | null | undefined) =>
    userId ? (members.data?.data.find((m) => m.user_id === userId)?.email ?? userId) : null
  return (
    <main>
      <Loaded state={story}>
        {(s: Story) => (
          <>
            <h1>Story of “{s.article.title}”</h1>
            <p class="muted">
              {s.article.status} · <a href={`#/articles/${s.article.id}`}>Open in the editor</a> ·{' '}
              <Refresh state={story} />
            </p>
            {s.steps.length === 0 ? (
              <p class="muted">Nothing recorded yet beyond the article itself.</p>
            ) : (
              <ol class="story card" aria-label="Story" style="list-style:none;padding:0">
                {s.steps.map((step) => (
                  <Step step={step} first={s.steps[0]!.at} articleId={s.article.id} actor={who(step.actor)} />
                ))}
              </ol>
            )}
          </>
        )}
      </Loaded>
    </main>
  )
}

function Step({
  step,
  first,
  articleId,
  actor,
}: {
  step: StoryStep
  first: string
  articleId: string
  actor: string | null
}): VNode {
  const page = pageOf(step, articleId)
  return (
    <li
      data-kind={step.kind}
      style="padding:.6rem .8rem;border-bottom:1px solid var(--line, #ddd);overflow-wrap:anywhere"
    >
      <div>
        <strong>{labels[step.kind] ?? step.kind}</strong>
        <small class="muted" style="white-space:nowrap">
          {' '}
          {clock(step.at)} · {since(first, step.at)}
        </small>
      </div>
      <div>
        {step.summary}
        {actor ? <span class="muted"> by {actor}</span> : null}
      </div>
      <small class="muted">
        {page ? (
          <>
            <a href={page}>Open</a> ·{' '}
          </>
        ) : null}
        record <code>{step.id}</code>
        {step.link ? (
          <>
            {' '}
            · <code>{step.link}</code>
          </>
        ) : null}
      </small>
    </li>
  )
}
