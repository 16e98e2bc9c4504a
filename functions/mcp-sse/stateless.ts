import { errorBody } from '@shared/infra/errors.ts'

/**
 * GET and DELETE at {mcp_url}: the server is stateless (no Mcp-Session-Id, no server-initiated
 * stream), so both answer 405 as the MCP specification allows, in the spec's error body.
 */
export function statelessMethodNotAllowed(): Response {
  const body = errorBody(405, 'METHOD_NOT_ALLOWED', 'This MCP endpoint is stateless: send JSON-RPC with POST')
  return new Response(JSON.stringify(body), {
    status: 405,
    headers: { allow: 'POST', 'content-type': 'application/json' },
  })
}
