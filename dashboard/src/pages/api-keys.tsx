import { scopes } from '@shared/infra/caller.ts'
import type { VNode } from 'preact'
import { useState } from 'preact/hooks'
import {
  type ApiKey,
  createApiKey,
  type NewApiKey,
  revokeApiKey,
  useApiKey,
  useApiKeys,
} from '../data/api-keys.ts'
import { type Connection, useConnections } from '../data/connections.ts'
import { ago, when } from '../format.ts'
import { Action, canWrite, Field, Form, Loaded, ReadOnly, SecretOnce, useSession } from '../ui.tsx'
import { KeyRequests } from './request-log.tsx'

/** The two families and the environments (hence prefixes) each takes, as the spec lists them. */
const families = {
  platform: {
    label: 'Platform API key (Authorization: Bearer, at /v1)',
    environments: { production: 'svc_live_', sandbox: 'svc_test_' },
    maxRate: 1000,
  },
  tool_server: {
    label: 'Tool-server key (X-API-Key, at /mcp)',
    environments: { development: 'mcp_dev_', production: 'mcp_live_', service: 'srv_' },
    maxRate: 100,
  },
} as const
type Kind = keyof typeof families

/**
 * The platform's own tools on the tool server and the scope each needs
 * (shared/services/tools/platform-tools.ts): a tool-server key's form offers only these scopes,
 * and ticks only the one that reads.
 */
const toolsByScope: Record<string, string[]> = {
  'content:read': [
    'platform:list_content',
    'platform:get_content',
    'platform:list_sources',
    'platform:list_source_items',
    'platform:search_products',
  ],
  'content:write': [
    'platform:create_draft',
    'platform:update_article',
    'platform:generate_draft',
    'platform:translate_article',
    'platform:schedule_article',
    'platform:publish_article',
  ],
}

/** What each scope opens on a platform key; the user scopes guard nothing yet. */
const platformScopeUse: Record<string, string> = {
  'content:read': 'read sites, articles and products (/v1/content, /v1/products)',
  'content:write': 'create, edit and publish',
  'assistant:invoke': 'the assistant (/v1/assistant)',
  'analytics:read': 'analytics (/v1/analytics)',
  'billing:read': 'usage and quotas (/api/usage)',
  'users:read': 'reserved: no route uses it yet',
  'users:write': 'reserved: no route uses it yet',
}

function status(k: ApiKey): { text: string; tone: string } {
  if (k.revoked_at) return { text: 'revoked', tone: 'revoked' }
  if (k.expires_at && new Date(k.expires_at) < new Date()) return { text: 'expired', tone: 'expired' }
  return { text: 'active', tone: 'active' }
}

