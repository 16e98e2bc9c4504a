import type { VNode } from 'preact'
import { useState } from 'preact/hooks'
import { listContent } from '../data/content.ts'
import { type Job, type JobStatus, namedLists, useJobs } from '../data/jobs.ts'
import { useLoad } from '../data/load.ts'
import { ago, when } from '../format.ts'
import { Loaded, Refresh, useSession } from '../ui.tsx'

/** The pipeline's job kinds, as people call them. */
const pipelineKinds: Record<string, string> = {
  'scrape-social.source': 'Scrape a source',
  'generate-article.article': 'Generate an article',
  'sync-affiliate.destination': 'Sync affiliate catalogs',
}
const ASSISTANT_TURN = 'assistant.turn'
const kinds: Record<string, string> = { ...pipelineKinds, [ASSISTANT_TURN]: 'Assistant turn' }

/**
 * What the Kind filter offers: by default the work that runs by itself or in the background
 * (scrapes, generations, syncs and automations' runs), leaving out the turns of chat messages, one
 * a message, which would bury it; the pipeline alone, each kind alone, and everything.
 */
const BACKGROUND = 'background'
const PIPELINE = Object.keys(pipelineKinds).join(',')
const kindFilters: [string, string][] = [
  [BACKGROUND, 'Background work and automations'],
  [PIPELINE, 'Pipeline work'],
  ...Object.entries(pipelineKinds),
  [ASSISTANT_TURN, 'Assistant turns (chats and automations)'],
  ['', 'Everything'],
]

/** Who asked for a job: a member (in a request, a chat or an approval), or the schedule (an automation's turn). */
function asker(j: Job): string {
  if (j.created_by) return ''
  return j.kind === ASSISTANT_TURN ? 'an automation' : 'scheduled'
}
const statusClass: Record<JobStatus, string> = {
  queued: '',
  running: 'pending',
  succeeded: 'ok',
  failed: 'bad',
}

/** What a job did or is doing, in one line. */
function progress(j: Job): string {
  if (j.status === 'queued')
    return j.attempts
      ? `retry ${ago(j.run_after)} (attempt ${j.attempts + 1} of ${j.max_attempts})`
      : 'waiting'
  if (j.status === 'running') return `running since ${ago(j.started_at)}`
  return `${j.status === 'succeeded' ? 'done' : 'gave up'} ${ago(j.finished_at)} after ${j.attempts} attempt${j.attempts === 1 ? '' : 's'}`
}

/**
 * Names of what the listed jobs work on (sources, destinations, sites), by id; empty while loading
 * or refused. Only the lists some job needs are read (the sites list is a metered Content API call).
 */
function useSubjects(jobs: Job[] | undefined) {
  const needs = (key: string) => Boolean(jobs?.some((j) => key in j.input))
  const wanted = (Object.keys(namedLists) as (keyof typeof namedLists)[]).filter(needs)
  const names = useLoad(async () => {
    const lists = await Promise.allSettled(
      wanted.map((key) => namedLists[key]() as Promise<{ data: { id: string; name?: string }[] }>),
    )
    const byId = new Map<string, string>()
    for (const l of lists)
      if (l.status === 'fulfilled') for (const r of l.value.data) byId.set(r.id, r.name ?? '')
    return byId
  }, [wanted.join(' ')])
  return (id: unknown) => (typeof id === 'string' ? names.data?.get(id) : undefined)
}

/** What a job worked on: "source Company blog", "destination Deals", "site Tech blog, from 3 items". */
function subject(j: Job, name: (id: unknown) => string | undefined): VNode | null {
  const { source_id, destination_id, site_id, item_ids, conversation_id } = j.input as Record<string, unknown>
  const link = (href: string, id: unknown, what: string) => (
    <>
      {what} <a href={href}>{name(id) ?? <code>{String(id).slice(0, 8)}</code>}</a>
    </>
  )
  if (conversation_id)
    return (
      <>
        in{' '}
        <a href={`#/assistant/${conversation_id}`}>
          {j.input.resumed ? 'the conversation, after an approval' : 'the conversation'}
        </a>
      </>
    )
  if (source_id) return link('#/sources', source_id, 'source')
  if (destination_id) return link('#/affiliate', destination_id, 'destination')
  if (site_id)
    return (
      <>
        {link(`#/sites/${site_id}`, site_id, 'site')}
        {Array.isArray(item_ids) ? `, from ${item_ids.length} item${item_ids.length === 1 ? '' : 's'}` : ''}
      </>
    )
  return null
}

/**
 * The next scheduled publishes: the publish-scheduled job takes each live within 10 seconds of its
 * time (every minute where pg_cron is older than 1.5); they are articles, not jobs, so they are
 * listed here beside the jobs rather than in the table.
 */
