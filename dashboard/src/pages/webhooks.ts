import type { VNode } from 'preact'
import { useState } from 'preact/hooks'
import { api, type Page } from '../api.ts'
import { ago, when } from '../format.ts'
import {
  Action,
  canWrite,
  Field,
  Form,
  html,
  Loaded,
  ReadOnly,
  Refresh,
  SecretOnce,
  useLoad,
  useSession,
} from '../ui.tsx'

interface Webhook {
  id: string
  url: string
  events: string[]
  description: string | null
  status: 'active' | 'paused'
  paused_at: string | null
  paused_reason: 'failures' | 'manual' | null
  previous_secret_expires_at: string | null
  created_at: string
}
interface Attempt {
  id: string
  delivery_id: string
  event_id: string
  event_type: string
  attempt: number
  success: boolean
  status_code: number | null
  duration_ms: number
  request_body: string
  request_headers: Record<string, string> | null
  response_excerpt: string | null
  response_truncated: boolean
  error: string | null
  attempted_at: string
  next_attempt_at: string | null
}

interface EventType {
  type: string
  summary: string
}

/** The event catalog, read once per page load: the list a subscription may name, from the platform. */
let catalog: Promise<EventType[]> | undefined
const eventCatalog = () => {
  catalog ??= api<{ data: EventType[] }>('GET', '/api/webhooks/event-types').then(
    (r) => r.data,
    (err) => {
      catalog = undefined // a failed load is tried again next time
      throw err
    },
  )
  return catalog
}

/**
 * The events to choose from, with when each occurs. A subscribed event the catalog does not list
 * (it cannot happen today, but a save must never drop what the subscription has) stays offered.
 */
function EventChoices({
  checked,
  subscribed = [],
}: {
  checked: (type: string) => boolean
  subscribed?: string[]
}): VNode {
  const types = useLoad(eventCatalog)
  const withSubscribed = (list: EventType[]) => [
    ...list,
    ...subscribed.filter((t) => !list.some((e) => e.type === t)).map((type) => ({ type, summary: '' })),
  ]
  return html`<fieldset class="scopes"><legend>Events</legend>
    <${Loaded} state=${types}>${(list: EventType[]) =>
      html`${withSubscribed(list).map(
        (e) =>
          html`<label class="check" title=${e.summary}><input type="checkbox" name="events" value=${e.type} checked=${checked(e.type)} /> <code>${e.type}</code> <small class="muted">${e.summary}</small></label>`,
      )}`}<//>
  </fieldset>`
}

function StatusPill({ w }: { w: Webhook }): VNode {
  return html`<span class=${`pill ${w.status}`}>${w.status}${w.paused_reason ? ` (${w.paused_reason})` : ''}</span>`
}

