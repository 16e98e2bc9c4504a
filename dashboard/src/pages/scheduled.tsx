/**
 * What the pages of scheduled server-function resources share (Sources for scrape-social,
 * Affiliate for sync-affiliate): the tenant's sites to attach them to, the add card and schedule
 * field, the schedule and last-run cells, the actions, and the note after a run is asked for.
 */
import type { VNode } from 'preact'
import { type ContentItem, listContent } from '../data/content.ts'
import { useLoad } from '../data/load.ts'
import type { Source } from '../data/sources.ts'
import { ago, when } from '../format.ts'
import { Action, Field, Loaded } from '../ui.tsx'

/** The run state every scheduled resource carries. */
export type Scheduled = Pick<
  Source,
  'site_id' | 'enabled' | 'next_run_at' | 'last_run_at' | 'last_status' | 'last_error'
>

/** A site as the list of sites gives it. */
export type Site = ContentItem

/** The tenant's sites (resources feed one), and a site's name by id. */
export function useSites() {
  const sites = useLoad(() => listContent({ type: 'site', limit: 100 }))
  const siteName = (id: string) => sites.data?.data.find((s) => s.id === id)?.name ?? ''
  return { sites, siteName }
}

export function SiteField({ sites }: { sites: Site[] }): VNode {
  return (
    <Field label="Site">
      <select name="site_id">
        {sites.map((x) => (
          <option value={x.id}>{x.name}</option>
        ))}
      </select>
    </Field>
  )
}

/**
 * The "Add a …" card of a resource that belongs to a site: the form, given the tenant's sites, or a
 * note while the tenant has none.
 */
export function AddForSite(props: {
  title: string
  /** "Sources", "Destinations": what belongs to a site. */
  plural: string
  open: boolean
  sites: ReturnType<typeof useSites>['sites']
  form: (sites: Site[]) => VNode
}): VNode {
  return (
    <details class="card" open={props.open}>
      <summary>{props.title}</summary>
      <Loaded state={props.sites}>
        {(s) =>
          s.data.length ? (
            props.form(s.data)
          ) : (
            <p class="note">
              {props.plural} belong to a site: <a href="#/sites">create a site</a> first.
            </p>
          )
        }
      </Loaded>
    </details>
  )
}

/** How often a resource runs on its own ("Only when asked": no schedule). */
export function ScheduleField({
  names,
  preselected,
}: {
  names: Record<string, string>
  preselected: string
}): VNode {
  return (
    <Field label="Schedule">
      <select name="schedule">
        <option value="">Only when asked</option>
        {Object.entries(names).map(([v, label]) => (
          <option value={v} selected={v === preselected}>
            {label}
          </option>
        ))}
      </select>
    </Field>
  )
}

export function ScheduleCell({ r, label }: { r: Scheduled; label: string | null }): VNode {
  return (
    <>
      {r.enabled ? (label ?? 'when asked') : <span class="pill">off</span>}
      {r.enabled && r.next_run_at ? (
        <>
          <br />
          <small class="muted" title={when(r.next_run_at)}>
            next {ago(r.next_run_at)}
          </small>
        </>
      ) : null}
    </>
  )
}

export function LastRunCell({ r }: { r: Scheduled }): VNode {
  return r.last_status ? (
    <>
      <span class={`pill ${r.last_status === 'succeeded' ? 'ok' : 'bad'}`}>{r.last_status}</span>{' '}
      <span title={when(r.last_run_at)}>{ago(r.last_run_at)}</span>
      {r.last_error ? (
        <>
          <br />
          <small>{r.last_error}</small>
        </>
      ) : null}
    </>
  ) : (
    <span class="muted">never</span>
  )
}

/** After "Scrape now" or "Sync now": the run is a job, followed on the Jobs page. */
export function QueuedNote({ run }: { run: string | undefined }): VNode | null {
  return run ? (
    <p class="note" role="status">
      {run} queued: follow it under <a href="#/jobs">Jobs</a>.
    </p>
  ) : null
}

/** Run now, turn off or on, delete: an owner's or admin's controls of one resource. */
export function ScheduledActions(props: {
  name: string
  /** "Scrape", "Sync": the button reads "<verb> now". */
  verb: string
  enabled: boolean
  canRun?: boolean
  run: () => Promise<unknown>
  setEnabled: (enabled: boolean) => Promise<unknown>
  remove: () => Promise<unknown>
  /** What the delete confirmation says is lost. */
  removeWarning: string
}): VNode {
  const { name, verb, enabled } = props
  return (
    <>
      <Action label={`${verb} ${name} now`} disabled={props.canRun === false} run={props.run}>
        {verb} now
      </Action>
      <Action run={() => props.setEnabled(!enabled)}>{enabled ? 'Turn off' : 'Turn on'}</Action>
      <Action
        kind="danger"
        label={`Delete ${name}`}
        confirm={props.removeWarning}
        confirmLabel="Delete"
        run={props.remove}
      >
        Delete
      </Action>
    </>
  )
}
