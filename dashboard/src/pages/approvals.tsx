import type { VNode } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import {
  type Approval,
  type ApprovalStatus,
  decideApproval,
  listApprovals,
  useApprovals,
} from '../data/approvals.ts'
import { useLoad } from '../data/load.ts'
import { listMembers, type Member } from '../data/team.ts'
import { ago, when } from '../format.ts'
import { Action, canWrite, Loaded, type Session, useSession } from '../ui.tsx'

/**
 * The approvals inbox: tool calls that wait for an owner's or admin's decision, across
 * conversations and automations, newest first. Owners and admins approve or deny (with a reason
 * the model is told); members see their own conversations' calls. A call nobody decides in time
 * expires and counts as denied.
 */

type Status = ApprovalStatus

const statuses: Status[] = ['pending', 'approved', 'denied', 'expired']

/** The inbox's pending count for the navigation (100 or more shows as 99+). */
export function ApprovalsBadge(): VNode | null {
  const [count, setCount] = useState(0)
  useEffect(() => {
    let live = true
    const load = () =>
      listApprovals('pending', 100)
        .then((p) => live && setCount(p.data.length))
        .catch(() => undefined)
    load()
    const timer = setInterval(load, 30_000)
    window.addEventListener('approvals-changed', load)
    return () => {
      live = false
      clearInterval(timer)
      window.removeEventListener('approvals-changed', load)
    }
  }, [])
  if (count === 0) return null
  return (
    <>
      {' '}
      {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: as the htm template had it; the link's name reads "Approvals 3 waiting" */}
      <span class="pill pending count" aria-label={`${count} waiting`}>
        {count > 99 ? '99+' : count}
      </span>
    </>
  )
}

function AskedBy({ a }: { a: Approval }): VNode {
  const conversation = <a href={`#/assistant/${a.conversation_id}`}>{a.conversation_title}</a>
  return a.automation ? (
    <>
      automation <strong>{a.automation.name}</strong>
      <br />
      <small>{conversation}</small>
    </>
  ) : (
    <>conversation {conversation}</>
  )
}

/** Who decided, as the team knows them: "you", a member's e-mail, or a former member. */
function deciderName(id: string | null, session: Session, members: Member[] | undefined): string {
  if (id === null) return 'a former member'
  if (id === session.userId) return 'you'
  const member = members?.find((m) => m.user_id === id)
  if (member) return member.email ?? 'a member'
  return members ? 'a former member' : 'a member'
}

function Outcome({ a, decider }: { a: Approval; decider: string }): VNode {
  if (a.status === 'pending')
    return (
      <>
        <span class="pill pending">pending</span>
        <br />
        <small>expires {when(a.expires_at)}</small>
      </>
    )
  const kind = a.status === 'approved' ? 'ok' : a.status === 'expired' ? 'expired' : 'bad'
  const by = a.status === 'expired' ? 'nobody decided in time' : `by ${decider}`
  return (
    <>
      <span class={`pill ${kind}`}>{a.status}</span>
      <br />
      <small title={when(a.decided_at)}>
        {ago(a.decided_at)}, {by}
      </small>
      {a.reason && a.status === 'denied' ? (
        <>
          <br />
          <small class="muted">{a.reason}</small>
        </>
      ) : null}
    </>
  )
}

/** A datetime-local value (the browser's local time) for an ISO time, and back. */
const localInput = (iso: string) => {
  const d = new Date(iso)
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16)
}

function Decide({ a, done }: { a: Approval; done: () => void }): VNode {
  const [reason, setReason] = useState('')
  // A schedule call shows the time the model chose; the approver may move it (a time already
  // past when approved publishes at once).
  const chosen = a.tool === 'platform:schedule_article' ? String(a.arguments.publish_at ?? '') : ''
  const [publishAt, setPublishAt] = useState(chosen ? localInput(chosen) : '')
  const moved = chosen && publishAt && publishAt !== localInput(chosen)
  const decide = (approve: boolean) =>
    decideApproval(a.id, {
      approve,
      ...(reason.trim() && !approve ? { reason } : {}),
      ...(approve && moved ? { publish_at: new Date(publishAt).toISOString() } : {}),
    }).then(() => {
      window.dispatchEvent(new Event('approvals-changed'))
      done()
    })
  return (
    <div class="decide">
      {chosen ? (
        <label>
          Publish at{' '}
          <input
            type="datetime-local"
            aria-label={`Publish at for ${a.tool}`}
            value={publishAt}
            onInput={(e: Event) => setPublishAt((e.target as HTMLInputElement).value)}
          />
          {new Date(chosen) <= new Date() ? (
            <small class="muted"> passed: approving publishes now</small>
          ) : null}
        </label>
      ) : null}
      <input
        aria-label={`Reason for ${a.tool}`}
        placeholder="Reason (told to the assistant on deny)"
        maxlength={500}
        value={reason}
        onInput={(e: Event) => setReason((e.target as HTMLInputElement).value)}
      />
      <Action kind="primary" run={() => decide(true)} label={`Approve ${a.tool}`}>
        Approve
      </Action>
      <Action kind="danger" run={() => decide(false)} label={`Deny ${a.tool}`}>
        Deny
      </Action>
    </div>
  )
}

export function ApprovalsPage(): VNode {
  const session = useSession()
  const [status, setStatus] = useState<Status>('pending')
  const list = useApprovals(status)
  // Names for "decided by"; a member who may not list the team sees "a member".
  const members = useLoad(() => listMembers().catch(() => ({ data: undefined })))
  return (
    <section class="approvals" aria-labelledby="approvals-title">
      <h2 id="approvals-title">Approvals</h2>
      <p class="muted">
        Tool calls the assistant may run only once an owner or admin approves them, from conversations and
        automations. A call nobody decides before it expires counts as denied (the time is in the assistant's
        settings).
      </p>
      <div class="row" role="tablist" aria-label="Status">
        {statuses.map((s) => (
          <button
            type="button"
            role="tab"
            aria-selected={s === status}
            class={s === status ? 'primary' : ''}
            onClick={() => setStatus(s)}
          >
            {s[0]!.toUpperCase() + s.slice(1)}
          </button>
        ))}
      </div>
      <Loaded state={list}>
        {(page) =>
          page.data.length ? (
            <table>
              <caption class="sr">{status} approvals</caption>
              <thead>
                <tr>
                  <th>Tool call</th>
                  <th>Asked by</th>
                  <th>Asked</th>
                  <th>Status</th>
                  {status === 'pending' && canWrite(session) ? <th>Decision</th> : null}
                </tr>
              </thead>
              <tbody>
                {page.data.map((a) => (
                  <tr>
                    <td data-label="Tool call">
                      <code>{a.tool}</code>
                      {a.article ? (
                        <p class="tool-article">
                          Article: <a href={`#/articles/${a.article.id}`}>{a.article.title}</a>
                        </p>
                      ) : null}
                      <pre class="args">{JSON.stringify(a.arguments, null, 2)}</pre>
                    </td>
                    <td data-label="Asked by">
                      <AskedBy a={a} />
                    </td>
                    <td data-label="Asked">
                      <span title={when(a.created_at)}>{ago(a.created_at)}</span>
                    </td>
                    <td data-label="Status">
                      <Outcome a={a} decider={deciderName(a.decided_by, session, members.data?.data)} />
                    </td>
                    {status === 'pending' && canWrite(session) ? (
                      <td data-label="Decision">
                        <Decide a={a} done={list.reload} />
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p class="muted">
              {status === 'pending' ? 'Nothing waits for approval.' : `No ${status} approvals.`}
            </p>
          )
        }
      </Loaded>
    </section>
  )
}
