import type { VNode } from 'preact'
import { useState } from 'preact/hooks'
import {
  createCredential,
  deleteCredential,
  type Environment,
  type Provider,
  rotateCredential,
  updateCredential,
  useCredentialList,
  useProviders,
} from '../data/credentials.ts'
import { ago, when } from '../format.ts'
import { Action, canWrite, Field, Form, Loaded, ReadOnly, useSession } from '../ui.tsx'

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
  const providers = useProviders()
  const [env, setEnv] = useState('')
  const list = useCredentialList(env)
  const [rotating, setRotating] = useState<string>()

  return (
    <section>
      <h1>Credentials</h1>
      <p class="muted">
        Secrets for outside services, encrypted as soon as they arrive. Only a hint of each is ever shown.
      </p>
      {write ? (
        <details class="card">
          <summary>Add a credential</summary>
          <Loaded state={providers}>
            {(p) => (
              <Form
                label="Add a credential"
                submitLabel="Save credential"
                submit={async (d: FormData, f: HTMLFormElement) => {
                  await createCredential({
                    provider_id: String(d.get('provider_id')),
                    name: String(d.get('name')).trim(),
                    // One of the select's environments; the API checks it again.
                    environment: String(d.get('environment')) as Environment,
                    credential: String(d.get('credential')),
                    ...(d.get('expires_at') && { expires_at: isoOrNull(d.get('expires_at')) }),
                    ...(String(d.get('base_url') ?? '').trim() && {
                      base_url: String(d.get('base_url')).trim(),
                    }),
                  })
                  f.reset()
                  list.reload()
                }}
              >
                <div class="grid2">
                  <Field label="Provider">
                    <select name="provider_id" required>
                      <option value="">Choose a provider…</option>
                      {byCategory(p.data).map(([cat, items]) => (
                        <optgroup label={cat}>
                          {items.map((x) => (
                            <option value={x.id}>{x.name}</option>
                          ))}
                        </optgroup>
                      ))}
                    </select>
                  </Field>
                  <Field label="Name" hint="1 to 100 characters, unique per provider and environment">
                    <input name="name" required maxlength={100} />
                  </Field>
                  <Field
                    label="Environment"
                    hint="The assistant uses production keys unless its settings choose another"
                  >
                    <select name="environment">
                      {formEnvironments.map((e) => (
                        <option>{e}</option>
                      ))}
                    </select>
                  </Field>
                  <Field
                    label="Expires (optional)"
                    hint="A future date; owners and admins are e-mailed 7 days and 1 day before"
                  >
                    <input name="expires_at" type="datetime-local" />
                  </Field>
                </div>
                <Field label="Secret" hint="Kept exactly as typed, up to 16,384 characters">
                  <input
                    name="credential"
                    type="password"
                    required
                    maxlength={16384}
                    autocomplete="off"
                    class="mono"
                  />
                </Field>
                <Field
                  label="Model endpoint (optional)"
                  hint="OpenAI-compatible keys only: the API base URL the assistant calls instead of OpenAI's, e.g. https://openrouter.ai/api/v1 (https, a public address)"
                >
                  <input name="base_url" type="url" maxlength={500} placeholder="https://api.openai.com/v1" />
                </Field>
              </Form>
            )}
          </Loaded>
        </details>
      ) : (
        <ReadOnly what="the credentials" />
      )}
      <div class="row">
        <label class="field inline">
          <span>Show</span>
          <select value={env} onChange={(e: Event) => setEnv((e.target as HTMLSelectElement).value)}>
            <option value="">all environments</option>
            {environments.map((e) => (
              <option>{e}</option>
            ))}
          </select>
        </label>
      </div>
      <Loaded state={list}>
        {(page) =>
          page.data.length ? (
            <table>
              <caption class="sr">Credentials</caption>
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Provider</th>
                  <th>Hint</th>
                  <th>Environment</th>
                  <th>Expiry</th>
                  <th>Last used</th>
                  <th>
                    <span class="sr">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {page.data.map((c) => (
                  <>
                    <tr>
                      <td data-label="Name">
                        <strong>{c.name}</strong>
                        {c.rotated_at ? (
                          <>
                            <br />
                            <small class="muted">rotated {ago(c.rotated_at)}</small>
                          </>
                        ) : null}
                      </td>
                      <td data-label="Provider">
                        {c.provider.name}
                        <br />
                        <small class="muted">{c.provider.category}</small>
                        {c.base_url ? (
                          <>
                            <br />
                            <small class="mono endpoint" title="Model endpoint">
                              {c.base_url}
                            </small>
                          </>
                        ) : null}
                      </td>
                      <td data-label="Hint">
                        <code>{c.key_hint}</code>
                      </td>
                      <td data-label="Environment">{c.environment}</td>
                      <td data-label="Expiry">
                        <span class={`pill ${c.status}`}>{c.status}</span>
                        {c.expires_at ? (
                          <>
                            <br />
                            <small title={when(c.expires_at)}>{ago(c.expires_at)}</small>
                          </>
                        ) : null}
                      </td>
                      <td data-label="Last used" title={when(c.last_used_at)}>
                        {ago(c.last_used_at)}
                      </td>
                      <td>
                        {write ? (
                          <>
                            <button
                              type="button"
                              onClick={() => setRotating(rotating === c.id ? undefined : c.id)}
                              aria-expanded={rotating === c.id}
                            >
                              {c.provider.slug === 'openai' ? 'Rotate or endpoint' : 'Rotate'}
                            </button>
                            <Action
                              kind="danger"
                              label={`Delete ${c.name}`}
                              confirm={`Delete the credential “${c.name}” and its usage records? Code that uses it stops working.`}
                              confirmLabel="Delete"
                              run={async () => {
                                await deleteCredential(c.id)
                                list.reload()
                              }}
                            >
                              Delete
                            </Action>
                          </>
                        ) : null}
                      </td>
                    </tr>
                    {rotating === c.id ? (
                      <tr class="sub">
                        <td colspan={7}>
                          <Form
                            label={`Rotate ${c.name}`}
                            submitLabel="Replace secret"
                            class="inline"
                            submit={async (d: FormData) => {
                              await rotateCredential(c.id, {
                                credential: String(d.get('credential')),
                                ...(d.get('expires_at') && { expires_at: isoOrNull(d.get('expires_at')) }),
                              })
                              setRotating(undefined)
                              list.reload()
                            }}
                          >
                            <Field label="New secret" hint="Kept exactly as typed, up to 16,384 characters">
                              <input
                                name="credential"
                                type="password"
                                required
                                maxlength={16384}
                                autocomplete="off"
                                class="mono"
                              />
                            </Field>
                            <Field label="New expiry (optional)" hint="A future date">
                              <input name="expires_at" type="datetime-local" />
                            </Field>
                          </Form>
                          {c.provider.slug === 'openai' ? (
                            <Form
                              label={`Model endpoint of ${c.name}`}
                              submitLabel="Save endpoint"
                              class="inline"
                              submit={async (d: FormData) => {
                                const url = String(d.get('base_url') ?? '').trim()
                                await updateCredential(c.id, { base_url: url || null })
                                setRotating(undefined)
                                list.reload()
                              }}
                            >
                              <Field label="Model endpoint" hint="Empty: OpenAI's own API">
                                <input
                                  name="base_url"
                                  type="url"
                                  maxlength={500}
                                  value={c.base_url ?? ''}
                                  placeholder="https://api.openai.com/v1"
                                />
                              </Field>
                            </Form>
                          ) : null}
                        </td>
                      </tr>
                    ) : null}
                  </>
                ))}
              </tbody>
            </table>
          ) : (
            <p class="muted">No credentials{env ? ` in ${env}` : ''}.</p>
          )
        }
      </Loaded>
      <h2>Providers</h2>
      <Loaded state={providers}>
        {(p) => (
          <div class="catalog">
            {byCategory(p.data).map(([cat, items]) => (
              <div class="card">
                <h3>{cat}</h3>
                <p>{items.map((x) => x.name).join(', ')}</p>
              </div>
            ))}
          </div>
        )}
      </Loaded>
    </section>
  )
}
