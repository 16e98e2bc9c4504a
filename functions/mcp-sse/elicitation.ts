import { CLIENT_CAPABILITIES_META_KEY, UrlElicitationRequiredError } from '@modelcontextprotocol/server'
import type { AppEnv } from '@shared/infra/http/app-env.ts'
import type { ConnectNeed } from '@shared/services/tools/tool-set.ts'
import type { Context } from 'hono'
import { dashboardLink } from './oauth/consent-url.ts'

/**
 * URL elicitation for a missing connection (docs/mcp.md "Connecting from the client", ADR 0043).
 * A tool call that needs the tenant to connect an integration, or to re-authorize a connection,
 * is answered with MCP's URLElicitationRequiredError (-32042) naming the dashboard page where the
 * user does it, when the client declared URL-mode elicitation; otherwise with a tool error whose
 * text carries the same link. The error form, not an elicitation/create request: the server is
 * stateless (no server-to-client requests on 2026-07-28, no session on the older revisions), and
 * the connection is made in the browser, not answered through the client. The client retries the
 * call once the user is done; no notifications/elicitation/complete follows (nothing to send it on).
 */

/** The page that makes the connection: the catalog opened at the integration, or the connection's page. */
export function connectLink(c: Context<AppEnv>, need: ConnectNeed): string {
  return need.connectionId
    ? dashboardLink(c, `#/integrations/${need.connectionId}`)
    : dashboardLink(c, `#/integrations?connect=${encodeURIComponent(need.integration)}`)
}

/**
 * Whether the client declared URL-mode elicitation in the request's envelope (2026-07-28). The
 * older revisions declare capabilities once, in `initialize`, which this stateless server answers
 * on another message: their clients get the tool error (ADR 0043).
 */
export function acceptsUrlElicitation(envelope: unknown): boolean {
  const caps = (envelope as Record<string, { elicitation?: { url?: object } } | undefined> | undefined)?.[
    CLIENT_CAPABILITIES_META_KEY
  ]
  return caps?.elicitation?.url !== undefined
}

/**
 * The answer to a call refused for want of a connection: throws the -32042 error for a client that
 * takes URL elicitations, else returns the tool error with the link in its text.
 */
export function connectionRequired(
  c: Context<AppEnv>,
  need: ConnectNeed,
  refusal: string,
  acceptsUrl: boolean,
) {
  const url = connectLink(c, need)
  const message = need.connectionId
    ? `Re-authorize the ${need.integration} connection in the dashboard, then try again`
    : `Connect ${need.integration} in the dashboard, then try again`
  if (acceptsUrl)
    throw new UrlElicitationRequiredError(
      [{ mode: 'url', elicitationId: crypto.randomUUID(), url, message }],
      refusal,
    )
  return {
    content: [{ type: 'text' as const, text: `${refusal}. ${message}: ${url}` }],
    isError: true,
    structuredContent: { reason: 'connection_required', integration: need.integration, url },
  }
}