export function WebhooksPage(): VNode {
  const session = useSession()
  const write = canWrite(session)
  const hooks = useLoad(() => api<Page<Webhook>>('GET', '/api/webhooks?limit=100'))
  const [created, setCreated] = useState<Webhook & { secret: string }>()
  return html`<section>
    <h1>Webhooks</h1>
    <p class="muted">Signed POSTs to your endpoints when events happen in <strong>${session.tenantName}</strong>.</p>
    ${
      created
        ? html`<${SecretOnce} title="Signing secret of the new webhook" value=${created.secret}
      notice="Copy it into your endpoint, which checks each delivery's signature with it. Owners and admins can see it again with Reveal secret on the subscription's page, and replace it there with Rotate secret." onDone=${() => setCreated(undefined)} />`
        : null
    }
    ${
      write
        ? html`<details class="card" open=${!hooks.data?.data.length}><summary>Add a subscription</summary>
      <${Form} label="Add a webhook subscription" submitLabel="Subscribe" submit=${async (
        d: FormData,
        f: HTMLFormElement,
      ) => {
        const hook = await api<Webhook & { secret: string }>('POST', '/api/webhooks', {
          url: String(d.get('url')).trim(),
          events: d.getAll('events').map(String),
          ...(String(d.get('description') ?? '').trim() && {
            description: String(d.get('description')).trim(),
          }),
        })
        f.reset()
        setCreated(hook)
        hooks.reload()
      }}>
        <div class="grid2">
          <${Field} label="Endpoint URL" hint="An absolute https:// address, up to 2,048 characters (plain http and loopback only on a local platform)"><input name="url" type="url" required placeholder="https://example.com/hooks" /><//>
          <${Field} label="Description (optional)" hint="Up to 500 characters, for you"><input name="description" maxlength="500" /><//>
        </div>
        <${EventChoices} checked=${(e: string) => e === 'content.published'} />
      <//></details>`
        : html`<${ReadOnly} what="the subscriptions" />`
    }
    <${Loaded} state=${hooks}>${(page: Page<Webhook>) =>
      page.data.length
        ? html`<table><caption class="sr">Subscriptions</caption>
        <thead><tr><th>Endpoint</th><th>Events</th><th>Status</th><th>Created</th></tr></thead>
        <tbody>${page.data.map(
          (w) => html`<tr>
            <td data-label="Endpoint"><a href=${`#/webhooks/${w.id}`}><code>${w.url}</code></a>${w.description ? html`<br /><small class="muted">${w.description}</small>` : null}</td>
            <td data-label="Events">${w.events.map((e) => html`<code class="tag">${e}</code> `)}</td>
            <td data-label="Status"><${StatusPill} w=${w} /></td>
            <td data-label="Created" title=${when(w.created_at)}>${ago(w.created_at)}</td>
          </tr>`,
        )}</tbody></table>`
        : html`<p class="note">No subscriptions yet. Add your endpoint above to hear about published articles and other events.</p>`}<//>
  </section>`
}

/** What one attempt sent and got back; signatures are masked by the platform before they are stored. */
function AttemptDetail({ a }: { a: Attempt }): VNode {
  return html`<details class="attempt"><summary>Request and response</summary>
    <h4>Request headers</h4>
    ${
      a.request_headers
        ? html`<pre class="mono">${Object.entries(a.request_headers)
            .map(([k, v]) => `${k}: ${v}`)
            .join('\n')}</pre>`
        : html`<p class="muted">Not kept for this attempt.</p>`
    }
    <h4>Request body</h4><pre class="mono">${a.request_body}</pre>
    <h4>Response${a.status_code ? ` (HTTP ${a.status_code})` : ''}</h4>
    ${a.response_excerpt ? html`<pre class="mono">${a.response_excerpt}</pre>` : html`<p class="muted">No body.</p>`}
    ${a.response_truncated ? html`<p class="muted">Only the first 4 KB of the response is kept.</p>` : null}
  </details>`
}

/** Changes a subscription's URL and events; the platform checks the URL as on creation. */
function EditWebhook({ w, saved }: { w: Webhook; saved: () => void }): VNode {
  return html`<details class="card"><summary>Edit URL and events</summary>
    <${Form} label="Edit the webhook subscription" submitLabel="Save" submit=${async (d: FormData) => {
      await api('PATCH', `/api/webhooks/${w.id}`, {
        url: String(d.get('url')).trim(),
        events: d.getAll('events').map(String),
      })
      saved()
    }}>
      <${Field} label="Endpoint URL" hint="An absolute https:// address, up to 2,048 characters (plain http and loopback only on a local platform)"><input name="url" type="url" required value=${w.url} /><//>
      <${EventChoices} checked=${(e: string) => w.events.includes(e)} subscribed=${w.events} />
    <//></details>`
}