export function ApiKeysPage(): VNode {
  const session = useSession()
  const write = canWrite(session)
  const keys = useApiKeys()
  const [kind, setKind] = useState<Kind>('platform')
  // A published-only key reads published content and nothing else: safe in a browser or a static build.
  const [publishedOnly, setPublishedOnly] = useState(false)
  const published = kind === 'platform' && publishedOnly
  const [created, setCreated] = useState<Awaited<ReturnType<typeof createApiKey>> | undefined>()

  const create = async (d: FormData, form: HTMLFormElement) => {
    const expires = String(d.get('expires_at') ?? '')
    const subset = {
      connections: d.getAll('subset_connections').map(String),
      tools: String(d.get('subset_tools') ?? '')
        .split(/[\s,]+/)
        .filter(Boolean),
    }
    const limited = kind === 'tool_server' && subset.connections.length + subset.tools.length > 0
    const origins = String(d.get('allowed_origins') ?? '')
      .split(/[\s,]+/)
      .filter(Boolean)
    // The form offers only the values the API takes; the API checks them again.
    const key = await createApiKey({
      kind,
      name: String(d.get('name')).trim(),
      environment: String(d.get('environment')) as NewApiKey['environment'],
      scopes: published ? ['content:read'] : (d.getAll('scopes').map(String) as NewApiKey['scopes']),
      ...(published && { published_only: true, allowed_origins: origins }),
      rate_limit_per_minute: Number(d.get('rate_limit_per_minute')),
      ...(expires && { expires_at: new Date(expires).toISOString() }),
      ...(limited && { tool_subset: subset }),
      ...(kind === 'tool_server' && d.get('tool_search') === 'on' && { tool_listing: 'search' as const }),
    })
    form.reset()
    setPublishedOnly(false)
    setCreated(key)
    keys.reload()
  }

  const family = families[kind]
  return (
    <section>
      <p class="crumb">Settings</p>
      <h1>API keys</h1>
      <p class="muted">
        Platform keys call the Content API at <code>/v1</code>; tool-server keys call the tool server at{' '}
        <code>/mcp</code>. Keys are stored hashed: the full key is shown once, when it is made.
      </p>
      {created ? (
        <SecretOnce
          title={`New key “${created.name}”`}
          value={created.key}
          notice="Copy it now: it is shown only once and cannot be recovered. A lost key is replaced by a new one."
          onDone={() => setCreated(undefined)}
        />
      ) : null}
      {write ? (
        <details class="card" open={!keys.data?.data.length}>
          <summary>Create a key</summary>
          <Form label="Create an API key" submitLabel="Create key" submit={create}>
            <Field label="Family">
              <select
                name="kind"
                value={kind}
                onChange={(e: Event) => setKind((e.target as HTMLSelectElement).value as Kind)}
              >
                {Object.entries(families).map(([k, f]) => (
                  <option value={k}>{f.label}</option>
                ))}
              </select>
            </Field>
            <div class="grid2">
              <Field label="Name" hint="1 to 100 characters, to tell keys apart">
                <input name="name" required maxlength={100} placeholder="e.g. website build" />
              </Field>
              <Field label="Environment" hint="It picks the key's prefix">
                <select name="environment">
                  {Object.entries(family.environments).map(([env, prefix]) => (
                    <option value={env}>
                      {env} ({prefix}…)
                    </option>
                  ))}
                </select>
              </Field>
              <Field
                label="Rate limit (requests per minute)"
                hint={`1 to ${family.maxRate} for this kind of key`}
              >
                <input
                  name="rate_limit_per_minute"
                  type="number"
                  min="1"
                  max={family.maxRate}
                  value="60"
                  required
                />
              </Field>
              <Field label="Expires (optional)" hint="A future date; the key stops working then">
                <input name="expires_at" type="datetime-local" />
              </Field>
            </div>
            {kind === 'platform' ? (
              <label class="check">
                <input
                  type="checkbox"
                  name="published_only"
                  checked={publishedOnly}
                  onChange={(e: Event) => setPublishedOnly((e.target as HTMLInputElement).checked)}
                />
                Published-only{' '}
                <small class="muted">
                  reads published articles, their sites and tags, and nothing more: safe in a browser or a
                  static site's build
                </small>
              </label>
            ) : null}
            {published ? (
              <Field
                label="Allowed origins (optional)"
                hint="The sites whose pages may call the API with this key from a browser: scheme, host and port (https://blog.example.com), up to 20, separated by spaces or new lines. None: server-side and build use only."
              >
                <textarea
                  name="allowed_origins"
                  rows={2}
                  maxlength={4000}
                  placeholder="https://blog.example.com"
                ></textarea>
              </Field>
            ) : (
              <fieldset class="scopes">
                <legend>Scopes (choose the fewest that work; at least one)</legend>
                {(kind === 'tool_server' ? Object.keys(toolsByScope) : scopes).map((s) => (
                  <label class="check" key={`${kind}-${s}`}>
                    <input type="checkbox" name="scopes" value={s} checked={s === 'content:read'} />{' '}
                    <code>{s}</code>{' '}
                    <small class="muted">
                      {kind === 'tool_server' ? `tools: ${toolsByScope[s]!.join(', ')}` : platformScopeUse[s]}
                    </small>
                  </label>
                ))}
              </fieldset>
            )}
            {kind === 'tool_server' ? <ToolSubsetFields /> : null}
            {kind === 'tool_server' ? (
              <label>
                <input type="checkbox" name="tool_search" /> Tool search: list search_tools and call_tool
                instead of every tool (a smaller context for the client)
              </label>
            ) : null}
          </Form>
        </details>
      ) : (
        <ReadOnly what="the keys" />
      )}
      <Loaded state={keys}>
        {(page) =>
          page.data.length ? (
            <table class="keys">
              <caption class="sr">API keys</caption>
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Key</th>
                  <th>Scopes</th>
                  <th>Limit</th>
                  <th>Last used</th>
                  <th>Status</th>
                  <th>
                    <span class="sr">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {page.data.map((k) => {
                  const st = status(k)
                  return (
                    <tr data-key={k.id}>
                      <td data-label="Name">
                        <strong>
                          <a href={`#/keys/${k.id}`}>{k.name}</a>
                        </strong>
                        <br />
                        <small class="muted">
                          {k.kind === 'platform' ? 'platform' : 'tool server'} · {k.environment}
                          {k.published_only ? ' · published-only' : ''}
                        </small>
                      </td>
                      <td data-label="Key">
                        <code>{k.key_prefix}…</code>
                      </td>
                      <td data-label="Scopes">
                        {k.scopes.map((s) => (
                          <>
                            <code class="tag">{s}</code>{' '}
                          </>
                        ))}
                        {k.tool_subset ? (
                          <>
                            <br />
                            <small class="muted">limited to {subsetText(k.tool_subset)}</small>
                          </>
                        ) : null}
                        {k.tool_listing === 'search' ? (
                          <>
                            <br />
                            <small class="muted">tool search</small>
                          </>
                        ) : null}
                      </td>
                      <td data-label="Limit">{k.rate_limit_per_minute}/min</td>
                      <td data-label="Last used" class="last-used" title={when(k.last_used_at)}>
                        {ago(k.last_used_at)}
                      </td>
                      <td data-label="Status">
                        <span class={`pill ${st.tone}`}>{st.text}</span>
                        {k.expires_at && !k.revoked_at ? (
                          <>
                            <br />
                            <small class="muted">expires {ago(k.expires_at)}</small>
                          </>
                        ) : null}
                      </td>
                      <td>
                        {write && !k.revoked_at ? (
                          <Action
                            kind="danger"
                            label={`Revoke ${k.name}`}
                            confirm={`Revoke “${k.name}”? Calls with this key fail at once. This cannot be undone.`}
                            confirmLabel="Revoke key"
                            run={async () => {
                              await revokeApiKey(k.id)
                              keys.reload()
                            }}
                          >
                            Revoke
                          </Action>
                        ) : null}
                      </td>
                    </tr>
                  )
                })}
              </tbody>
            </table>
          ) : (
            <p class="note">
              No keys yet. Create one above for your site or build (platform key) or an AI client (tool-server
              key).
            </p>
          )
        }
      </Loaded>
    </section>
  )
}

