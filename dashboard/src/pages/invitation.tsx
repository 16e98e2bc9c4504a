/**
 * The invitation e-mail's link (#/invitation/<token>): what it invites to, then sign up or sign in
 * as the invited address, then accept. Shown whether or not someone is signed in.
 */
import type { Session as AuthSession } from '@supabase/supabase-js'
import type { VNode } from 'preact'
import { useState } from 'preact/hooks'
import { supabase } from '../api.ts'
import { acceptInvitation, useInvitationPreview } from '../data/team.ts'
import { ago, when } from '../format.ts'
import { Action, Field, Form, Loaded } from '../ui.tsx'

const roleNames = {
  owner: 'an owner (everything, including the team and billing)',
  admin: 'an admin (manages keys, credentials, integrations and the team)',
  member: 'a member (works on content, reads the rest)',
  contributor: 'a contributor (writes drafts and submits them for review; an editor publishes)',
}

function SignUpOrIn({ email }: { email: string }): VNode {
  const [mode, setMode] = useState<'up' | 'in'>('up')
  return (
    <div>
      <div class="tabs" role="tablist">
        <button type="button" role="tab" aria-selected={mode === 'up'} onClick={() => setMode('up')}>
          Create an account
        </button>
        <button type="button" role="tab" aria-selected={mode === 'in'} onClick={() => setMode('in')}>
          I have an account
        </button>
      </div>
      <Form
        key={mode}
        label={mode === 'up' ? 'Sign up to accept' : 'Sign in to accept'}
        submitLabel={mode === 'up' ? 'Sign up' : 'Sign in'}
        submit={async (d: FormData) => {
          const password = String(d.get('password'))
          const { data, error } =
            mode === 'in'
              ? await supabase.auth.signInWithPassword({ email, password })
              : await supabase.auth.signUp({ email, password })
          if (error) throw error
          if (!data.session) throw new Error('Check your e-mail to confirm the address, then sign in.')
        }}
      >
        <Field label="E-mail" hint="The invitation is for this address">
          <input name="email" type="email" value={email} readonly />
        </Field>
        <Field label="Password" hint={mode === 'up' ? 'At least 6 characters' : undefined}>
          <input
            name="password"
            type="password"
            required
            minlength={mode === 'up' ? 6 : undefined}
            autocomplete={mode === 'in' ? 'current-password' : 'new-password'}
            autofocus
          />
        </Field>
      </Form>
    </div>
  )
}

export function InvitationPage({
  token,
  auth,
  onAccepted,
}: {
  token: string
  auth: AuthSession | null
  onAccepted: (tenantId: string) => Promise<void>
}): VNode {
  const preview = useInvitationPreview(token)
  const signedInAs = auth?.user.email?.toLowerCase()
  return (
    <main class="narrow invitation">
      <h1>Tenant Platform</h1>
      <Loaded state={preview}>
        {(p) => (
          <>
            <section class="card" aria-label="Invitation">
              <h2>
                You are invited to join <strong>{p.tenant_name}</strong>
              </h2>
              <p>
                As {roleNames[p.role]}. The invitation is for <strong>{p.email}</strong>
                {p.status === 'pending' ? (
                  <>
                    {' '}
                    and expires <span title={when(p.expires_at)}>{ago(p.expires_at)}</span>
                  </>
                ) : null}
                .
              </p>
            </section>
            {p.status !== 'pending' ? (
              <>
                <p class="error" role="alert">
                  This invitation is {p.status}. Ask whoever invited you for a new one.
                </p>
                <p>
                  <a href="#/">Go to the dashboard</a>
                </p>
              </>
            ) : !auth ? (
              <SignUpOrIn email={p.email} />
            ) : signedInAs !== p.email.toLowerCase() ? (
              <>
                <p class="note" role="note">
                  You are signed in as <strong>{auth.user.email}</strong>, but the invitation is for{' '}
                  <strong>{p.email}</strong>. Sign out, then sign in or sign up as {p.email}.
                </p>
                <button type="button" onClick={() => supabase.auth.signOut()}>
                  Sign out
                </button>
              </>
            ) : (
              <>
                <p>
                  Signed in as <strong>{auth.user.email}</strong>.
                </p>
                <Action
                  kind="primary"
                  run={async () => {
                    const accepted = await acceptInvitation(token)
                    await onAccepted(accepted.tenant_id)
                  }}
                >
                  Accept and join {p.tenant_name}
                </Action>
              </>
            )}
          </>
        )}
      </Loaded>
    </main>
  )
}
