import type { VNode } from 'preact'
import { useState } from 'preact/hooks'
import {
  createSource,
  deleteSource,
  type NewSource,
  type Source,
  scrapeNow,
  setSourceEnabled,
  useSourceItems,
  useSources,
} from '../data/sources.ts'
import { ago, safeHref } from '../format.ts'
import { canWrite, Field, Form, Loaded, ReadOnly, useSession } from '../ui.tsx'
import {
  AddForSite,
  LastRunCell,
  QueuedNote,
  ScheduleCell,
  ScheduledActions,
  ScheduleField,
  type Site,
  SiteField,
  useSites,
} from './scheduled.tsx'

type Kind = Source['kind']
type Schedule = NonNullable<Source['schedule']>

const scheduleNames: Record<Schedule, string> = {
  every_minute: 'every minute',
  every_5_minutes: 'every 5 minutes',
  every_15_minutes: 'every 15 minutes',
  hourly: 'hourly',
  every_6_hours: 'every 6 hours',
  daily: 'daily',
}

/**
 * What the form offers first. A feed is fetched when added, then every 15 minutes: a conditional
 * GET answered 304 costs little, and most feeds change a few times a day, so a quarter of an hour
 * keeps news prompt without polling a publisher every minute (offered for feeds known to be busy).
 * An Apify run costs the workspace each time: hourly.
 */
const defaultSchedule: Record<Kind, Schedule> = { feed: 'every_15_minutes', apify: 'hourly' }

/** The JSON of an Apify actor's input, or a readable error before anything is sent. */
function actorInput(text: string): Record<string, unknown> {
  if (!text.trim()) return {}
  try {
    const value = JSON.parse(text)
    if (value && typeof value === 'object' && !Array.isArray(value)) return value
  } catch {}
  throw new Error('The actor\'s input must be a JSON object, e.g. {"username": ["nasa"]}')
}

/** A source's latest items, loaded when opened. */
const pushStates: Record<NonNullable<Source['push']>['state'], string> = {
  pending: 'Push: waiting for the hub to confirm',
  active: 'Push: active',
  denied: 'Push: refused by the hub',
  expired: 'Push: lease ran out (the next fetch subscribes again)',
  unsubscribing: 'Push: unsubscribing',
}

/** The feed's WebSub subscription, when it names a hub: new items arrive as the hub pushes them. */
function PushLine({ push }: { push: Source['push'] }): VNode | null {
  if (!push) return null
  const host = (() => {
    try {
      return new URL(push.hub_url).host
    } catch {
      return push.hub_url
    }
  })()
  const renews =
    push.state === 'active' && push.lease_expires_at
      ? `, renews before ${new Date(push.lease_expires_at).toLocaleDateString()}`
      : ''
  return (
    <>
      <br />
      <small class="muted" data-push-state={push.state} title={push.last_error ?? undefined}>
        {pushStates[push.state]} via {host}
        {renews}
      </small>
    </>
  )
}

function Items({ source }: { source: Source }): VNode {
  const items = useSourceItems(source.id)
  return (
    <Loaded state={items}>
      {(page) =>
        page.data.length ? (
          <ul class="items">
            {page.data.map((i) => (
              <li>
                {safeHref(i.url) ? (
                  <a href={safeHref(i.url)} rel="noopener noreferrer" target="_blank">
                    {i.title ?? i.url}
                  </a>
                ) : (
                  (i.title ?? '(untitled)')
                )}
                <small class="muted">
                  {' '}
                  {i.author ? `${i.author}, ` : ''}
                  {ago(i.published_at ?? i.created_at)}
                </small>
              </li>
            ))}
          </ul>
        ) : (
          <p class="muted">
            No items yet: a feed is fetched when added (see <em>Last run</em>); <strong>Scrape now</strong>{' '}
            fetches again.
          </p>
        )
      }
    </Loaded>
  )
}

