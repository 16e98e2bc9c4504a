import type { VNode } from 'preact'
import { useState } from 'preact/hooks'
import { useLoad } from '../data/load.ts'
import {
  acceptInvitation,
  createTenant,
  type Invitation,
  invite,
  listInvitations,
  type Member,
  type Role,
  removeMember,
  revokeInvitation,
  setMemberRole,
  type Tenant,
  useMembers,
} from '../data/team.ts'
import { ago, when } from '../format.ts'
import { Action, canWrite, ErrorNote, Field, Form, Loaded, ReadOnly, useSession } from '../ui.tsx'
import { WorkspaceName } from './workspace-name.tsx'

const roles = ['contributor', 'member', 'admin', 'owner'] as const

/** Sign-up's second step: the new tenant, whose owner the user becomes. */
export function CreateTenant({
  onCreated,
  first,
}: {
  onCreated: (t: Tenant) => Promise<void>
  first?: boolean
}): VNode {
  return (
    <section>
      <h1>{first ? 'Create your workspace' : 'New workspace'}</h1>
      <p class="muted">
        You become its owner. A workspace holds your team, keys, sites and settings; you can switch between
        your workspaces at the top of every page.
      </p>
      <Form
        label="Create a workspace"
        submitLabel="Create workspace"
        submit={async (d: FormData) => {
          const tenant = await createTenant(String(d.get('name')).trim())
          await onCreated(tenant)
        }}
      >
        <Field label="Workspace name" hint="1 to 100 characters, e.g. your company or team">
          <input name="name" required maxlength={100} autocomplete="organization" />
        </Field>
      </Form>
    </section>
  )
}

/** Joins a tenant with the token from an invitation e-mail. */
export function AcceptInvitation({ onAccepted }: { onAccepted: () => Promise<void> }): VNode {
  return (
    <section>
      <h2>Join with an invitation</h2>
      <Form
        label="Accept an invitation"
        submitLabel="Join"
        submit={async (d: FormData) => {
          const raw = String(d.get('token')).trim()
          // Accept the whole link from the e-mail (…#/invitation/inv_…) as well as the bare token.
          const token = raw.match(/inv_[0-9A-Za-z]+/)?.[0] ?? raw
          await acceptInvitation(token)
          await onAccepted()
        }}
      >
        <Field
          label="Invitation link or token"
          hint="The link from the invitation e-mail, or the inv_… token in it"
        >
          <input name="token" required maxlength={2000} class="mono" />
        </Field>
      </Form>
    </section>
  )
}

export function TeamPage(): VNode {
  const session = useSession()
  const members = useMembers()
  // Members may not list invitations: they get none rather than a refusal.
  const invitations = useLoad(() =>
    canWrite(session) ? listInvitations() : Promise.resolve({ data: [] as Invitation[] }),
  )
  const write = canWrite(session)
  return (
    <section>
      <h1>Team</h1>
      <p class="muted">
        Members of <strong>{session.tenantName}</strong> and their roles. Your role: {session.role}. A
        contributor writes and edits its own drafts and submits them for review; members and up publish.
      </p>
      <WorkspaceName />
      {write ? null : <ReadOnly what="the team" />}
      <Loaded state={members}>
        {(m) => (
          <table>
            <caption class="sr">Members</caption>
            <thead>
              <tr>
                <th>E-mail</th>
                <th>Role</th>
                <th>Joined</th>
                <th>
                  <span class="sr">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {m.data.map((x) => (
                <tr>
                  <td data-label="E-mail">{x.email ?? x.user_id}</td>
                  <td data-label="Role">
                    {write ? <RoleSelect member={x} onChanged={members.reload} /> : x.role}
                  </td>
                  <td data-label="Joined" title={when(x.joined_at)}>
                    {ago(x.joined_at)}
                  </td>
                  <td>
                    {write || x.email === session.email ? (
                      <Action
                        kind="danger"
                        confirm={
                          x.email === session.email
                            ? `Leave ${session.tenantName}?`
                            : `Remove ${x.email} from ${session.tenantName}?`
                        }
                        confirmLabel={x.email === session.email ? 'Leave' : 'Remove'}
                        run={async () => {
                          await removeMember(x.user_id)
                          // Leaving: the token no longer fits; a new one names another tenant, or none.
                          if (x.email === session.email) await session.refresh()
                          else members.reload()
                        }}
                      >
                        {x.email === session.email ? 'Leave' : 'Remove'}
                      </Action>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Loaded>
      {write ? (
        <>
          <h2>Invitations</h2>
          <Form
            label="Invite a member"
            submitLabel="Send invitation"
            class="inline"
            submit={async (d: FormData, f: HTMLFormElement) => {
              await invite({
                email: String(d.get('email')).trim(),
                // One of the select's roles; the API checks it again.
                role: String(d.get('role')) as Role,
              })
              f.reset()
              invitations.reload()
            }}
          >
            <Field label="E-mail" hint="The invitation link goes there; it works once, for 7 days">
              <input name="email" type="email" required />
            </Field>
            <Field label="Role">
              <select name="role">
                {roles.map((r) => (
                  <option value={r} selected={r === 'member'}>
                    {r}
                  </option>
                ))}
              </select>
            </Field>
          </Form>
          <Loaded state={invitations}>
            {(i) =>
              i.data.length ? (
                <table>
                  <caption class="sr">Invitations</caption>
                  <thead>
                    <tr>
                      <th>E-mail</th>
                      <th>Role</th>
                      <th>Status</th>
                      <th>Expires</th>
                      <th>
                        <span class="sr">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {i.data.map((x) => (
                      <tr>
                        <td data-label="E-mail">{x.email}</td>
                        <td data-label="Role">{x.role}</td>
                        <td data-label="Status">
                          <span class={`pill ${x.status}`}>{x.status}</span>
                        </td>
                        <td data-label="Expires" title={when(x.expires_at)}>
                          {ago(x.expires_at)}
                        </td>
                        <td>
                          {x.status === 'pending' ? (
                            <Action
                              kind="danger"
                              confirm={`Revoke the invitation of ${x.email}?`}
                              confirmLabel="Revoke"
                              run={async () => {
                                await revokeInvitation(x.id)
                                invitations.reload()
                              }}
                            >
                              Revoke
                            </Action>
                          ) : null}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              ) : (
                <p class="muted">
                  No invitations. Invite a colleague with the form above; they get an e-mail with a link.
                </p>
              )
            }
          </Loaded>
        </>
      ) : null}
    </section>
  )
}

/** A member's role, changed at once; progress and the API's refusal shown beside it. */
function RoleSelect({ member, onChanged }: { member: Member; onChanged: () => void }): VNode {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>()
  const change = async (e: Event) => {
    const role = (e.target as HTMLSelectElement).value as Role
    setBusy(true)
    setError(undefined)
    try {
      await setMemberRole(member.user_id, role)
      onChanged()
    } catch (err) {
      ;(e.target as HTMLSelectElement).value = member.role
      setError(err)
    } finally {
      setBusy(false)
    }
  }
  return (
    <span class="action">
      <select
        aria-label={`Role of ${member.email}`}
        value={member.role}
        onChange={change}
        disabled={busy}
        aria-busy={busy}
      >
        {roles.map((r) => (
          <option value={r}>{r}</option>
        ))}
      </select>
      {busy ? <span class="spinner" aria-hidden="true"></span> : null}
      <ErrorNote error={error} />
    </span>
  )
}
