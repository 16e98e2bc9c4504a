import { restrictionKinds } from '@shared/services/integrations/restriction-kinds.ts'
import type { VNode } from 'preact'
import { useState } from 'preact/hooks'
import {
  authorizeUrl,
  type Connection,
  connectMcpServer,
  deleteConnection,
  discoverTools,
  type Integration,
  integrationStats,
  renameConnection,
  setPermission,
  type Tool,
  useCatalog,
  useConnection,
  useConnections,
  usePermissions,
} from '../data/connections.ts'
import { useLoad } from '../data/load.ts'
import { ago, num, percent, when } from '../format.ts'
import { Action, Bar, canWrite, ErrorNote, Field, Form, Loaded, ReadOnly, useSession } from '../ui.tsx'

const connectionName = (c: Connection) => c.display_name ?? c.external_account_name ?? c.integration_slug

export function IntegrationsPage(): VNode {
  const session = useSession()
  const write = canWrite(session)
  const catalog = useCatalog()
  const connections = useConnections()
  const [connecting, setConnecting] = useState<Integration>()
  const [category, setCategory] = useState('')
  // #/integrations?connect=<slug>: the link an MCP client shows when a tool needs that integration.
  const [wanted, setWanted] = useState(
    () => new URLSearchParams(location.hash.split('?')[1] ?? '').get('connect') ?? '',
  )

  return (
    <section>
      <h1>Integrations</h1>
      <h2>Connections</h2>
      <Loaded state={connections}>
        {(c) =>
          c.data.length ? (
            <table>
              <caption class="sr">Connections</caption>
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Integration</th>
                  <th>Type</th>
                  <th>Status</th>
                  <th>Tools</th>
                  <th>
                    <span class="sr">Open</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {c.data.map((x) => (
                  <tr>
                    <td data-label="Name">
                      <a href={`#/integrations/${x.id}`}>{connectionName(x)}</a>
                    </td>
                    <td data-label="Integration">{x.integration_slug}</td>
                    <td data-label="Type">
                      {x.connection_type === 'mcp'
                        ? `MCP (${x.mcp_transport ?? '?'}${x.mcp_auth_type === 'oauth' ? ', OAuth' : ''})`
                        : 'OAuth'}
                    </td>
                    <td data-label="Status">
                      <span class={`pill ${x.status}`}>{x.status.replace('_', ' ')}</span>
                    </td>
                    <td data-label="Tools">{x.tool_count}</td>
                    <td>
                      <a href={`#/integrations/${x.id}`} aria-label={`Open ${connectionName(x)}`}>
                        Statistics and tools →
                      </a>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p class="muted">No connections yet: connect one from the catalog below.</p>
          )
        }
      </Loaded>
      {write ? null : <ReadOnly what="the integrations" />}
      {connecting ? (
        <ConnectMcp
          integration={connecting}
          onDone={(id?: string) => {
            setConnecting(undefined)
            if (id) location.hash = `#/integrations/${id}`
          }}
        />
      ) : null}
      <h2>Catalog</h2>
      <Loaded state={catalog}>
        {(cat) => (
          <>
            <div class="row wrap" role="group" aria-label="Category">
              <button
                type="button"
                aria-pressed={category === '' && !wanted}
                onClick={() => {
                  setCategory('')
                  setWanted('')
                }}
              >
                All
              </button>
              {cat.categories
                // A category the catalog has nothing in yet is not offered as a filter.
                .filter((c) => c.integrations > 0)
                .map((c) => (
                  <button
                    type="button"
                    aria-pressed={category === c.slug}
                    onClick={() => setCategory(c.slug)}
                  >
                    {c.slug} ({c.integrations})
                  </button>
                ))}
            </div>
            <div class="catalog">
              {cat.data
                .filter((i) => (wanted ? i.slug === wanted : !category || i.category === category))
                .map((i) => (
                  <article class="card" aria-label={i.name}>
                    <h3>{i.name}</h3>
                    <p class="muted">
                      {i.category} · {i.connection_types.join(' + ')}
                      {i.mcp_type ? ` · ${i.mcp_type.replace('_', ' ')}` : ''}
                    </p>
                    {i.capabilities.length ? (
                      <p>
                        <small>{i.capabilities.join(', ')}</small>
                      </p>
                    ) : null}
                    {i.connection_types.includes('oauth') && !i.oauth_configured && i.oauth_settings ? (
                      <p class="note" data-oauth-settings style="overflow-wrap:anywhere">
                        <small>
                          OAuth is not set up on this deployment yet. To offer it, the operator sets{' '}
                          {i.oauth_settings.map((v, n) => (
                            <>
                              {n > 0 ? ' and ' : ''}
                              <code>{v}</code>
                            </>
                          ))}{' '}
                          (the OAuth app's client id and secret) and restarts the platform.
                        </small>
                      </p>
                    ) : null}
                    {write ? (
                      <div class="row wrap">
                        {i.connection_types.includes('oauth') && i.oauth_configured ? (
                          <Action
                            label={`Connect ${i.name} with OAuth`}
                            run={async () => {
                              const r = await authorizeUrl(i.slug)
                              location.href = r.authorization_url
                            }}
                          >
                            Connect with OAuth
                          </Action>
                        ) : null}
                        {i.connection_types.includes('mcp') ? (
                          <button type="button" onClick={() => setConnecting(i)}>
                            Connect MCP server
                          </button>
                        ) : null}
                      </div>
                    ) : null}
                  </article>
                ))}
            </div>
          </>
        )}
      </Loaded>
    </section>
  )
}

/** How the platform authenticates to an MCP server; only 'bearer' and 'api_key' take a token. */
const mcpAuthOptions = [
  ['bearer', 'Bearer token'],
  ['api_key', 'API key (X-API-Key)'],
  ['none', 'No token'],
  ['oauth', 'OAuth sign-in at the server'],
] as const

function ConnectMcp({
  integration,
  onDone,
}: {
  integration: Integration
  onDone: (id?: string) => void
}): VNode {
  const [auth, setAuth] = useState<NonNullable<Connection['mcp_auth_type']>>('bearer')
  const takesToken = auth === 'bearer' || auth === 'api_key'
  return (
    <section class="card" aria-label={`Connect ${integration.name}`}>
      <h2>Connect an MCP server: {integration.name}</h2>
      <p class="muted">
        The platform connects to the server, lists its tools and stores the credential encrypted. With OAuth
        sign-in (or no token, when the server asks for a sign-in) you are sent to the server's sign-in page
        and come back here.
      </p>
      <Form
        label="Connect an MCP server"
        submitLabel="Connect"
        submit={async (d: FormData) => {
          const answer = await connectMcpServer({
            integration_id: integration.integration_id,
            connection_type: 'mcp',
            mcp_server_url: String(d.get('url')).trim(),
            mcp_auth_type: auth,
            ...(takesToken && { mcp_auth_token: String(d.get('token')) }),
            ...(String(d.get('display_name') ?? '').trim() && {
              display_name: String(d.get('display_name')).trim(),
            }),
          })
          if ('authorization_url' in answer) location.href = answer.authorization_url
          else onDone(answer.id)
        }}
      >
        <div class="grid2">
          <Field label="Server URL" hint="The server's http(s) address, up to 2,048 characters">
            <input name="url" type="url" required placeholder="https://mcp.example.com/mcp" />
          </Field>
          <Field
            label="Display name (optional)"
            hint="1 to 100 characters, shown instead of the catalog's name"
          >
            <input name="display_name" maxlength={100} />
          </Field>
          <Field
            label="Authentication"
            hint={
              auth === 'oauth'
                ? 'You sign in at the server; the platform keeps and refreshes its tokens'
                : auth === 'none'
                  ? 'For a server that takes no credential; one that asks for a sign-in starts it'
                  : 'The credential the server gave you'
            }
          >
            <select
              name="auth"
              value={auth}
              onChange={(e: Event) => setAuth((e.target as HTMLSelectElement).value as typeof auth)}
            >
              {mcpAuthOptions.map(([value, label]) => (
                <option value={value}>{label}</option>
              ))}
            </select>
          </Field>
          {takesToken ? (
            <Field label="Token" hint="The server's credential, 1 to 4,096 characters; never shown again">
              <input name="token" type="password" required maxlength={4096} autocomplete="off" />
            </Field>
          ) : null}
        </div>
      </Form>
      <button type="button" onClick={() => onDone()}>
        Cancel
      </button>
    </section>
  )
}

/** Statistics of an integration as charts: calls per period, success and failure, triggered_by. */
function StatsPanel({ integrationId }: { integrationId: string }): VNode {
  const stats = useLoad(() =>
    Promise.all((['24h', '7d', '30d'] as const).map((p) => integrationStats(integrationId, p))),
  )
  const [period, setPeriod] = useState(2)
  return (
    <section class="card stats" aria-label="Statistics">
      <div class="row">
        <h2 class="grow">Statistics</h2>
        <button type="button" onClick={stats.reload} aria-busy={stats.loading}>
          {stats.loading ? <span class="spinner" aria-hidden="true"></span> : null}Refresh
        </button>
      </div>
      <Loaded state={stats}>
        {(all) => {
          const s = all[period]!
          const maxCalls = Math.max(1, ...all.map((x) => x.total_calls))
          const trig = s.triggered_by
          const trigMax = Math.max(1, trig.assistant, trig.automation, trig.manual)
          return (
            <>
              <div class="row wrap" role="group" aria-label="Period">
                {all.map((x, i) => (
                  <button type="button" aria-pressed={i === period} onClick={() => setPeriod(i)}>
                    {x.period}
                  </button>
                ))}
              </div>
              <div class="tiles">
                <div class="tile">
                  <span>Total calls</span>
                  <strong data-stat="total">{num(s.total_calls)}</strong>
                </div>
                <div class="tile">
                  <span>Success rate</span>
                  <strong data-stat="success">{percent(s.success_rate, 1)}</strong>
                </div>
                <div class="tile">
                  <span>Failure rate</span>
                  <strong data-stat="failure">{percent(s.failure_rate, 1)}</strong>
                </div>
                <div class="tile">
                  <span>Average response</span>
                  <strong data-stat="avg">
                    {s.avg_response_time_ms === null ? '—' : `${Math.round(s.avg_response_time_ms)} ms`}
                  </strong>
                </div>
              </div>
              <div class="charts">
                <figure>
                  <figcaption>Calls per period</figcaption>
                  {all.map((x) => (
                    <Bar
                      label={x.period}
                      value={x.total_calls}
                      max={maxCalls}
                      text={num(x.total_calls)}
                      tone="a"
                    />
                  ))}
                </figure>
                <figure>
                  <figcaption>Success and failure ({s.period})</figcaption>
                  <div
                    class="stack"
                    role="img"
                    aria-label={`${s.success_count} succeeded, ${s.failure_count} failed`}
                  >
                    <span class="fill ok" style={`flex:${s.success_count}`}></span>
                    <span class="fill bad" style={`flex:${s.failure_count}`}></span>
                  </div>
                  <p class="legend">
                    <span class="dot ok"></span>
                    {num(s.success_count)} succeeded <span class="dot bad"></span>
                    {num(s.failure_count)} failed
                  </p>
                </figure>
                <figure>
                  <figcaption>Triggered by ({s.period})</figcaption>
                  <Bar
                    label="assistant"
                    value={trig.assistant}
                    max={trigMax}
                    text={num(trig.assistant)}
                    tone="a"
                  />
                  <Bar
                    label="automation"
                    value={trig.automation}
                    max={trigMax}
                    text={num(trig.automation)}
                    tone="b"
                  />
                  <Bar label="manual" value={trig.manual} max={trigMax} text={num(trig.manual)} tone="c" />
                </figure>
              </div>
            </>
          )
        }}
      </Loaded>
    </section>
  )
}

export function ConnectionPage({ id }: { id: string }): VNode {
  const session = useSession()
  const write = canWrite(session)
  const conn = useConnection(id)
  const perms = usePermissions(id)
  const [statsKey, setStatsKey] = useState(0)
  return (
    <section>
      <p class="crumb">
        <a href="#/integrations">Integrations</a>
      </p>
      <Loaded state={conn}>
        {(c) => (
          <>
            <h1>{connectionName(c)}</h1>
            <dl class="facts">
              <dt>Integration</dt>
              <dd>{c.integration_slug}</dd>
              <dt>Type</dt>
              <dd>{c.connection_type === 'mcp' ? `MCP over ${c.mcp_transport}` : 'OAuth'}</dd>
              {c.mcp_server_url ? (
                <>
                  <dt>Server</dt>
                  <dd>
                    <code>{c.mcp_server_url}</code>
                  </dd>
                </>
              ) : null}
              <dt>Status</dt>
              <dd>
                <span class={`pill ${c.status}`}>{c.status.replace('_', ' ')}</span>
              </dd>
              <dt>Tools discovered</dt>
              <dd title={when(c.tools_discovered_at)}>
                {c.tool_count} · {ago(c.tools_discovered_at)}
              </dd>
              {c.token_expires_at ? (
                <>
                  <dt>Token expires</dt>
                  <dd>{when(c.token_expires_at)}</dd>
                </>
              ) : null}
            </dl>
            {write ? (
              <>
                <div class="row wrap">
                  {c.connection_type === 'mcp' ? (
                    <Action
                      run={async () => {
                        await discoverTools(id)
                        conn.reload()
                        setStatsKey((k) => k + 1)
                      }}
                    >
                      Discover tools again
                    </Action>
                  ) : null}
                  <Action
                    kind="danger"
                    confirm={`Delete the connection “${connectionName(c)}”? Its token is revoked where the provider allows.`}
                    confirmLabel="Delete connection"
                    run={async () => {
                      await deleteConnection(id)
                      location.hash = '#/integrations'
                    }}
                  >
                    Delete connection
                  </Action>
                </div>
                <Form
                  label="Rename the connection"
                  submitLabel="Rename"
                  class="inline"
                  submit={async (d: FormData) => {
                    await renameConnection(id, String(d.get('display_name')).trim())
                    conn.reload()
                  }}
                >
                  <Field label="Display name">
                    <input name="display_name" required maxlength={100} value={c.display_name ?? ''} />
                  </Field>
                </Form>
              </>
            ) : (
              <ReadOnly what="this connection" />
            )}
            <StatsPanel key={statsKey} integrationId={c.integration_id} />
            <h2>Tools and permissions</h2>
            <Loaded state={perms}>
              {(p) => (
                <>
                  <p class="muted">
                    Tools without a rule are {p.default_allowed ? 'allowed' : 'disabled'}. A disabled tool is
                    not offered to the assistant or listed to MCP clients. Approval pauses the assistant's and
                    automations' calls of the tool until an owner or admin approves each. Restrictions limit
                    where a tool may act (Slack channels, Notion databases, GitHub repositories, Gmail
                    recipients).
                  </p>
                  <table class="tools">
                    <caption class="sr">Tools</caption>
                    <thead>
                      <tr>
                        <th>Tool</th>
                        <th>Allowed</th>
                        <th>Approval</th>
                        <th>Restrictions</th>
                      </tr>
                    </thead>
                    <tbody>
                      {c.tools.map((t) => {
                        const rule = p.data.find((r) => r.tool_name === t.name)
                        return (
                          <ToolRow
                            key={t.name}
                            connectionId={id}
                            tool={t}
                            write={write}
                            rule={
                              rule ?? {
                                allowed: p.default_allowed,
                                requires_approval: false,
                                restrictions: {},
                              }
                            }
                            onSaved={perms.reload}
                          />
                        )
                      })}
                    </tbody>
                  </table>
                </>
              )}
            </Loaded>
          </>
        )}
      </Loaded>
    </section>
  )
}

function ToolRow({
  connectionId,
  tool,
  rule,
  write,
  onSaved,
}: {
  connectionId: string
  tool: Tool
  rule: { allowed: boolean; requires_approval: boolean; restrictions: Record<string, unknown> }
  write: boolean
  onSaved: () => void
}): VNode {
  const kind = restrictionKinds[tool.name]
  const saved =
    kind && Array.isArray(rule.restrictions[kind.key]) ? (rule.restrictions[kind.key] as string[]) : []
  const [entries, setEntries] = useState(saved.join('\n'))
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>()
  // Shown at once; put back if the platform refuses.
  const [on, setOn] = useState(rule.allowed)
  const [approval, setApproval] = useState(rule.requires_approval)
  const save = async (next: { allowed: boolean; requires_approval: boolean }) => {
    setError(undefined)
    const list = entries
      .split(/[\n,]/)
      .map((e) => e.trim())
      .filter(Boolean)
    setBusy(true)
    setOn(next.allowed)
    setApproval(next.requires_approval)
    try {
      await setPermission(connectionId, {
        tool_name: tool.name,
        ...next,
        // No entries: no restriction (any channel, database, repository or recipient).
        restrictions: kind && list.length ? { [kind.key]: list } : {},
      })
      onSaved()
    } catch (e) {
      setOn(rule.allowed)
      setApproval(rule.requires_approval)
      setError(e)
    } finally {
      setBusy(false)
    }
  }
  const state = { allowed: on, requires_approval: approval }
  return (
    <tr>
      <td data-label="Tool">
        <code>{tool.name}</code>
        <br />
        <small class="muted">{tool.description}</small>
      </td>
      <td data-label="Allowed">
        <label class="check">
          <input
            type="checkbox"
            checked={on}
            disabled={!write || busy}
            onChange={(e: Event) => save({ ...state, allowed: (e.target as HTMLInputElement).checked })}
            aria-label={`Allow ${tool.name}`}
          />
          {on ? 'allowed' : 'disabled'}
        </label>
        {busy ? <span class="spinner" aria-hidden="true"></span> : null}
      </td>
      <td data-label="Approval">
        <label class="check">
          <input
            type="checkbox"
            checked={approval}
            disabled={!write || busy}
            onChange={(e: Event) =>
              save({ ...state, requires_approval: (e.target as HTMLInputElement).checked })
            }
            aria-label={`Require approval for ${tool.name}`}
          />
          {approval ? 'required' : 'not required'}
        </label>
      </td>
      <td data-label="Restrictions">
        {!kind ? (
          <span class="muted">none taken</span>
        ) : write ? (
          <>
            <div class="row">
              <textarea
                class="mono grow"
                rows={2}
                value={entries}
                placeholder={kind.example}
                aria-label={`${kind.label} for ${tool.name}`}
                title={`${kind.label}: one a line; empty allows any`}
                onInput={(e: Event) => setEntries((e.target as HTMLTextAreaElement).value)}
              ></textarea>
              <button type="button" onClick={() => save(state)} disabled={busy}>
                Save
              </button>
            </div>
            <small class="muted">{kind.label}, one a line; empty allows any.</small>
          </>
        ) : (
          <code>{saved.join(', ') || 'any'}</code>
        )}
        <ErrorNote error={error} />
      </td>
    </tr>
  )
}
