import type { VNode } from 'preact'
import { useState } from 'preact/hooks'
import {
  decideAuthorization,
  revokeMcpClient,
  useAuthorizationRequest,
  useMcpClients,
} from '../data/mcp-clients.ts'
import { ago, when } from '../format.ts'
import { Action, canWrite, Loaded, useSession } from '../ui.tsx'

/**
 * MCP sign-in (docs/mcp.md): the consent page an MCP client's authorization request lands on
 * (#/oauth/consent/<request id>, after the dashboard's sign-in), and the tenant's connected
 * clients, which owners and admins revoke.
 */

const scopeText: Record<string, string> = {
  'content:read': "read this workspace's sites and articles",
  'content:write': 'create and publish articles',
}

export function McpConsentPage({ id }: { id: string }): VNode {
  const session = useSession()
  const request = useAuthorizationRequest(id)
  const [toolSearch, setToolSearch] = useState(false)
  const decide = async (approve: boolean) => {
    const { redirect_to } = await decideAuthorization(id, approve, toolSearch)
    location.assign(redirect_to)
  }
  return (
    <section class="narrow consent">
      <h1>Connect an MCP client</h1>
      <Loaded state={request}>
        {(r) => (
          <>
            <p>
              <strong class="client-name">{r.client_name}</strong> asks to use the tools of the workspace
              <strong class="tenant-name">{r.tenant.name}</strong> as you ({session.email}).
            </p>
            <p>It may:</p>
            <ul class="scopes">
              {r.scopes.map((s) => (
                <li>
                  <code>{s}</code> {scopeText[s] ?? ''}
                </li>
              ))}
              <li>call the tools of this workspace's connected integrations, as their permissions allow</li>
            </ul>
            <label class="check">
              <input
                type="checkbox"
                checked={toolSearch}
                onChange={(e: Event) => setToolSearch((e.target as HTMLInputElement).checked)}
              />{' '}
              Tool search: the client is offered <code>search_tools</code> and <code>call_tool</code> instead
              of every connected tool, which keeps its context small when many integrations are connected
            </label>
            <p class="muted">
              After your answer you return to{' '}
              <code>
                {new URL(r.redirect_uri).origin === 'null' ? r.redirect_uri : new URL(r.redirect_uri).origin}
              </code>
              . Choose another workspace with the switcher above first if this is not the one.
              {canWrite(session) ? '' : ' Only owners and admins may approve.'}
            </p>
            <div class="buttons">
              <Action kind="primary" disabled={!canWrite(session)} run={() => decide(true)}>
                Approve
              </Action>
              <Action run={() => decide(false)}>Decline</Action>
            </div>
          </>
        )}
      </Loaded>
    </section>
  )
}

export function McpClientsPage(): VNode {
  const session = useSession()
  const clients = useMcpClients()
  return (
    <section>
      <h1>MCP clients</h1>
      <p class="muted">
        Clients that signed in to the tool server by OAuth (Claude, ChatGPT, Cursor, VS Code...). Revoking one
        stops its tokens at once.
      </p>
      <Loaded state={clients}>
        {(list) =>
          list.data.length ? (
            <table class="mcp-clients">
              <caption class="sr">Connected MCP clients</caption>
              <thead>
                <tr>
                  <th>Client</th>
                  <th>Scopes</th>
                  <th>Connected</th>
                  <th>Last used</th>
                  <th>Status</th>
                  <th>
                    <span class="sr">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.data.map((g) => (
                  <tr data-client={g.id}>
                    <td data-label="Client">
                      <strong>{g.client_name}</strong>
                    </td>
                    <td data-label="Scopes">
                      {g.scopes.map((s) => (
                        <>
                          <code class="tag">{s}</code>{' '}
                        </>
                      ))}
                    </td>
                    <td data-label="Connected" title={when(g.created_at)}>
                      {ago(g.created_at)}
                    </td>
                    <td data-label="Last used" title={when(g.last_used_at)}>
                      {ago(g.last_used_at)}
                    </td>
                    <td data-label="Status">
                      <span class={`pill ${g.revoked_at ? 'muted' : 'ok'}`}>
                        {g.revoked_at ? 'revoked' : 'active'}
                      </span>
                    </td>
                    <td>
                      {canWrite(session) && !g.revoked_at ? (
                        <Action
                          kind="danger"
                          label={`Revoke ${g.client_name}`}
                          confirm={`Revoke “${g.client_name}”? Its calls fail at once; it must sign in again.`}
                          confirmLabel="Revoke"
                          run={async () => {
                            await revokeMcpClient(g.id)
                            clients.reload()
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
            <p class="muted">No MCP client has signed in yet.</p>
          )
        }
      </Loaded>
    </section>
  )
}
