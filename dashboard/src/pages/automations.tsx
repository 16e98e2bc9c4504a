import type { VNode } from 'preact'
import {
  type Automation,
  type AutomationEvent,
  createAutomation,
  deleteAutomation,
  updateAutomation,
  useAutomationRunConversations,
  useAutomations,
} from '../data/assistant.ts'
import { ago, when } from '../format.ts'
import { Action, canWrite, Field, Form, Loaded, ReadOnly, useSession } from '../ui.tsx'

/**
 * Automations: an instruction the assistant runs on a schedule (5-field cron, UTC), each run in a
 * conversation of its own. The list shows each one's last run (linked to its conversation, with
 * the turn's outcome: a call that needs approval waits for it there) and its next run.
 */

/** The platform events an automation may run on, as the API names them. */
const events: [string, string][] = [
  ['content.published', 'an article is published'],
  ['content.updated', 'an article changes'],
  ['source.items_added', 'a source has new items'],
  ['order.created', 'a shop order arrives'],
  ['order.updated', 'a shop order changes'],
]

function Trigger({ a }: { a: Automation }): VNode {
  return a.trigger.type === 'event' ? (
    <>
      on <code>{a.trigger.event}</code>
    </>
  ) : (
    <code>{a.trigger.schedule}</code>
  )
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
  if (!a.disabled_reason)
    return (
      <>
        {' '}
        <span class="pill">off</span>
      </>
    )
  return (
    <>
      {' '}
      <span class="pill bad">stopped</span>
      <br />
      <small role="note">{stoppedBecause[a.disabled_reason]}</small>
    </>
  )
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
    updateAutomation(a.id, {
      unattended_tools: on ? [...a.unattended_tools, tool] : a.unattended_tools.filter((t) => t !== tool),
    }).then(reload)
  const others = a.unattended_tools.filter((t) => !writeTools.some(([name]) => name === t))
  return (
    <>
      <br />
      <small>Without approval:</small>
      <ul class="unattended-tools">
        {writeTools.map(([tool, label]) => {
          const on = a.unattended_tools.includes(tool)
          return (
            <li>
              <label>
                <input
                  type="checkbox"
                  checked={on}
                  disabled={!editable}
                  aria-label={`${a.name}: ${label} (${tool}) without approval`}
                  onChange={() => set(tool, !on)}
                />{' '}
                {label} <code>{tool}</code>
              </label>
            </li>
          )
        })}
        {others.map((tool) => (
          <li>
            <code>{tool}</code>
          </li>
        ))}
      </ul>
    </>
  )
}

function LastRun({ run }: { run: Automation['last_run'] }): VNode {
  if (!run) return <span class="muted">not yet</span>
  const outcome =
    run.status === 'failed' ? (
      <>
        <span class="pill bad">could not start</span> <small>{run.error}</small>
      </>
    ) : (
      <span
        class={`pill ${run.turn_status === 'completed' ? 'ok' : run.turn_status === 'failed' ? 'bad' : 'pending'}`}
      >
        {(run.turn_status ?? 'started').replace('_', ' ')}
      </span>
    )
  return (
    <>
      <span title={when(run.slot)}>{ago(run.slot)}</span> {outcome}
      {run.conversation_id ? (
        <>
          {' '}
          <a href={`#/assistant/${run.conversation_id}`}>conversation</a>
        </>
      ) : null}
    </>
  )
}

/**
 * The conversations of the latest runs, newest first: here rather than in the Assistant's list,
 * which a daily automation would otherwise fill within weeks.
 */
function RecentRuns(): VNode {
  const runs = useAutomationRunConversations()
  return (
    <section aria-labelledby="automation-runs-title">
      <h2 id="automation-runs-title">Recent runs</h2>
      <Loaded state={runs}>
        {(page) =>
          page.data.length ? (
            <ul class="items run-list">
              {page.data.map((c) => (
                <li>
                  <a href={`#/assistant/${c.id}`}>{c.title}</a>{' '}
                  <small class="muted" title={when(c.created_at)}>
                    {ago(c.created_at)}
                  </small>
                </li>
              ))}
            </ul>
          ) : (
            <p class="muted">No runs yet.</p>
          )
        }
      </Loaded>
    </section>
  )
}

