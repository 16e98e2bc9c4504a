import type { VNode } from 'preact'
import { useState } from 'preact/hooks'
import {
  type Hour,
  listApiKeys,
  type RequestLogEntry,
  requestLogPage,
  useKeyRequests,
} from '../data/api-keys.ts'
import { useLoad } from '../data/load.ts'
import { ago, num, when } from '../format.ts'
import { ErrorNote, Loaded, Refresh, useSession } from '../ui.tsx'

const tone = (status: number) => (status >= 500 ? 'bad' : status >= 400 ? 'paused' : 'ok')

function rateText(e: RequestLogEntry): string {
  if (e.rate_limit === 'limited')
    return e.requests > 1 ? `over the limit: ${num(e.requests)} requests refused` : 'over the limit'
  if (e.rate_limit === 'allowed')
    return e.rate_remaining === null ? 'within' : `${num(e.rate_remaining)} left`
  return '—'
}

const quotaText = (e: RequestLogEntry) =>
  e.quota === 'exceeded' ? 'quota used up' : e.quota === 'counted' ? 'counted' : 'not metered'

/** Rows of the log: when, what, the answer, who, how long, and the rate-limit and quota outcome. */
function RequestTable({ rows, caption }: { rows: RequestLogEntry[]; caption: string }): VNode {
  return (
    <table class="request-log">
      <caption class="sr">{caption}</caption>
      <thead>
        <tr>
          <th>Time</th>
          <th>Request</th>
          <th>Status</th>
          <th>Key or member</th>
          <th>Latency</th>
          <th>Rate limit</th>
          <th>Quota</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((e) => (
          <tr data-request={e.request_id}>
            <td data-label="Time" title={when(e.at)}>
              {ago(e.at)}
            </td>
            <td data-label="Request">
              <code>
                {e.method} {e.path}
              </code>
              <br />
              <small class="muted mono" title="X-Request-Id">
                {e.request_id}
              </small>
            </td>
            <td data-label="Status">
              <span class={`pill ${tone(e.status)}`}>{e.status}</span>
            </td>
            <td data-label="Key or member">
              {e.key_id ? (
                <>
                  <a href={`#/keys/${e.key_id}`}>{e.key_name ?? <code>{e.key_id.slice(0, 8)}</code>}</a>
                  {e.user_name ? <small class="muted"> {`(${e.user_name}'s key)`}</small> : null}
                </>
              ) : (
                <>
                  {e.user_name ?? 'a former member'} <small class="muted">signed in</small>
                </>
              )}
            </td>
            <td data-label="Latency">{num(e.latency_ms)} ms</td>
            <td data-label="Rate limit" class={e.rate_limit === 'limited' ? 'bad-text' : ''}>
              {rateText(e)}
            </td>
            <td data-label="Quota" class={e.quota === 'exceeded' ? 'bad-text' : ''}>
              {quotaText(e)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

const statusFilters: [string, string][] = [
  ['', 'All'],
  ['2xx', 'Succeeded (2xx)'],
  ['4xx', 'Refused (4xx)'],
  ['429', 'Too many (429)'],
  ['5xx', 'Failed (5xx)'],
]

/** The workspace's requests, newest first, by key, status and path. */
export function RequestLogPage({ initialKey = '' }: { initialKey?: string }): VNode {
  const session = useSession()
  const [keyId, setKeyId] = useState(initialKey)
  const [status, setStatus] = useState('')
  const [path, setPath] = useState('')
  const [more, setMore] = useState<{ rows: RequestLogEntry[]; cursor: string | null; error?: unknown }>({
    rows: [],
    cursor: null,
  })
  const keys = useLoad(listApiKeys)
  const query = (cursor?: string | null) => ({
    ...(keyId && { key_id: keyId }),
    ...(status && { status }),
    ...(path && { path }),
    ...(cursor && { cursor }),
  })
  const log = useLoad(async () => {
    const page = await requestLogPage(query())
    setMore({ rows: [], cursor: page.next_cursor ?? null })
    return page
  }, [keyId, status, path])
  const loadMore = async () => {
    try {
      const page = await requestLogPage(query(more.cursor))
      setMore({ rows: [...more.rows, ...page.data], cursor: page.next_cursor ?? null })
    } catch (error) {
      setMore({ ...more, error })
    }
  }
  const [draft, setDraft] = useState('')
  const onPath = (e: Event) => {
    e.preventDefault()
    const value = draft.trim()
    setPath(value && !value.startsWith('/') ? `/${value}` : value)
  }
  const who =
    session.role === 'member'
      ? 'As a member you see the requests made as you: signed in, or with keys you created.'
      : 'Owners and admins see every request.'
  return (
    <section>
      <h1>Request log</h1>
      <p class="muted">
        The API requests of <strong>{session.tenantName}</strong>, made with its keys or by its members. {who}
        {
          ' A request appears here within about a second and is kept 30 days (the operator may set another period).'
        }
      </p>
      <div class="row wrap">
        <label class="field inline">
          <span>Key</span>
          <select
            aria-label="Key"
            value={keyId}
            key={keys.data ? 'keys' : 'loading'}
            onChange={(e: Event) => setKeyId((e.target as HTMLSelectElement).value)}
          >
            <option value="">All keys and members</option>
            {keys.data?.data.map((k) => (
              <option value={k.id}>
                {k.name} ({k.key_prefix}…)
              </option>
            ))}
          </select>
        </label>
        <label class="field inline">
          <span>Status</span>
          <select
            aria-label="Status"
            value={status}
            onChange={(e: Event) => setStatus((e.target as HTMLSelectElement).value)}
          >
            {statusFilters.map(([v, label]) => (
              <option value={v}>{label}</option>
            ))}
          </select>
        </label>
        <form class="row" onSubmit={onPath} role="search" aria-label="Filter by path">
          <label class="field inline">
            <span>Path starts with</span>
            <input
              name="path"
              maxlength={512}
              placeholder="/v1/content"
              value={draft}
              onInput={(e: Event) => setDraft((e.target as HTMLInputElement).value)}
            />
          </label>
          <button type="submit">Filter</button>
        </form>
        <span class="grow"></span>
        <Refresh state={log} />
      </div>
      <Loaded state={log}>
        {(page) =>
          page.data.length ? (
            <>
              <RequestTable rows={[...page.data, ...more.rows]} caption="Requests" />
              {more.error ? <ErrorNote error={more.error} /> : null}
              {more.cursor ? (
                <button type="button" onClick={loadMore}>
                  Older requests
                </button>
              ) : null}
            </>
          ) : keyId || status || path ? (
            <p class="muted">No requests match.</p>
          ) : (
            <p class="note">
              No requests yet. They appear here when a key calls the API (<a href="#/keys">API keys</a>) or a
              member works in the dashboard.
            </p>
          )
        }
      </Loaded>
    </section>
  )
}

/**
 * A key's last 24 hours in plain SVG, one bar per hour: the requests, and in another colour the
 * part that was refused (4xx and 5xx). Each bar carries its numbers as a title.
 */
function HourlyChart({ hours }: { hours: Hour[] }): VNode {
  const W = 320
  const H = 140
  const pad = { left: 34, right: 6, top: 16, bottom: 18 }
  const total = hours.reduce((n, h) => n + h.requests, 0)
  const errors = hours.reduce((n, h) => n + h.errors, 0)
  const top = Math.max(1, ...hours.map((h) => h.requests))
  const x = (i: number) => pad.left + (i * (W - pad.left - pad.right)) / hours.length
  const y = (v: number) => H - pad.bottom - (v / top) * (H - pad.top - pad.bottom)
  const bw = Math.max(1, (W - pad.left - pad.right) / hours.length - 2)
  const hh = (iso: string | undefined) => (iso ? new Date(iso).toTimeString().slice(0, 5) : '')
  return (
    <figure class="daily hourly">
      <figcaption>
        <strong>Last 24 hours</strong>{' '}
        <span class="muted">
          {num(total)} requests · {num(errors)} refused or failed
        </span>
      </figcaption>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={`Last 24 hours: ${num(total)} requests, ${num(errors)} refused or failed`}
      >
        <line class="axis" x1={pad.left} x2={W - pad.right} y1={y(0)} y2={y(0)} />
        <text class="label" x={pad.left - 4} y={y(top) + 4} text-anchor="end">
          {num(top)}
        </text>
        <text class="label" x={pad.left - 4} y={y(0)} text-anchor="end">
          0
        </text>
        {hours.map((h, i) => (
          <g>
            <rect
              class="day"
              x={x(i) + 1}
              y={y(h.requests)}
              width={bw}
              height={Math.max(0, y(0) - y(h.requests))}
            />
            <rect
              class="err"
              x={x(i) + 1}
              y={y(h.errors)}
              width={bw}
              height={Math.max(0, y(0) - y(h.errors))}
            />
            <title>
              {when(h.hour)}: {num(h.requests)} requests, {num(h.errors)} refused or failed (
              {num(h.rate_limited)} over the rate limit, {num(h.quota_exceeded)} past the quota)
            </title>
          </g>
        ))}
        <text class="label" x={x(0)} y={H - 4}>
          24 h ago ({hh(hours[0]?.hour)})
        </text>
        <text class="label" x={W - pad.right} y={H - 4} text-anchor="end">
          this hour
        </text>
      </svg>
    </figure>
  )
}

/** A key's page section: its 24-hour chart and its latest requests. */
export function KeyRequests({ keyId }: { keyId: string }): VNode {
  const member = useSession().role === 'member'
  const data = useKeyRequests(keyId)
  return (
    <>
      <div class="row">
        <h2 class="grow">Requests</h2>
        <Refresh state={data} />
      </div>
      <Loaded state={data}>
        {(d) => (
          <>
            <div class="charts">
              <HourlyChart hours={d.hours} />
            </div>
            {d.recent.length ? (
              <>
                <RequestTable rows={d.recent} caption="Latest requests of this key" />
                <p>
                  <a href={`#/request-log/${keyId}`}>All of this key's requests in the request log</a>
                </p>
              </>
            ) : (
              <p class="muted">No requests with this key yet{member ? ' that you can see' : ''}.</p>
            )}
          </>
        )}
      </Loaded>
    </>
  )
}