/** One key: what it is, and what it did (its latest requests and last 24 hours). */
export function ApiKeyPage({ id }: { id: string }): VNode {
  const key = useApiKey(id)
  return (
    <section>
      <p class="crumb">
        <a href="#/keys">API keys</a>
      </p>
      <Loaded state={key}>
        {(k) => {
          const st = status(k)
          return (
            <>
              <h1>
                {k.name} <span class={`pill ${st.tone}`}>{st.text}</span>
              </h1>
              <p class="muted">
                <code>{k.key_prefix}…</code> · {k.kind === 'platform' ? 'platform' : 'tool server'} ·{' '}
                {k.environment} · {k.rate_limit_per_minute}/min · last used{' '}
                <span title={when(k.last_used_at)}>{ago(k.last_used_at)}</span>
              </p>
              <p>
                {k.scopes.map((s) => (
                  <>
                    <code class="tag">{s}</code>{' '}
                  </>
                ))}
              </p>
              {k.kind === 'platform' ? (
                <dl class="facts">
                  <dt>Published-only</dt>
                  <dd>
                    {k.published_only
                      ? 'Yes: reads published articles, their sites and tags, and nothing more'
                      : 'No: reads drafts too; keep it on a server'}
                  </dd>
                  {k.published_only ? (
                    <>
                      <dt>Allowed origins</dt>
                      <dd>
                        {k.allowed_origins.length
                          ? k.allowed_origins.map((o) => (
                              <>
                                <code class="tag">{o}</code>{' '}
                              </>
                            ))
                          : 'None: browsers on other sites cannot call with it (server-side and build use only)'}
                      </dd>
                    </>
                  ) : null}
                </dl>
              ) : null}
            </>
          )
        }}
      </Loaded>
      <KeyRequests keyId={id} />
    </section>
  )
}

const connectionLabel = (c: Connection) =>
  `${c.display_name ?? c.external_account_name ?? c.integration_slug} (${c.integration_slug})`

function subsetText(subset: NonNullable<ApiKey['tool_subset']>): string {
  const parts = [...(subset.tools ?? [])]
  if (subset.connections?.length) parts.unshift(`${subset.connections.length} connection(s)`)
  return parts.join(', ')
}

/** A tool-server key's optional tool subset: whole connections, and single tools by name. */
function ToolSubsetFields(): VNode {
  const connections = useConnections()
  return (
    <fieldset class="scopes">
      <legend>Limit to these tools (optional; nothing chosen: every tool)</legend>
      <Loaded state={connections}>
        {(page) =>
          page.data.map((c) => (
            <label class="check" key={c.id}>
              <input type="checkbox" name="subset_connections" value={c.id} />
              All tools of {connectionLabel(c)}
            </label>
          ))
        }
      </Loaded>
      <Field label="Single tools (names, separated by spaces or commas)">
        <input name="subset_tools" maxlength={20000} placeholder="platform:list_content slack:post_message" />
      </Field>
    </fieldset>
  )
}
