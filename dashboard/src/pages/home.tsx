/**
 * Home: first what needs this member today (data/today.ts: drafts waiting for review, approvals,
 * failed deliveries, quota warnings; a writer's own drafts), each a count and a link; then, for
 * owners and admins, the first-run checklist. Each step reads the tenant's real state from the API
 * (is there a site, a source, ...), links to its page and ticks itself once done.
 */
import type { VNode } from 'preact'
import { checks } from '../data/checklist.ts'
import { useLoad } from '../data/load.ts'
import { type Need, readNeeds } from '../data/today.ts'
import { Loaded, type Session, useSession } from '../ui.tsx'

interface Step {
  id: string
  title: string
  why: string
  href: string
  action: string
  /** Whether the step is done, from one read of the API. */
  done: () => Promise<boolean>
}

const steps: Step[] = [
  {
    id: 'site',
    title: 'Create a site',
    why: 'Articles, sources and affiliate destinations all belong to a site.',
    href: '#/sites',
    action: 'Create a site',
    done: checks.site,
  },
  {
    id: 'source',
    title: 'Add a source',
    why: 'A feed or social profile whose posts become material for articles.',
    href: '#/sources',
    action: 'Add a source',
    done: checks.source,
  },
  {
    id: 'integration',
    title: 'Connect an integration',
    why: 'Slack, GitHub, Notion and more, or your own MCP server, as tools for the assistant.',
    href: '#/integrations',
    action: 'Browse integrations',
    done: checks.integration,
  },
  {
    id: 'ai-credential',
    title: 'Add an AI credential',
    why: 'Your OpenAI or Anthropic key, kept in the vault, writes the generated drafts.',
    href: '#/credentials',
    action: 'Add a credential',
    done: checks.aiCredential,
  },
  {
    id: 'api-key',
    title: 'Create an API key',
    why: 'For your site or build to read content, or for an AI client on the tool server.',
    href: '#/keys',
    action: 'Create a key',
    done: checks.apiKey,
  },
  {
    id: 'webhook',
    title: 'Subscribe a webhook',
    why: 'Hear about published articles and other events at your own endpoint.',
    href: '#/webhooks',
    action: 'Add a webhook',
    done: checks.webhook,
  },
]

/** Every step's state; a step whose read failed (a member may not read keys) shows as unknown. */
async function readSteps(): Promise<Record<string, boolean | 'unknown'>> {
  const results = await Promise.allSettled(steps.map((s) => s.done()))
  return Object.fromEntries(
    steps.map((s, i) => {
      const r = results[i]!
      return [s.id, r.status === 'fulfilled' ? r.value : 'unknown']
    }),
  )
}

/** The workspace's set-up is its owners' and admins' task: the others never see the checklist. */
const setsUp = (s: Session) => s.role === 'owner' || s.role === 'admin'

const intro: Record<Session['role'], string> = {
  owner: 'What needs you today, then setting the workspace up.',
  admin: 'What needs you today, then setting the workspace up.',
  member: 'What needs an editor today.',
  contributor: 'Your writing: drafts in progress and those with the editors.',
}

function Today(): VNode {
  const session = useSession()
  const needs = useLoad(() => readNeeds(session), [session.role, session.userId])
  return (
    <section class="today" aria-labelledby="today-heading">
      <h2 id="today-heading">Needs you today</h2>
      <p class="muted">{intro[session.role]}</p>
      <Loaded state={needs}>
        {(list) => (
          <ul class="needs" aria-label="Needs you today">
            {list.map((n) => (
              <NeedLine n={n} />
            ))}
          </ul>
        )}
      </Loaded>
    </section>
  )
}

function NeedLine({ n }: { n: Need }): VNode {
  const shown = `${n.count}${n.more ? '+' : ''}`
  return (
    <li data-need={n.id} class={n.count > 0 ? (n.tone ?? 'due') : 'clear'}>
      <a href={n.href}>
        <span class="need-count" aria-hidden="true">
          {shown}
        </span>
        <span>
          <span class="sr">{shown} </span>
          {n.count === 1 && !n.more ? n.one : n.label}
        </span>
      </a>
    </li>
  )
}

export function HomePage(): VNode {
  const session = useSession()
  return (
    <section>
      <h1>Welcome to {session.tenantName}</h1>
      <Today />
      {setsUp(session) ? <Checklist /> : null}
    </section>
  )
}

function Checklist(): VNode {
  const state = useLoad(readSteps)
  return (
    <section aria-labelledby="setup-heading">
      <h2 id="setup-heading">Getting started</h2>
      <Loaded state={state}>
        {(done) => {
          const count = steps.filter((s) => done[s.id] === true).length
          return (
            <>
              <p class="muted">
                {count === steps.length
                  ? 'All set: every step is done.'
                  : `Getting started: ${count} of ${steps.length} steps done.`}
              </p>
              <ol class="checklist" aria-label="Getting started">
                {steps.map((s) => (
                  <li class={done[s.id] === true ? 'done' : ''} data-step={s.id}>
                    <span class="tick" aria-hidden="true">
                      {done[s.id] === true ? '✓' : ''}
                    </span>
                    <span class="grow">
                      <a href={s.href}>
                        <strong>{s.title}</strong>
                      </a>
                      <span class="sr">
                        {done[s.id] === true
                          ? ' (done)'
                          : done[s.id] === 'unknown'
                            ? ' (could not check)'
                            : ' (to do)'}
                      </span>
                      <br />
                      <small class="muted">{s.why}</small>
                    </span>
                    {done[s.id] === true ? (
                      <span class="pill ok">done</span>
                    ) : done[s.id] === 'unknown' ? (
                      <span class="pill" title="Your role cannot read this">
                        ?
                      </span>
                    ) : (
                      <a class="button" href={s.href}>
                        {s.action}
                      </a>
                    )}
                  </li>
                ))}
              </ol>
            </>
          )
        }}
      </Loaded>
    </section>
  )
}