export function AutomationsPage(): VNode {
  const session = useSession()
  const list = useAutomations()
  return (
    <section class="automations" aria-labelledby="automations-title">
      <h1 id="automations-title">Automations</h1>
      <p class="muted">
        The assistant runs an instruction on a schedule (cron, UTC) or on a platform event (once per event,
        with the event's data), each run in its own conversation. A tool that needs approval is not run
        unattended: the run waits in <a href="#/approvals">Approvals</a>. A run started by an event also waits
        before any write tool (the event's data carries text others wrote), unless you let that tool run
        without approval for the automation.
      </p>
      <Loaded state={list}>
        {(page: { data: Automation[] }) =>
          page.data.length ? (
            <table>
              <caption class="sr">Automations</caption>
              <thead>
                <tr>
                  <th>Automation</th>
                  <th>Schedule</th>
                  <th>Last run</th>
                  <th>Next run</th>
                  <th></th>
                </tr>
              </thead>
              <tbody>
                {page.data.map((a) => (
                  <tr>
                    <td data-label="Automation">
                      <strong>{a.name}</strong>
                      <br />
                      <small class="muted">{a.instruction}</small>
                    </td>
                    <td data-label="Schedule">
                      <Trigger a={a} />
                      <Off a={a} />
                      <Unattended a={a} reload={list.reload} editable={canWrite(session)} />
                    </td>
                    <td data-label="Last run">
                      <LastRun run={a.last_run} />
                    </td>
                    <td data-label="Next run">
                      {a.enabled && a.next_run_at ? (
                        when(a.next_run_at)
                      ) : (
                        <span class="muted">{a.trigger.type === 'event' ? 'on the next event' : '—'}</span>
                      )}
                    </td>
                    <td>
                      {canWrite(session) ? (
                        <>
                          {a.disabled_reason ? null : (
                            <Action
                              run={() => updateAutomation(a.id, { enabled: !a.enabled }).then(list.reload)}
                            >
                              {a.enabled ? 'Turn off' : 'Turn on'}
                            </Action>
                          )}
                          <Action
                            kind="danger"
                            confirm={`Delete the automation “${a.name}”? Its runs' conversations stay.`}
                            run={() => deleteAutomation(a.id).then(list.reload)}
                          >
                            Delete
                          </Action>
                        </>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p class="muted">
              No automations yet.
              {canWrite(session)
                ? ' Add one below: for example, every weekday at 08:00, draft an article from yesterday’s new source items.'
                : ''}
            </p>
          )
        }
      </Loaded>
      {canWrite(session) ? (
        <Form
          label="Add an automation"
          submitLabel="Add automation"
          submit={async (data: FormData, form: HTMLFormElement) => {
            const on = String(data.get('trigger'))
            // The fields are required and the events the list above; the API checks them again.
            await createAutomation({
              name: String(data.get('name')),
              instruction: String(data.get('instruction')),
              trigger:
                on === 'schedule'
                  ? { type: 'schedule', schedule: String(data.get('schedule')) }
                  : { type: 'event', event: on as AutomationEvent },
            })
            form.reset()
            list.reload()
          }}
        >
          <Field label="Name">
            <input name="name" required maxlength={200} placeholder="Morning draft" />
          </Field>
          <Field label="Instruction">
            <textarea
              name="instruction"
              required
              rows={3}
              maxlength={4000}
              placeholder="Draft an article from yesterday's new source items, then post its title to #content."
            ></textarea>
          </Field>
          <Field
            label="Runs"
            hint="at set times, or once for each event of this workspace (with the event's data)"
          >
            <select name="trigger">
              <option value="schedule">On a schedule</option>
              {events.map(([name, label]) => (
                <option value={name}>
                  When {label} ({name})
                </option>
              ))}
            </select>
          </Field>
          <Field
            label="Schedule"
            hint="for timed runs: cron, UTC, minute hour day month weekday (0 8 * * 1-5 is weekdays at 08:00)"
          >
            <input name="schedule" value="0 8 * * 1-5" />
          </Field>
        </Form>
      ) : (
        <ReadOnly what="automations" />
      )}
      <RecentRuns />
    </section>
  )
}
