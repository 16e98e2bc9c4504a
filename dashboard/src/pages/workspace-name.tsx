/**
 * The workspace's name, renamed by its owners and admins (PATCH /api/tenants/current) on the Team
 * page. The switcher at the top and every page read the name from the session, which is made when
 * the dashboard loads, so a rename loads the dashboard again to show it everywhere at once.
 */
import type { VNode } from 'preact'
import { useState } from 'preact/hooks'
import { renameTenant } from '../data/team.ts'
import { canWrite, Field, Form, useSession } from '../ui.tsx'

export function WorkspaceName(): VNode | null {
  const session = useSession()
  const [open, setOpen] = useState(false)
  if (!canWrite(session)) return null
  if (!open)
    return (
      <p class="row wrap workspace-name">
        <span class="muted">Workspace:</span>
        <strong class="clip" title={session.tenantName}>
          {session.tenantName}
        </strong>
        <button type="button" onClick={() => setOpen(true)}>
          Rename workspace
        </button>
      </p>
    )
  return (
    <div class="rename">
      <Form
        label="Rename the workspace"
        submitLabel="Save name"
        submit={async (d) => {
          const name = String(d.get('name')).trim()
          if (name !== session.tenantName) await renameTenant(name)
          location.reload()
        }}
      >
        <Field label="Workspace name" hint="Members see it in the switcher at the top and in invitations.">
          <input name="name" required maxlength={200} defaultValue={session.tenantName} />
        </Field>
      </Form>
      <button type="button" class="link" onClick={() => setOpen(false)}>
        Cancel
      </button>
    </div>
  )
}
