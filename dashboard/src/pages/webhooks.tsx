import type { VNode } from 'preact'
import { useState } from 'preact/hooks'
import { useLoad } from '../data/load.ts'
import {
  type Attempt,
  createWebhook,
  deleteWebhook,
  type EventType,
  eventTypes,
  pauseWebhook,
  redeliver,
  resumeWebhook,
  rotateWebhookSecret,
  testWebhook,
  updateWebhook,
  useDeliveries,
  useWebhook,
  useWebhooks,
  type Webhook,
  type WebhookEvents,
  webhookSecret,
} from '../data/webhooks.ts'
import { ago, when } from '../format.ts'
import { Action, canWrite, Field, Form, Loaded, ReadOnly, Refresh, SecretOnce, useSession } from '../ui.tsx'

/** The event catalog, read once per page load: the list a subscription may name, from the platform. */
let catalog: Promise<EventType[]> | undefined
const eventCatalog = () => {
  catalog ??= eventTypes().then(
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
  return (
    <fieldset class="scopes">
      <legend>Events</legend>
      <Loaded state={types}>
        {(list: EventType[]) => (
          <>
            {withSubscribed(list).map((e) => (
              <label class="check" title={e.summary}>
                <input type="checkbox" name="events" value={e.type} checked={checked(e.type)} />{' '}
                <code>{e.type}</code> <small class="muted">{e.summary}</small>
              </label>
            ))}
          </>
        )}
      </Loaded>
    </fieldset>
  )
}

function StatusPill({ w }: { w: Webhook }): VNode {
  return (
    <span class={`pill ${w.status}`}>
      {w.status}
      {w.paused_reason ? ` (${w.paused_reason})` : ''}
    </span>
  )
}

export function WebhooksPage(): VNode {
  const session = useSession()
  const write = canWrite(session)
  const hooks = useWebhooks()
  const [created, setCreated] = useState<Awaited<ReturnType<typeof createWebhook>>>()
  return (
    <section>
      <h1>Webhooks</h1>
      <p class="muted">
        Signed POSTs to your endpoints when events happen in <strong>{session.tenantName}</strong>.
      </p>
      {created ? (
        <SecretOnce
          title="Signing secret of the new webhook"
          value={created.secret}
          notice="Copy it into your endpoint, which checks each delivery's signature with it. Owners and admins can see it again with Reveal secret on the subscription's page, and replace it there with Rotate secret."
          onDone={() => setCreated(undefined)}
        />
      ) : null}
      {write ? (
        <details class="card" open={!hooks.data?.data.length}>
          <summary>Add a subscription</summary>
          <Form
            label="Add a webhook subscription"
            submitLabel="Subscribe"
            submit={async (d: FormData, f: HTMLFormElement) => {
              const hook = await createWebhook({
                url: String(d.get('url')).trim(),
                // The choices are the platform's catalog (EventChoices); the API checks them again.
                events: d.getAll('events').map(String) as WebhookEvents,
                ...(String(d.get('description') ?? '').trim() && {
                  description: String(d.get('description')).trim(),
                }),
              })
              f.reset()
              setCreated(hook)
              hooks.reload()
            }}
          >
            <div class="grid2">
              <Field
                label="Endpoint URL"
                hint="An absolute https:// address, up to 2,048 characters (plain http and loopback only on a local platform)"
              >
                <input name="url" type="url" required placeholder="https://example.com/hooks" />
              </Field>
              <Field label="Description (optional)" hint="Up to 500 characters, for you">
                <input name="description" maxlength={500} />
              </Field>
            </div>
            <EventChoices checked={(e: string) => e === 'content.published'} />
          </Form>
        </details>
      ) : (
        <ReadOnly what="the subscriptions" />
      )}
      <Loaded state={hooks}>
        {(page) =>
          page.data.length ? (
            <table>
              <caption class="sr">Subscriptions</caption>
              <thead>
                <tr>
                  <th>Endpoint</th>
                  <th>Events</th>
                  <th>Status</th>
                  <th>Created</th>
                </tr>
              </thead>
              <tbody>
                {page.data.map((w) => (
                  <tr>
                    <td data-label="Endpoint">
                      <a href={`#/webhooks/${w.id}`}>
                        <code>{w.url}</code>
                      </a>
                      {w.description ? (
                        <>
                          <br />
                          <small class="muted">{w.description}</small>
                        </>
                      ) : null}
                    </td>
                    <td data-label="Events">
                      {w.events.map((e) => (
                        <>
                          <code class="tag">{e}</code>{' '}
                        </>
                      ))}
                    </td>
                    <td data-label="Status">
                      <StatusPill w={w} />
                    </td>
                    <td data-label="Created" title={when(w.created_at)}>
                      {ago(w.created_at)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p class="note">
              No subscriptions yet. Add your endpoint above to hear about published articles and other events.
            </p>
          )
        }
      </Loaded>
    </section>
  )
}

/** What one attempt sent and got back; signatures are masked by the platform before they are stored. */
/**
 * What became of a failed attempt: the retry it planned while that is still to come, else how the
 * delivery ended (a later attempt delivered it, or the schedule gave up). A row never promises a
 * retry that has already happened.
 */
function RetryNote({ a }: { a: Attempt }): VNode | null {
  let note: string | null = null
  if (a.delivery_status === 'succeeded') note = 'delivered on a later attempt'
  else if (a.delivery_status === 'failed') note = a.latest ? 'no more retries' : 'retried; gave up later'
  else if (!a.latest) note = 'retried'
  else if (a.next_attempt_at) note = `retry ${ago(a.next_attempt_at)}`
  return note ? (
    <>
      <br />
      <small class="muted">{note}</small>
    </>
  ) : null
}

function AttemptDetail({ a }: { a: Attempt }): VNode {
  return (
    <details class="attempt">
      <summary>Request and response</summary>
      <h4>Request headers</h4>
      {a.request_headers ? (
        <pre class="mono">
          {Object.entries(a.request_headers)
            .map(([k, v]) => `${k}: ${v}`)
            .join('\n')}
        </pre>
      ) : (
        <p class="muted">Not kept for this attempt.</p>
      )}
      <h4>Request body</h4>
      <pre class="mono">{a.request_body}</pre>
      <h4>Response{a.status_code ? ` (HTTP ${a.status_code})` : ''}</h4>
      {a.response_excerpt ? <pre class="mono">{a.response_excerpt}</pre> : <p class="muted">No body.</p>}
      {a.response_truncated ? <p class="muted">Only the first 4 KB of the response is kept.</p> : null}
    </details>
  )
}

/** Changes a subscription's URL and events; the platform checks the URL as on creation. */
function EditWebhook({ w, saved }: { w: Webhook; saved: () => void }): VNode {
  return (
    <details class="card">
      <summary>Edit URL and events</summary>
      <Form
        label="Edit the webhook subscription"
        submitLabel="Save"
        submit={async (d: FormData) => {
          await updateWebhook(w.id, {
            url: String(d.get('url')).trim(),
            // The choices are the platform's catalog (EventChoices); the API checks them again.
            events: d.getAll('events').map(String) as WebhookEvents,
          })
          saved()
        }}
      >
        <Field
          label="Endpoint URL"
          hint="An absolute https:// address, up to 2,048 characters (plain http and loopback only on a local platform)"
        >
          <input name="url" type="url" required value={w.url} />
        </Field>
        <EventChoices checked={(e: string) => w.events.includes(e)} subscribed={w.events} />
      </Form>
    </details>
  )
}

export function WebhookPage({ id }: { id: string }): VNode {
  const session = useSession()
  const write = canWrite(session)
  const hook = useWebhook(id)
  const log = useDeliveries(id)
  const [secret, setSecret] = useState<string>()
  const reload = () => {
    hook.reload()
    log.reload()
  }
  return (
    <section>
      <p class="crumb">
        <a href="#/webhooks">Webhooks</a>
      </p>
      <Loaded state={hook}>
        {(w) => (
          <>
            <h1>
              <code>{w.url}</code>
            </h1>
            {w.status === 'paused' ? (
              <div class="note warn" role="status">
                Paused {ago(w.paused_at)}
                {w.paused_reason === 'failures' ? ' after repeated delivery failures' : ' by hand'}: events
                are kept and delivered on resume.
                {write ? (
                  <Action
                    kind="primary"
                    run={async () => {
                      await resumeWebhook(id)
                      reload()
                    }}
                  >
                    Resume
                  </Action>
                ) : null}
              </div>
            ) : null}
            <dl class="facts">
              <dt>Status</dt>
              <dd>
                <StatusPill w={w} />
              </dd>
              <dt>Events</dt>
              <dd>
                {w.events.map((e) => (
                  <>
                    <code class="tag">{e}</code>{' '}
                  </>
                ))}
              </dd>
              {w.description ? (
                <>
                  <dt>Description</dt>
                  <dd>{w.description}</dd>
                </>
              ) : null}
              {w.previous_secret_expires_at ? (
                <>
                  <dt>Previous secret valid until</dt>
                  <dd>{when(w.previous_secret_expires_at)}</dd>
                </>
              ) : null}
            </dl>
            {write ? (
              <EditWebhook key={w.url + w.events.join()} w={w} saved={hook.reload} />
            ) : (
              <ReadOnly what="this subscription" />
            )}
            <div class="row wrap">
              <Action run={async () => setSecret((await webhookSecret(id)).secret)}>Reveal secret</Action>
              {write ? (
                <>
                  <Action
                    confirm="Rotate the signing secret? The old one keeps working for 24 hours so your endpoint can switch."
                    confirmLabel="Rotate"
                    run={async () => {
                      setSecret((await rotateWebhookSecret(id)).secret)
                      hook.reload()
                    }}
                  >
                    Rotate secret
                  </Action>
                  <Action
                    run={async () => {
                      await testWebhook(id)
                      setTimeout(log.reload, 800)
                    }}
                  >
                    Send test event
                  </Action>
                  {w.status === 'active' ? (
                    <Action
                      confirm="Pause deliveries? Events are kept and delivered when you resume."
                      confirmLabel="Pause"
                      run={async () => {
                        await pauseWebhook(id)
                        reload()
                      }}
                    >
                      Pause
                    </Action>
                  ) : null}
                  <Action
                    kind="danger"
                    confirm={`Delete the subscription to ${w.url}? Pending deliveries are dropped.`}
                    confirmLabel="Delete"
                    run={async () => {
                      await deleteWebhook(id)
                      location.hash = '#/webhooks'
                    }}
                  >
                    Delete
                  </Action>
                </>
              ) : null}
            </div>
            {secret ? (
              <div class="card secret">
                <label class="field">
                  <span>Signing secret</span>
                  <input class="mono" readonly value={secret} aria-label="Signing secret" />
                </label>
                <button type="button" onClick={() => setSecret(undefined)}>
                  Hide
                </button>
              </div>
            ) : null}
          </>
        )}
      </Loaded>
      <div class="row">
        <h2 class="grow">Delivery log</h2>
        <Refresh state={log} />
      </div>
      <Loaded state={log}>
        {(page) =>
          page.data.length ? (
            <table class="deliveries">
              <caption class="sr">Delivery attempts</caption>
              <thead>
                <tr>
                  <th>When</th>
                  <th>Event</th>
                  <th>Attempt</th>
                  <th>Result</th>
                  <th>Time</th>
                  <th>
                    <span class="sr">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {page.data.map((a) => (
                  <tr data-event={a.event_type}>
                    <td data-label="When" title={when(a.attempted_at)}>
                      {ago(a.attempted_at)}
                    </td>
                    <td data-label="Event">
                      <code>{a.event_type}</code>
                    </td>
                    <td data-label="Attempt">{a.attempt}</td>
                    <td data-label="Result">
                      <span class={`pill ${a.success ? 'ok' : 'bad'}`}>
                        {a.success ? 'delivered' : 'failed'}
                      </span>
                      {a.status_code ?? ''}{' '}
                      {a.error ? (
                        <>
                          <br />
                          <small>{a.error}</small>
                        </>
                      ) : null}
                      {a.success ? null : <RetryNote a={a} />}
                      <AttemptDetail a={a} />
                    </td>
                    <td data-label="Time">{a.duration_ms} ms</td>
                    <td>
                      {write ? (
                        <Action
                          label={`Redeliver ${a.event_type}`}
                          run={async () => {
                            await redeliver(id, a.event_id)
                            setTimeout(log.reload, 800)
                          }}
                        >
                          Redeliver
                        </Action>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p class="muted">
              No deliveries yet: press <strong>Send test event</strong>, or publish an article.
            </p>
          )
        }
      </Loaded>
    </section>
  )
}
