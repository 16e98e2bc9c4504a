import type { VNode } from 'preact'
import { useState } from 'preact/hooks'
import { supabase } from '../api.ts'
import { Field, Form } from '../ui.tsx'

/** E-mail and password, with supabase-js auth: Supabase Auth in production, the platform locally. */
export function SignIn(): VNode {
  const [mode, setMode] = useState<'in' | 'up'>('in')
  const submit = async (data: FormData) => {
    const email = String(data.get('email'))
    const password = String(data.get('password'))
    const { data: res, error } =
      mode === 'in'
        ? await supabase.auth.signInWithPassword({ email, password })
        : await supabase.auth.signUp({ email, password })
    if (error) throw error
    if (!res.session) throw new Error('Check your e-mail to confirm the address, then sign in.')
  }
  return (
    <main class="narrow signin">
      <h1>Tenant Platform</h1>
      <div class="tabs" role="tablist">
        <button type="button" role="tab" aria-selected={mode === 'in'} onClick={() => setMode('in')}>
          Sign in
        </button>
        <button type="button" role="tab" aria-selected={mode === 'up'} onClick={() => setMode('up')}>
          Create an account
        </button>
      </div>
      <Form
        key={mode}
        submit={submit}
        label={mode === 'in' ? 'Sign in' : 'Sign up'}
        submitLabel={mode === 'in' ? 'Sign in' : 'Sign up'}
      >
        <Field label="E-mail">
          <input name="email" type="email" required autocomplete="email" autofocus />
        </Field>
        <Field label="Password" hint={mode === 'up' ? 'At least 6 characters' : undefined}>
          <input
            name="password"
            type="password"
            required
            minlength={mode === 'up' ? 6 : undefined}
            autocomplete={mode === 'in' ? 'current-password' : 'new-password'}
          />
        </Field>
      </Form>
    </main>
  )
}
