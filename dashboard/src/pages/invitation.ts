/**
 * The invitation e-mail's link (#/invitation/<token>): what it invites to, then sign up or sign in
 * as the invited address, then accept. Shown whether or not someone is signed in.
 */
import type { Session as AuthSession } from '@supabase/supabase-js'
import type { VNode } from 'preact'
import { useState } from 'preact/hooks'
import { api, supabase } from '../api.ts'
import { ago, when } from '../format.ts'
import { Action, Field, Form, html, Loaded, useLoad } from '../ui.tsx'

interface Preview {
  tenant_name: string
  email: string
  role: 'owner' | 'admin' | 'member' | 'contributor'
  expires_at: string
  status: string
}

const roleNames = {
  owner: 'an owner (everything, including the team and billing)',
  admin: 'an admin (manages keys, credentials, integrations and the team)',
  member: 'a member (works on content, reads the rest)',
  contributor: 'a contributor (writes drafts and submits them for review; an editor publishes)',
}

function SignUpOrIn({ email }: { email: string }): VNode {
  const [mode, setMode] = useState<'up' | 'in'>('up')
  return html`<div>
    <div class="tabs" role="tablist">
      <button type="button" role="tab" aria-selected=${mode === 'up'} onClick=${() => setMode('up')}>Create an account</button>
      <button type="button" role="tab" aria-selected=${mode === 'in'} onClick=${() => setMode('in')}>I have an account</button>
    </div>
    <${Form} key=${mode} label=${mode === 'up' ? 'Sign up to accept' : 'Sign in to accept'}
      submitLabel=${mode === 'up' ? 'Sign up' : 'Sign in'} submit=${async (d: FormData) => {
        const password = String(d.get('password'))
        const { data, error } =
          mode === 'in'
            ? await supabase.auth.signInWithPassword({ email, password })
            : await supabase.auth.signUp({ email, password })
        if (error) throw error
        if (!data.session) throw new Error('Check your e-mail to confirm the address, then sign in.')
      }}>
      <${Field} label="E-mail" hint="The invitation is for this address"><input name="email" type="email" value=${email} readonly /><//>
      <${Field} label="Password" hint=${mode === 'up' ? 'At least 6 characters' : undefined}>
        <input name="password" type="password" required minlength=${mode === 'up' ? 6 : undefined}
          autocomplete=${mode === 'in' ? 'current-password' : 'new-password'} autofocus /><//>
    <//>
  </div>`
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
  const preview = useLoad(() =>
    api<Preview>('GET', `/api/invitations/accept?token=${encodeURIComponent(token)}`),
  )
  const signedInAs = auth?.user.email?.toLowerCase()
  return html`<main class="narrow invitation">
    <h1>Tenant Platform</h1>
    <${Loaded} state=${preview}>${(p: Preview) => html`
      <section class="card" aria-label="Invitation">
        <h2>You are invited to join <strong>${p.tenant_name}</strong></h2>
        <p>As ${roleNames[p.role]}. The invitation is for <strong>${p.email}</strong>
          ${p.status === 'pending' ? html` and expires <span title=${when(p.expires_at)}>${ago(p.expires_at)}</span>` : null}.</p>
      </section>
      ${
        p.status !== 'pending'
          ? html`<p class="error" role="alert">This invitation is ${p.status}. Ask whoever invited you for a new one.</p>
            <p><a href="#/">Go to the dashboard</a></p>`
          : !auth
            ? html`<${SignUpOrIn} email=${p.email} />`
            : signedInAs !== p.email.toLowerCase()
              ? html`<p class="note" role="note">You are signed in as <strong>${auth.user.email}</strong>, but the invitation is
                  for <strong>${p.email}</strong>. Sign out, then sign in or sign up as ${p.email}.</p>
                <button type="button" onClick=${() => supabase.auth.signOut()}>Sign out</button>`
              : html`<p>Signed in as <strong>${auth.user.email}</strong>.</p>
                <${Action} kind="primary" run=${async () => {
                  const accepted = await api<{ tenant_id: string }>('POST', '/api/invitations/accept', {
                    token,
                  })
                  await onAccepted(accepted.tenant_id)
                }}>Accept and join ${p.tenant_name}<//>`
      }
    `}<//>
  </main>`
}
