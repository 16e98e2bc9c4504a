import type { VNode } from 'preact'
import { useState } from 'preact/hooks'
import { api, type Page } from '../api.ts'
import { ago, safeHref } from '../format.ts'
import { canWrite, Field, Form, html, Loaded, ReadOnly, useLoad, useSession } from '../ui.tsx'
import {
  AddForSite,
  LastRunCell,
  QueuedNote,
  ScheduleCell,
  type Scheduled,
  ScheduledActions,
  ScheduleField,
  type Site,
  SiteField,
  useSites,
} from './scheduled.ts'

type Kind = 'feed' | 'apify'
type Schedule = 'every_minute' | 'every_5_minutes' | 'every_15_minutes' | 'hourly' | 'every_6_hours' | 'daily'

interface Source extends Scheduled {
  id: string
  name: string
  kind: Kind
  config: { url?: string; actor_id?: string }
  schedule: Schedule | null
  created_at: string
}
interface Item {
  id: string
  url: string | null
  title: string | null
  author: string | null
  published_at: string | null
  created_at: string
}

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
function Items({ source }: { source: Source }): VNode {
  const items = useLoad(() => api<Page<Item>>('GET', `/api/sources/${source.id}/items?limit=10`))
  return html`<${Loaded} state=${items}>${(page: Page<Item>) =>
    page.data.length
      ? html`<ul class="items">${page.data.map(
          (
            i,
          ) => html`<li>${safeHref(i.url) ? html`<a href=${safeHref(i.url)} rel="noopener noreferrer" target="_blank">${i.title ?? i.url}</a>` : (i.title ?? '(untitled)')}
            <small class="muted"> ${i.author ? `${i.author}, ` : ''}${ago(i.published_at ?? i.created_at)}</small></li>`,
        )}</ul>`
      : html`<p class="muted">No items yet: a feed is fetched when added (see <em>Last run</em>); <strong>Scrape now</strong> fetches again.</p>`}<//>`
}

export function SourcesPage(): VNode {
  const session = useSession()
  const write = canWrite(session)
  const sources = useLoad(() => api<Page<Source>>('GET', '/api/sources?limit=100'))
  const { sites, siteName } = useSites()
  const [kind, setKind] = useState<Kind>('feed')
  const [queued, setQueued] = useState<string>()
  const [open, setOpen] = useState<string>()

  return html`<section>
    <h1>Sources</h1>
    <p class="muted">Feeds and social profiles that <strong>${session.tenantName}</strong> collects posts from
      (scrape-social), on a schedule or when asked. Their items are the material articles are generated from.</p>
    <${QueuedNote} run=${queued} />
    ${
      write
        ? html`<${AddForSite} title="Add a source" plural="Sources" open=${sources.data ? !sources.data.data.length : false} sites=${sites}
          form=${(
            sites: Site[],
          ) => html`<${Form} label="Add a source" submitLabel="Add source" submit=${async (
            d: FormData,
            f: HTMLFormElement,
          ) => {
            const config =
              kind === 'feed'
                ? { url: String(d.get('url')).trim() }
                : {
                    actor_id: String(d.get('actor_id')).trim(),
                    input: actorInput(String(d.get('input') ?? '')),
                    max_items: Number(d.get('max_items')),
                  }
            await api('POST', '/api/sources', {
              name: String(d.get('name')).trim(),
              site_id: String(d.get('site_id')),
              kind,
              config,
              schedule: String(d.get('schedule')) || null,
            })
            f.reset()
            sources.reload()
          }}>
            <div class="grid2">
              <${Field} label="Name"><input name="name" required maxlength="200" placeholder="Company blog" /><//>
              <${SiteField} sites=${sites} />
              <${Field} label="Kind"><select name="kind" value=${kind} onChange=${(e: Event) => setKind((e.target as HTMLSelectElement).value as Kind)}>
                <option value="feed">Feed (RSS, Atom, JSON Feed)</option><option value="apify">Apify actor</option>
              </select><//>
              <${ScheduleField} names=${scheduleNames} preselected=${defaultSchedule[kind]} />
              ${
                kind === 'feed'
                  ? html`<${Field} label="Feed URL" hint="A blog, a YouTube channel, Reddit .rss, a Mastodon or Bluesky profile feed"><input name="url" type="url" required placeholder="https://example.com/feed.xml" /><//>`
                  : html`<${Field} label="Actor" hint="Its id, or username~actor-name; runs with the workspace's Apify credential"><input name="actor_id" required placeholder="apify~instagram-scraper" /><//>
                    <${Field} label="Items per run"><input name="max_items" type="number" min="1" max="1000" value="200" /><//>
                    <${Field} label="Actor input (JSON)"><textarea name="input" rows="3" class="mono" placeholder='{"username": ["nasa"]}'></textarea><//>`
              }
            </div>
          <//>`} />`
        : html`<${ReadOnly} what="the sources" />`
    }
    <${Loaded} state=${sources}>${(page: Page<Source>) =>
      page.data.length
        ? html`<table><caption class="sr">Sources</caption>
        <thead><tr><th>Source</th><th>Schedule</th><th>Last run</th><th><span class="sr">Actions</span></th></tr></thead>
        <tbody>${page.data.map(
          (s) => html`<tr>
            <td data-label="Source"><strong>${s.name}</strong><br /><small class="muted">${s.kind === 'feed' ? s.config.url : `Apify: ${s.config.actor_id}`}${siteName(s.site_id) ? ` → ${siteName(s.site_id)}` : ''}</small></td>
            <td data-label="Schedule"><${ScheduleCell} r=${s} label=${s.schedule ? scheduleNames[s.schedule] : null} /></td>
            <td data-label="Last run"><${LastRunCell} r=${s} /></td>
            <td>
              <button type="button" onClick=${() => setOpen(open === s.id ? undefined : s.id)} aria-expanded=${open === s.id}>Items</button>
              ${
                write
                  ? html`<${ScheduledActions} name=${s.name} verb="Scrape" enabled=${s.enabled}
                      run=${async () => {
                        await api('POST', '/functions/v1/scrape-social', { source_id: s.id })
                        setQueued(`Scrape of ${s.name}`)
                        setTimeout(sources.reload, 1500)
                      }}
                      setEnabled=${async (enabled: boolean) => {
                        await api('PATCH', `/api/sources/${s.id}`, { enabled })
                        sources.reload()
                      }}
                      remove=${async () => {
                        await api('DELETE', `/api/sources/${s.id}`)
                        sources.reload()
                      }}
                      removeWarning=${`Delete the source “${s.name}” and the items collected from it?`} />`
                  : null
              }
            </td>
          </tr>
          ${open === s.id ? html`<tr class="sub"><td colspan="4"><${Items} source=${s} /></td></tr>` : null}`,
        )}</tbody></table>`
        : html`<p class="note">No sources yet. Add a feed or a social profile above: its posts become material for articles.</p>`}<//>
  </section>`
}