export function SourcesPage(): VNode {
  const session = useSession()
  const write = canWrite(session)
  const sources = useSources()
  const { sites, siteName } = useSites()
  const [kind, setKind] = useState<Kind>('feed')
  const [queued, setQueued] = useState<string>()
  const [open, setOpen] = useState<string>()

  return (
    <section>
      <h1>Sources</h1>
      <p class="muted">
        Feeds and social profiles that <strong>{session.tenantName}</strong> collects posts from
        (scrape-social), on a schedule or when asked. Their items are the material articles are generated
        from.
      </p>
      <QueuedNote run={queued} />
      {write ? (
        <AddForSite
          title="Add a source"
          plural="Sources"
          open={sources.data ? !sources.data.data.length : false}
          sites={sites}
          form={(sites: Site[]) => (
            <Form
              label="Add a source"
              submitLabel="Add source"
              submit={async (d: FormData, f: HTMLFormElement) => {
                const config =
                  kind === 'feed'
                    ? { url: String(d.get('url')).trim() }
                    : {
                        actor_id: String(d.get('actor_id')).trim(),
                        input: actorInput(String(d.get('input') ?? '')),
                        max_items: Number(d.get('max_items')),
                      }
                await createSource({
                  name: String(d.get('name')).trim(),
                  site_id: String(d.get('site_id')),
                  kind,
                  config,
                  // One of the select's schedules; the API checks it again.
                  schedule: (String(d.get('schedule')) || null) as NewSource['schedule'],
                } as NewSource)
                f.reset()
                sources.reload()
              }}
            >
              <div class="grid2">
                <Field label="Name">
                  <input name="name" required maxlength={200} placeholder="Company blog" />
                </Field>
                <SiteField sites={sites} />
                <Field label="Kind">
                  <select
                    name="kind"
                    value={kind}
                    onChange={(e: Event) => setKind((e.target as HTMLSelectElement).value as Kind)}
                  >
                    <option value="feed">Feed (RSS, Atom, JSON Feed)</option>
                    <option value="apify">Apify actor</option>
                  </select>
                </Field>
                <ScheduleField names={scheduleNames} preselected={defaultSchedule[kind]} />
                {kind === 'feed' ? (
                  <Field
                    label="Feed URL"
                    hint="A blog, a YouTube channel, Reddit .rss, a Mastodon or Bluesky profile feed"
                  >
                    <input name="url" type="url" required placeholder="https://example.com/feed.xml" />
                  </Field>
                ) : (
                  <>
                    <Field
                      label="Actor"
                      hint="Its id, or username~actor-name; runs with the workspace's Apify credential"
                    >
                      <input name="actor_id" required placeholder="apify~instagram-scraper" />
                    </Field>
                    <Field label="Items per run">
                      <input name="max_items" type="number" min="1" max="1000" value="200" />
                    </Field>
                    <Field label="Actor input (JSON)">
                      <textarea
                        name="input"
                        rows={3}
                        class="mono"
                        placeholder='{"username": ["nasa"]}'
                      ></textarea>
                    </Field>
                  </>
                )}
              </div>
            </Form>
          )}
        />
      ) : (
        <ReadOnly what="the sources" />
      )}
      <Loaded state={sources}>
        {(page) =>
          page.data.length ? (
            <table>
              <caption class="sr">Sources</caption>
              <thead>
                <tr>
                  <th>Source</th>
                  <th>Schedule</th>
                  <th>Last run</th>
                  <th>
                    <span class="sr">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {page.data.map((s) => (
                  <>
                    <tr>
                      <td data-label="Source">
                        <strong>{s.name}</strong>
                        <br />
                        <small class="muted">
                          {s.kind === 'feed' ? s.config.url : `Apify: ${s.config.actor_id}`}
                          {siteName(s.site_id) ? ` → ${siteName(s.site_id)}` : ''}
                        </small>
                        <PushLine push={s.push} />
                      </td>
                      <td data-label="Schedule">
                        <ScheduleCell r={s} label={s.schedule ? scheduleNames[s.schedule] : null} />
                      </td>
                      <td data-label="Last run">
                        <LastRunCell r={s} />
                      </td>
                      <td>
                        <button
                          type="button"
                          onClick={() => setOpen(open === s.id ? undefined : s.id)}
                          aria-expanded={open === s.id}
                        >
                          Items
                        </button>
                        {write ? (
                          <ScheduledActions
                            name={s.name}
                            verb="Scrape"
                            enabled={s.enabled}
                            run={async () => {
                              await scrapeNow(s.id)
                              setQueued(`Scrape of ${s.name}`)
                              setTimeout(sources.reload, 1500)
                            }}
                            setEnabled={async (enabled: boolean) => {
                              await setSourceEnabled(s.id, enabled)
                              sources.reload()
                            }}
                            remove={async () => {
                              await deleteSource(s.id)
                              sources.reload()
                            }}
                            removeWarning={`Delete the source “${s.name}” and the items collected from it?`}
                          />
                        ) : null}
                      </td>
                    </tr>
                    {open === s.id ? (
                      <tr class="sub">
                        <td colspan={4}>
                          <Items source={s} />
                        </td>
                      </tr>
                    ) : null}
                  </>
                ))}
              </tbody>
            </table>
          ) : (
            <p class="note">
              No sources yet. Add a feed or a social profile above: its posts become material for articles.
            </p>
          )
        }
      </Loaded>
    </section>
  )
}
