import type { VNode } from 'preact'
import { api } from '../api.ts'
import { ago, when } from '../format.ts'
import { Action, canWrite, Field, Form, html, Loaded, ReadOnly, useLoad, useSession } from '../ui.tsx'

/**
 * Automations: an instruction the assistant runs on a schedule (5-field cron, UTC), each run in a
 * conversation of its own. The list shows each one's last run (linked to its conversation, with
 * the turn's outcome: a call that needs approval waits for it there) and its next run.
 */

interface Run {
  id: string
  slot: string
  conversation_id: string | null
  status: 'pending' | 'started' | 'failed'
  turn_status: string | null
  error: string | null
}
interface Automation {
  id: string
  name: string
  instruction: string
  schedule: string | null
  trigger: { type: 'schedule'; schedule: string } | { type: 'event'; event: string }
  enabled: boolean
  disabled_reason: 'creator_removed' | 'creator_demoted' | null
  next_run_at: string | null
  last_run: Run | null
  unattended_tools: string[]
}

/** The platform events an automation may run on, as the API names them. */
const events: [string, string][] = [
  ['content.published', 'an article is published'],
  ['content.updated', 'an article changes'],
  ['source.items_added', 'a source has new items'],
  ['order.created', 'a shop order arrives'],
  ['order.updated', 'a shop order changes'],
]

function Trigger({ a }: { a: Automation }): VNode {
  return a.trigger.type === 'event'
    ? html`on <code>${a.trigger.event}</code>`
    : html`<code>${a.trigger.schedule}</code>`
}

/** Why the platform turned an automation off: it runs as its creator, never as anyone else. */
const stoppedBecause: Record<NonNullable<Automation['disabled_reason']>, string> = {
  creator_removed:
    'Stopped: the member who created it left the tenant. Create a new one to run it as yourself.',
  creator_demoted:
    'Stopped: the member who created it is no longer an owner or admin. Create a new one to run it as yourself.',
}

function Off({ a }: { a: Automation }): VNode | null {
  if (a.enabled) return null
  if (!a.disabled_reason) return html` <span class="pill">off</span>`
  return html` <span class="pill bad">stopped</span><br /><small role="note">${stoppedBecause[a.disabled_reason]}</small>`
}

/**
 * The platform's write tools an event-started run may be let to use without approval (publishing
 * and scheduling always wait). A connection's write tools are set through the API.
 */
const writeTools: [string, string][] = [
  ['platform:create_draft', 'create drafts'],
  ['platform:update_article', 'edit articles'],
  ['platform:generate_draft', 'generate drafts'],
]

/**
 * An event-started run acts on data others wrote (an article's text, an order's note): its write
 * tools wait for approval unless the owner lets one run unattended here (one toggle per tool).
 */
function Unattended({
  a,
  reload,
  editable,
}: {
  a: Automation
  reload: () => void
  editable: boolean
}): VNode | null {
  if (a.trigger.type !== 'event') return null
  const set = (tool: string, on: boolean) =>
    api('PATCH', `/v1/assistant/automations/${a.id}`, {
      unattended_tools: on ? [...a.unattended_tools, tool] : a.unattended_tools.filter((t) => t !== tool),
    }).then(reload)
  const others = a.unattended_tools.filter((t) => !writeTools.some(([name]) => name === t))
  return html`<br /><small>Without approval:</small>
    <ul class="unattended-tools">${writeTools.map(([tool, label]) => {
      const on = a.unattended_tools.includes(tool)
      return html`<li><label><input type="checkbox" checked=${on} disabled=${!editable}
        aria-label=${`${a.name}: ${label} (${tool}) without approval`}
        onChange=${() => set(tool, !on)} /> ${label} <code>${tool}</code></label></li>`
    })}${others.map((tool) => html`<li><code>${tool}</code></li>`)}</ul>`
}

function LastRun({ run }: { run: Run | null }): VNode {
  if (!run) return html`<span class="muted">not yet</span>`
  const outcome =
    run.status === 'failed'
      ? html`<span class="pill bad">could not start</span> <small>${run.error}</small>`
      : html`<span class=${`pill ${run.turn_status === 'completed' ? 'ok' : run.turn_status === 'failed' ? 'bad' : 'pending'}`}>${(run.turn_status ?? 'started').replace('_', ' ')}</span>`
  return html`<span title=${when(run.slot)}>${ago(run.slot)}</span> ${outcome}
    ${run.conversation_id ? html` <a href=${`#/assistant/${run.conversation_id}`}>conversation</a>` : null}`
}

