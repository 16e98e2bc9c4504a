import type { VNode } from 'preact'
import { useState } from 'preact/hooks'
import { api, type Page } from '../api.ts'
import { ago, when } from '../format.ts'
import { Action, canWrite, Field, Form, html, Loaded, ReadOnly, useLoad, useSession } from '../ui.tsx'

interface Provider {
  id: string
  slug: string
  name: string
  category: string
  icon_url: string
}
interface Credential {
  id: string
  name: string
  environment: 'development' | 'staging' | 'production'
  key_hint: string
  provider: Provider
  scopes: string[]
  expires_at: string | null
  status: 'active' | 'expiring' | 'expired'
  last_used_at: string | null
  rotated_at: string | null
  created_at: string
}

const environments = ['development', 'staging', 'production'] as const
/** The form's order: production first, so it is the default, also after the form resets. */
const formEnvironments = ['production', 'staging', 'development'] as const

function byCategory(providers: Provider[]): [string, Provider[]][] {
  const groups = new Map<string, Provider[]>()
  for (const p of providers) groups.set(p.category, [...(groups.get(p.category) ?? []), p])
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b))
}

const isoOrNull = (v: FormDataEntryValue | null) => (v ? new Date(String(v)).toISOString() : undefined)

export function CredentialsPage(): VNode {
  const session = useSession()
  const write = canWrite(session)
  const providers = useLoad(() => api<{ data: Provider[] }>('GET', '/api/providers'))
  const [env, setEnv] = useState('')
  const list = useLoad(
    () => api<Page<Credential>>('GET', `/api/credentials?limit=100${env ? `&environment=${env}` : ''}`),
    [env],
  )
  const [rotating, setRotating] = useState<string>()

  return html`<section>
    <h1>Credentials</h1>
    <p class="muted">Secrets for outside services, encrypted as soon as they arrive. Only a hint of each is ever shown.</p>
    ${
      write
        ? html`<details class="card"><summary>Add a credential</summary>
      <${Loaded} state=${providers}>${(p: {
        data: Provider[]
      }) => html`<${Form} label="Add a credential" submitLabel="Save credential"
        submit=${async (d: FormData, f: HTMLFormElement) => {
          await api('POST', '/api/credentials', {
            provider_id: String(d.get('provider_id')),
            name: String(d.get('name')).trim(),
            environment: String(d.get('environment')),
            credential: String(d.get('credential')),
            ...(d.get('expires_at') && { expires_at: isoOrNull(d.get('expires_at')) }),
          })
          f.reset()
          list.reload()
        }}>
        <div class="grid2">
          <${Field} label="Provider"><select name="provider_id" required>
            <option value="">Choose a provider…</option>
            ${byCategory(p.data).map(
              ([cat, items]) =>
                html`<optgroup label=${cat}>${items.map((x) => html`<option value=${x.id}>${x.name}</option>`)}</optgroup>`,
            )}
          </select><//>
          <${Field} label="Name" hint="1 to 100 characters, unique per provider and environment"><input name="name" required maxlength="100" /><//>
          <${Field} label="Environment" hint="The assistant uses production keys unless its settings choose another"><select name="environment">${formEnvironments.map((e) => html`<option>${e}</option>`)}</select><//>
          <${Field} label="Expires (optional)" hint="A future date; owners and admins are e-mailed 7 days and 1 day before"><input name="expires_at" type="datetime-local" /><//>
        </div>
        <${Field} label="Secret" hint="Kept exactly as typed, up to 16,384 characters"><input name="credential" type="password" required maxlength="16384" autocomplete="off" class="mono" /><//>
      <//>`}<//>
    </details>`
        : html`<${ReadOnly} what="the credentials" />`
    }
    <div class="row">
      <label class="field inline"><span>Show</span>
        <select value=${env} onChange=${(e: Event) => setEnv((e.target as HTMLSelectElement).value)}>
          <option value="">all environments</option>${environments.map((e) => html`<option>${e}</option>`)}
        </select></label>
    </div>
    <${Loaded} state=${list}>${(page: Page<Credential>) =>
      page.data.length
        ? html`<table>
        <caption class="sr">Credentials</caption>
        <thead><tr><th>Name</th><th>Provider</th><th>Hint</th><th>Environment</th><th>Expiry</th><th>Last used</th><th><span class="sr">Actions</span></th></tr></thead>
        <tbody>${page.data.map(
          (c) => html`<tr>
            <td data-label="Name"><strong>${c.name}</strong>${c.rotated_at ? html`<br /><small class="muted">rotated ${ago(c.rotated_at)}</small>` : null}</td>
            <td data-label="Provider">${c.provider.name}<br /><small class="muted">${c.provider.category}</small></td>
            <td data-label="Hint"><code>${c.key_hint}</code></td>
            <td data-label="Environment">${c.environment}</td>
            <td data-label="Expiry"><span class=${`pill ${c.status}`}>${c.status}</span>${c.expires_at ? html`<br /><small title=${when(c.expires_at)}>${ago(c.expires_at)}</small>` : null}</td>
            <td data-label="Last used" title=${when(c.last_used_at)}>${ago(c.last_used_at)}</td>
            <td>${
              write
                ? html`<button type="button" onClick=${() => setRotating(rotating === c.id ? undefined : c.id)} aria-expanded=${rotating === c.id}>Rotate</button>
                  <${Action} kind="danger" label=${`Delete ${c.name}`} confirm=${`Delete the credential “${c.name}” and its usage records? Code that uses it stops working.`} confirmLabel="Delete"
                    run=${async () => {
                      await api('DELETE', `/api/credentials/${c.id}`)
                      list.reload()
                    }}>Delete<//>`
                : null
            }</td>
          </tr>
          ${
            rotating === c.id
              ? html`<tr class="sub"><td colspan="7">
            <${Form} label=${`Rotate ${c.name}`} submitLabel="Replace secret" class="inline" submit=${async (
              d: FormData,
            ) => {
              await api('POST', `/api/credentials/${c.id}/rotate`, {
                credential: String(d.get('credential')),
                ...(d.get('expires_at') && { expires_at: isoOrNull(d.get('expires_at')) }),
              })
              setRotating(undefined)
              list.reload()
            }}>
              <${Field} label="New secret" hint="Kept exactly as typed, up to 16,384 characters"><input name="credential" type="password" required maxlength="16384" autocomplete="off" class="mono" /><//>
              <${Field} label="New expiry (optional)" hint="A future date"><input name="expires_at" type="datetime-local" /><//>
            <//></td></tr>`
              : null
          }`,
        )}</tbody></table>`
        : html`<p class="muted">No credentials${env ? ` in ${env}` : ''}.</p>`}<//>
    <h2>Providers</h2>
    <${Loaded} state=${providers}>${(p: { data: Provider[] }) =>
      html`<div class="catalog">${byCategory(p.data).map(
        ([cat, items]) =>
          html`<div class="card"><h3>${cat}</h3><p>${items.map((x) => x.name).join(', ')}</p></div>`,
      )}</div>`}<//>
  </section>`
}