export function WebhookPage({ id }: { id: string }): VNode {
  const session = useSession()
  const write = canWrite(session)
  const hook = useLoad(() => api<Webhook>('GET', `/api/webhooks/${id}`))
  const log = useLoad(() => api<Page<Attempt>>('GET', `/api/webhooks/${id}/deliveries?limit=50`))
  const [secret, setSecret] = useState<string>()
  const reload = () => {
    hook.reload()
    log.reload()
  }
  return html`<section>
    <p class="crumb"><a href="#/webhooks">Webhooks</a></p>
    <${Loaded} state=${hook}>${(w: Webhook) => html`
      <h1><code>${w.url}</code></h1>
      ${
        w.status === 'paused'
          ? html`<div class="note warn" role="status">
          Paused ${ago(w.paused_at)}${w.paused_reason === 'failures' ? ' after repeated delivery failures' : ' by hand'}: events are kept and delivered on resume.
          ${
            write
              ? html`<${Action} kind="primary" run=${async () => {
                  await api('POST', `/api/webhooks/${id}/resume`)
                  reload()
                }}>Resume<//>`
              : null
          }</div>`
          : null
      }
      <dl class="facts">
        <dt>Status</dt><dd><${StatusPill} w=${w} /></dd>
        <dt>Events</dt><dd>${w.events.map((e) => html`<code class="tag">${e}</code> `)}</dd>
        ${w.description ? html`<dt>Description</dt><dd>${w.description}</dd>` : null}
        ${w.previous_secret_expires_at ? html`<dt>Previous secret valid until</dt><dd>${when(w.previous_secret_expires_at)}</dd>` : null}
      </dl>
      ${write ? html`<${EditWebhook} key=${w.url + w.events.join()} w=${w} saved=${hook.reload} />` : html`<${ReadOnly} what="this subscription" />`}
      <div class="row wrap">
        <${Action} run=${async () => setSecret((await api<{ secret: string }>('GET', `/api/webhooks/${id}/secret`)).secret)}>Reveal secret<//>
        ${
          write
            ? html`
          <${Action} confirm="Rotate the signing secret? The old one keeps working for 24 hours so your endpoint can switch." confirmLabel="Rotate"
            run=${async () => {
              setSecret(
                (await api<{ secret: string }>('POST', `/api/webhooks/${id}/rotate-secret`, {})).secret,
              )
              hook.reload()
            }}>Rotate secret<//>
          <${Action} run=${async () => {
            await api('POST', `/api/webhooks/${id}/test`)
            setTimeout(log.reload, 800)
          }}>Send test event<//>
          ${
            w.status === 'active'
              ? html`<${Action} confirm="Pause deliveries? Events are kept and delivered when you resume." confirmLabel="Pause"
                  run=${async () => {
                    await api('POST', `/api/webhooks/${id}/pause`)
                    reload()
                  }}>Pause<//>`
              : null
          }
          <${Action} kind="danger" confirm=${`Delete the subscription to ${w.url}? Pending deliveries are dropped.`} confirmLabel="Delete"
            run=${async () => {
              await api('DELETE', `/api/webhooks/${id}`)
              location.hash = '#/webhooks'
            }}>Delete<//>`
            : null
        }
      </div>
      ${
        secret
          ? html`<div class="card secret"><label class="field"><span>Signing secret</span><input class="mono" readonly value=${secret} aria-label="Signing secret" /></label>
        <button type="button" onClick=${() => setSecret(undefined)}>Hide</button></div>`
          : null
      }
    `}<//>
    <div class="row"><h2 class="grow">Delivery log</h2>
      <${Refresh} state=${log} /></div>
    <${Loaded} state=${log}>${(page: Page<Attempt>) =>
      page.data.length
        ? html`<table class="deliveries"><caption class="sr">Delivery attempts</caption>
        <thead><tr><th>When</th><th>Event</th><th>Attempt</th><th>Result</th><th>Time</th><th><span class="sr">Actions</span></th></tr></thead>
        <tbody>${page.data.map(
          (a) => html`<tr data-event=${a.event_type}>
            <td data-label="When" title=${when(a.attempted_at)}>${ago(a.attempted_at)}</td>
            <td data-label="Event"><code>${a.event_type}</code></td>
            <td data-label="Attempt">${a.attempt}</td>
            <td data-label="Result"><span class=${`pill ${a.success ? 'ok' : 'bad'}`}>${a.success ? 'delivered' : 'failed'}</span>
              ${a.status_code ?? ''} ${a.error ? html`<br /><small>${a.error}</small>` : null}
              ${a.next_attempt_at ? html`<br /><small class="muted">retry ${ago(a.next_attempt_at)}</small>` : null}
              <${AttemptDetail} a=${a} /></td>
            <td data-label="Time">${a.duration_ms} ms</td>
            <td>${
              write
                ? html`<${Action} label=${`Redeliver ${a.event_type}`} run=${async () => {
                    await api('POST', `/api/webhooks/${id}/redeliver`, { event_id: a.event_id })
                    setTimeout(log.reload, 800)
                  }}>Redeliver<//>`
                : null
            }</td>
          </tr>`,
        )}</tbody></table>`
        : html`<p class="muted">No deliveries yet: press <strong>Send test event</strong>, or publish an article.</p>`}<//>
  </section>`
}
