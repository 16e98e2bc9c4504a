import { CLIENT_CAPABILITIES_META_KEY, inputRequired } from '@modelcontextprotocol/server'
import type { AppEnv } from '@shared/infra/http/app-env.ts'
import type { ConnectNeed } from '@shared/services/tools/tool-set.ts'
import type { Context } from 'hono'
import { dashboardLink } from './oauth/consent-url.ts'

/**
 * URL elicitation for a missing connection (docs/mcp.md "Connecting from the client", ADR 0043).
 * A tool call that needs the tenant to connect an integration, or to re-authorize a connection,
 * is answered on 2026-07-28, for a client that declared URL-mode elicitation in the request's
 * envelope, with an input-required result holding a URL-mode `elicitation/create` for the
 * dashboard page where the user does it: the client shows the link, and retries the call with the
 * user's answer (the revision's multi-round-trip requests; the SDK refuses -32042 there). The
 * retry runs the call again; a connection still missing then is the tool error. Every other
 * client (no URL elicitation declared, or an older revision, whose capabilities this stateless
 * server cannot see on the call) gets a tool error whose text carries the same link.
 */

/** The page that makes the connection: the catalog opened at the integration, or the connection's page. */
function connectLink(c: Context<AppEnv>, need: ConnectNeed): string {
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

/** The key of the connect elicitation in the input-required result and the retry's inputResponses. */
const CONNECT = 'connect'

/**
 * The answer to a call refused for want of a connection: the URL elicitation for a client that
 * takes one and has not answered it yet, else the tool error with the link in its text.
 */
export function connectionRequired(
  c: Context<AppEnv>,
  need: ConnectNeed,
  refusal: string,
  client: { acceptsUrl: boolean; inputResponses?: Record<string, unknown> },
) {
  const url = connectLink(c, need)
  const message = need.connectionId
    ? `Re-authorize the ${need.integration} connection in the dashboard, then try again`
    : `Connect ${need.integration} in the dashboard, then try again`
  if (client.acceptsUrl && client.inputResponses?.[CONNECT] === undefined)
    return inputRequired({ inputRequests: { [CONNECT]: inputRequired.elicitUrl({ message, url }) } })
  return {
    content: [{ type: 'text' as const, text: `${refusal}. ${message}: ${url}` }],
    isError: true,
    structuredContent: { reason: 'connection_required', integration: need.integration, url },
  }
}