export function Automations(): VNode {
  const session = useSession()
  const list = useLoad(() => api<{ data: Automation[] }>('GET', '/v1/assistant/automations'))
  const path = (a: Automation) => `/v1/assistant/automations/${a.id}`
  return html`<section class="automations" aria-labelledby="automations-title">
    <h2 id="automations-title">Automations</h2>
    <p class="muted">The assistant runs an instruction on a schedule (cron, UTC) or on a platform event (once per event,
      with the event's data), each run in its own conversation.
      A tool that needs approval is not run unattended: the run waits in <a href="#/approvals">Approvals</a>.
      A run started by an event also waits before any write tool (the event's data carries text others wrote),
      unless you let that tool run without approval for the automation.</p>
    <${Loaded} state=${list}>${(page: { data: Automation[] }) =>
      page.data.length
        ? html`<table><caption class="sr">Automations</caption>
            <thead><tr><th>Automation</th><th>Schedule</th><th>Last run</th><th>Next run</th><th></th></tr></thead>
            <tbody>${page.data.map(
              (a) => html`<tr>
                <td data-label="Automation"><strong>${a.name}</strong><br /><small class="muted">${a.instruction}</small></td>
                <td data-label="Schedule"><${Trigger} a=${a} /><${Off} a=${a} /><${Unattended} a=${a} reload=${list.reload} editable=${canWrite(session)} /></td>
                <td data-label="Last run"><${LastRun} run=${a.last_run} /></td>
                <td data-label="Next run">${a.enabled && a.next_run_at ? when(a.next_run_at) : html`<span class="muted">${a.trigger.type === 'event' ? 'on the next event' : '—'}</span>`}</td>
                <td>${
                  canWrite(session)
                    ? html`${a.disabled_reason ? null : html`<${Action} run=${() => api('PATCH', path(a), { enabled: !a.enabled }).then(list.reload)}>${a.enabled ? 'Turn off' : 'Turn on'}<//>`}
                      <${Action} kind="danger" confirm=${`Delete the automation “${a.name}”? Its runs' conversations stay.`}
                        run=${() => api('DELETE', path(a)).then(list.reload)}>Delete<//>`
                    : null
                }</td>
              </tr>`,
            )}</tbody></table>`
        : html`<p class="muted">No automations yet.${canWrite(session) ? ' Add one below: for example, every weekday at 08:00, draft an article from yesterday’s new source items.' : ''}</p>`}<//>
    ${
      canWrite(session)
        ? html`<${Form} label="Add an automation" submitLabel="Add automation" submit=${async (
            data: FormData,
            form: HTMLFormElement,
          ) => {
            const on = String(data.get('trigger'))
            await api('POST', '/v1/assistant/automations', {
              name: data.get('name'),
              instruction: data.get('instruction'),
              trigger:
                on === 'schedule'
                  ? { type: 'schedule', schedule: data.get('schedule') }
                  : { type: 'event', event: on },
            })
            form.reset()
            list.reload()
          }}>
            <${Field} label="Name"><input name="name" required maxlength="200" placeholder="Morning draft" /><//>
            <${Field} label="Instruction"><textarea name="instruction" required rows="3" maxlength="4000"
              placeholder="Draft an article from yesterday's new source items, then post its title to #content."></textarea><//>
            <${Field} label="Runs" hint="at set times, or once for each event of this workspace (with the event's data)">
              <select name="trigger">
                <option value="schedule">On a schedule</option>
                ${events.map(([name, label]) => html`<option value=${name}>When ${label} (${name})</option>`)}
              </select><//>
            <${Field} label="Schedule" hint="for timed runs: cron, UTC, minute hour day month weekday (0 8 * * 1-5 is weekdays at 08:00)">
              <input name="schedule" value="0 8 * * 1-5" /><//>
          <//>`
        : html`<${ReadOnly} what="automations" />`
    }
  </section>`
}