function ScheduledPublishes(): VNode {
  const due = useLoad(() =>
    listContent({ type: 'article', status: 'scheduled', order: 'newest', limit: 10, formats: 'markdown' }),
  )
  return (
    <Loaded state={due}>
      {(page) =>
        page.data.length ? (
          <details class="card" open>
            <summary>
              Scheduled publishes ({page.data.length === 10 ? '10 or more' : page.data.length})
            </summary>
            <ul class="plain" aria-label="Scheduled publishes">
              {[...page.data]
                .sort((x, y) => (x.publish_at ?? '').localeCompare(y.publish_at ?? ''))
                .map((a) => (
                  <li>
                    <a href={`#/articles/${a.id}`}>{a.title}</a>{' '}
                    <small class="muted" title={a.publish_at ? when(a.publish_at) : ''}>
                      goes live {a.publish_at ? ago(a.publish_at) : ''}
                    </small>
                  </li>
                ))}
            </ul>
          </details>
        ) : (
          <></>
        )
      }
    </Loaded>
  )
}

export function JobsPage(): VNode {
  const session = useSession()
  const [kind, setKind] = useState(BACKGROUND)
  const [status, setStatus] = useState<JobStatus | ''>('')
  const jobs = useJobs({
    ...(kind === BACKGROUND ? { origin: 'background' as const } : kind && { kind }),
    ...(status && { status }),
  })
  const name = useSubjects(jobs.data?.data)
  return (
    <section>
      <h1>Jobs</h1>
      <p class="muted">
        Background work of <strong>{session.tenantName}</strong>: scrapes, generated articles, affiliate syncs
        and automations' runs, whether asked for or scheduled; the turns of chat messages (one per message)
        are under <em>Assistant turns</em>. A job that fails for a reason that may pass is retried with
        backoff.
      </p>
      <div class="row wrap">
        <label class="field inline">
          <span>Kind</span>
          <select
            aria-label="Job kind"
            value={kind}
            onChange={(e: Event) => setKind((e.target as HTMLSelectElement).value)}
          >
            {kindFilters.map(([k, label]) => (
              <option value={k}>{label}</option>
            ))}
          </select>
        </label>
        <label class="field inline">
          <span>Status</span>
          <select
            aria-label="Job status"
            value={status}
            onChange={(e: Event) => setStatus((e.target as HTMLSelectElement).value as JobStatus | '')}
          >
            <option value="">All</option>
            <option value="queued">Queued</option>
            <option value="running">Running</option>
            <option value="succeeded">Succeeded</option>
            <option value="failed">Failed</option>
          </select>
        </label>
        <span class="grow"></span>
        <Refresh state={jobs} />
      </div>
      <ScheduledPublishes />
      <Loaded state={jobs}>
        {(page) =>
          page.data.length ? (
            <table>
              <caption class="sr">Jobs</caption>
              <thead>
                <tr>
                  <th>Job</th>
                  <th>Status</th>
                  <th>Progress</th>
                  <th>Asked</th>
                  <th>Details</th>
                </tr>
              </thead>
              <tbody>
                {page.data.map((j) => (
                  <tr data-kind={j.kind}>
                    <td data-label="Job">
                      {kinds[j.kind] ?? <code>{j.kind}</code>}
                      <br />
                      <small class="subject">{subject(j, name)}</small>
                      {j.result && typeof j.result === 'object' && 'article_id' in j.result ? (
                        <>
                          <br />
                          <small>
                            <a href={`#/articles/${(j.result as { article_id: string }).article_id}`}>
                              the draft
                            </a>
                          </small>
                        </>
                      ) : null}
                    </td>
                    <td data-label="Status">
                      <span class={`pill ${statusClass[j.status]}`}>{j.status}</span>
                    </td>
                    <td data-label="Progress">
                      {progress(j)}
                      {j.error ? (
                        <>
                          <br />
                          <small>{j.error}</small>
                        </>
                      ) : null}
                    </td>
                    <td data-label="Asked" title={when(j.created_at)}>
                      {ago(j.created_at)}
                      {asker(j) ? (
                        <>
                          <br />
                          <small class="muted">{asker(j)}</small>
                        </>
                      ) : null}
                    </td>
                    <td data-label="Details">
                      <details>
                        <summary>Input and result</summary>
                        <pre class="mono">
                          {JSON.stringify({ input: j.input, result: j.result }, null, 2)}
                        </pre>
                      </details>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : kind !== BACKGROUND || status ? (
            <p class="muted">No jobs match.</p>
          ) : (
            <p class="note">
              No jobs yet. They appear when a source is scraped, an affiliate destination synced or a draft
              generated: add a source under <a href="#/sources">Sources</a>.
            </p>
          )
        }
      </Loaded>
    </section>
  )
}
