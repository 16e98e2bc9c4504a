import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { findOwnerUses, type OwnerUse } from '../support/owner-uses.ts'

/**
 * Every place in shared/services and functions that reaches the owner pool, the connection that
 * bypasses row-level security (`ctx.asOwner` on a ServiceContext, `deps.sql` on FunctionDeps),
 * with the reason it cannot run as the tenant (docs/adr/0013-tenant-and-owner-handles.md).
 * Keyed by file and the nearest named enclosing function; `uses` counts the reaches there
 * (a query fragment such as deps.sql`and x = ${y}` is one). The test fails on a use that is not
 * listed, on a count that changed, and on an entry whose use is gone.
 *
 * To add one: first try `ctx.asTenant` / `ctx.readAsTenant`. Only when the tenant role cannot do
 * the work (a secret column, a private table, rows of no tenant yet, work across tenants) add an
 * entry whose reason says which.
 */
interface Allowed {
  file: string
  fn: string
  uses: number
  reason: string
}

const JOB = 'a job or the dispatcher: runs for no signed-in caller, scopes every statement by tenant_id'
const ACROSS = 'claims due work across every tenant (FOR UPDATE SKIP LOCKED), before any tenant is known'

const ALLOWED: Allowed[] = [
  // Front ends
  {
    file: 'functions/content/routes/list.ts',
    fn: 'registerListContent',
    uses: 1,
    reason:
      'the hot read (GET /v1/content) in one statement: private.content_feed sets role authenticated and the claims itself and reads under RLS; no API role may execute it',
  },
  {
    file: 'functions/mcp-sse/routes/sse/open.ts',
    fn: 'registerSseOpen',
    uses: 2,
    reason: 'records the SSE session in private.mcp_sse_sessions (private schema, no API-role grant)',
  },
  {
    file: 'functions/mcp-sse/routes/sse/open.ts',
    fn: 'end',
    uses: 1,
    reason: 'removes the SSE session row from private.mcp_sse_sessions',
  },
  {
    file: 'functions/mcp-sse/sse-hub.ts',
    fn: 'SseHub.deliver',
    uses: 1,
    reason: 'queues a message in private.mcp_sse_messages and pg_notify for the instance holding the stream',
  },
  {
    file: 'functions/mcp-sse/sse-hub.ts',
    fn: 'SseHub.listen',
    uses: 2,
    reason: 'LISTEN on the instance channel (a session-level connection, no tenant)',
  },
  {
    file: 'functions/mcp-sse/sse-hub.ts',
    fn: 'SseHub.drain',
    uses: 1,
    reason: 'takes the messages for this instance streams from private.mcp_sse_messages, across tenants',
  },
  {
    file: 'functions/mcp-sse/sse-sessions.ts',
    fn: 'sessionForKey',
    uses: 1,
    reason: 'looks up the session (private schema) to check the posting key before a tenant is known',
  },
  {
    file: 'functions/tenants/routes/jobs/prune-rate-limits.ts',
    fn: 'registerPruneRateLimitsJob',
    uses: 1,
    reason: 'the prune-rate-limits job (service role): deletes expired buckets of every tenant',
  },
  // Affiliate
  { file: 'shared/services/affiliate/sync.ts', fn: 'upsertBatch', uses: 1, reason: JOB },
  {
    file: 'shared/services/affiliate/sync.ts',
    fn: 'notifyRejected',
    uses: 2,
    reason: 'reads the admins e-mail addresses (auth.users) and enqueues notifications (no API-role grant)',
  },
  { file: 'shared/services/affiliate/sync.ts', fn: 'syncDestinationJob', uses: 4, reason: JOB },
  { file: 'shared/services/affiliate/sync.ts', fn: 'record', uses: 1, reason: JOB },
  // Assistant
  { file: 'shared/services/assistant/automations.ts', fn: 'runDueAutomations', uses: 4, reason: ACROSS },
  {
    file: 'shared/services/assistant/sweep.ts',
    fn: 'sweepTurns',
    uses: 1,
    reason: 'fails turns stuck past their deadline, across every tenant',
  },
  {
    file: 'shared/services/assistant/turn/steps.ts',
    fn: 'creatorOf',
    uses: 1,
    reason: 'the turn job: finds its creator and their role now, before acting as them',
  },
  {
    file: 'shared/services/assistant/turn/store.ts',
    fn: 'insertTurn',
    uses: 1,
    reason:
      'inserts the turn, its message and its job: assistant_turns and assistant_messages are SELECT-only for API roles',
  },
  {
    file: 'shared/services/assistant/turn/store.ts',
    fn: 'storeDecision',
    uses: 1,
    reason:
      'records the decision and queues the job: assistant_tool_calls and jobs are SELECT-only for API roles',
  },
  {
    file: 'shared/services/assistant/turn/store.ts',
    fn: 'loadTurn',
    uses: 1,
    reason: 'the turn job: loads the turn by id before its tenant is known, then acts as its creator',
  },
  { file: 'shared/services/assistant/turn/store.ts', fn: 'finishTurn', uses: 1, reason: JOB },
  { file: 'shared/services/assistant/turn/store.ts', fn: 'markInterrupted', uses: 1, reason: JOB },
  { file: 'shared/services/assistant/turn/store.ts', fn: 'takeApproved', uses: 1, reason: JOB },
  { file: 'shared/services/assistant/turn/store.ts', fn: 'readConversation', uses: 1, reason: JOB },
  { file: 'shared/services/assistant/turn/store.ts', fn: 'readInstructions', uses: 1, reason: JOB },
  { file: 'shared/services/assistant/turn/store.ts', fn: 'approvalRequired', uses: 1, reason: JOB },
  { file: 'shared/services/assistant/turn/store.ts', fn: 'storeAnswer', uses: 1, reason: JOB },
  {
    file: 'shared/services/assistant/turn/store.ts',
    fn: 'storeToolCallEnd',
    uses: 1,
    reason: 'stores the tool call outcome: assistant_tool_calls is SELECT-only for API roles',
  },
  {
    file: 'shared/services/assistant/turn/store.ts',
    fn: 'awaitApproval',
    uses: 1,
    reason:
      'the turn job: marks the turn awaiting approval and writes its assistant.approval_required event in one transaction',
  },
  // Commerce
  { file: 'shared/services/commerce/process.ts', fn: 'claimDueDeliveries', uses: 1, reason: ACROSS },
  { file: 'shared/services/commerce/process.ts', fn: 'recordFailure', uses: 2, reason: JOB },
  { file: 'shared/services/commerce/process.ts', fn: 'applyTogether', uses: 1, reason: JOB },
  {
    file: 'shared/services/commerce/process.ts',
    fn: 'kickProcessing',
    uses: 2,
    reason: 'keys the per-pool kick state by the pool object (no query)',
  },
  {
    file: 'shared/services/commerce/receive.ts',
    fn: 'cacheFor',
    uses: 2,
    reason: 'keys the per-pool store cache by the pool object (no query)',
  },
  {
    file: 'shared/services/commerce/receive.ts',
    fn: 'loadStores',
    uses: 2,
    reason:
      'finds the store of an unsigned delivery before a tenant is known, with commerce_stores.secret_ciphertext (no API-role grant)',
  },
  {
    file: 'shared/services/commerce/receive.ts',
    fn: 'receiveDelivery',
    uses: 1,
    reason:
      'stores an inbound webhook delivery: no signed-in caller, the tenant comes from the verified store',
  },
  // Content
  {
    file: 'shared/services/content/feed.ts',
    fn: 'listContent',
    uses: 1,
    reason:
      'the MCP content reads in one statement, as GET /v1/content: private.content_feed sets role authenticated and the claims itself and reads under RLS; no API role may execute it',
  },
  // Credentials
  {
    file: 'shared/services/credentials/credential-usage.ts',
    fn: 'pruneCredentialUsage',
    uses: 1,
    reason: 'the retention job: deletes old usage rows of every tenant',
  },
  {
    file: 'shared/services/credentials/expiry-alerts.ts',
    fn: 'sendExpiryAlerts',
    uses: 3,
    reason: 'the expiry job: finds expiring credentials of every tenant and enqueues notifications',
  },
  {
    file: 'shared/services/credentials/providers.ts',
    fn: 'listProviders',
    uses: 3,
    reason: 'the shared provider catalogue (no tenant rows), read on a route that builds no service context',
  },
  {
    file: 'shared/services/credentials/use-credential.ts',
    fn: 'useCredential',
    uses: 6,
    reason:
      'reads credentials.secret_ciphertext (never granted to API roles) and records the use; visibility is checked as the caller first',
  },
  // Generation
  { file: 'shared/services/generation/generate.ts', fn: 'generateArticleJob', uses: 7, reason: JOB },
  // Integrations
  {
    file: 'shared/services/integrations/connections.ts',
    fn: 'deleteConnection',
    uses: 1,
    reason:
      'reads the token ciphertexts (no API-role grant) to revoke them, after the row was found visible as the caller',
  },
  {
    file: 'shared/services/integrations/connections.ts',
    fn: 'rediscoverTools',
    uses: 1,
    reason:
      'reads mcp_auth_token_encrypted (no API-role grant), after the row was found visible as the caller',
  },
  {
    file: 'shared/services/integrations/oauth-flow.ts',
    fn: 'completeAuthorization',
    uses: 3,
    reason:
      'the OAuth callback: consumes private.oauth_states before the tenant is known, writes token ciphertexts',
  },
  {
    file: 'shared/services/integrations/oauth.ts',
    fn: 'beginAuthorization',
    uses: 2,
    reason: 'writes the state to private.oauth_states (private schema, no API-role grant)',
  },
  {
    file: 'shared/services/integrations/token-refresh.ts',
    fn: 'refreshExpiringTokens',
    uses: 3,
    reason: ACROSS,
  },
  {
    file: 'shared/services/integrations/token-refresh.ts',
    fn: 'refreshOne',
    uses: 2,
    reason: 'writes the refreshed token ciphertexts (no API-role grant) under the lease',
  },
  { file: 'shared/services/integrations/token-refresh.ts', fn: 'recordFailure', uses: 2, reason: JOB },
  { file: 'shared/services/integrations/token-refresh.ts', fn: 'markNeedsReauth', uses: 1, reason: JOB },
  {
    file: 'shared/services/integrations/token-refresh.ts',
    fn: 'refreshConnectionToken',
    uses: 2,
    reason:
      'claims the refresh lease and reads refresh_token_encrypted (no API-role grant), after the row was found visible as the caller',
  },
  {
    file: 'shared/services/integrations/tool-calls.ts',
    fn: 'connectionToken',
    uses: 1,
    reason: 'reads the token ciphertexts (no API-role grant), after the row was found visible as the caller',
  },
  // MCP OAuth server: private.mcp_oauth_* tables, and clients that are no tenant's caller
  {
    file: 'shared/services/mcp-oauth/oauth-server.ts',
    fn: 'registerClient',
    uses: 1,
    reason: 'dynamic client registration: anonymous, private.mcp_oauth_clients',
  },
  {
    file: 'shared/services/mcp-oauth/oauth-server.ts',
    fn: 'findClient',
    uses: 1,
    reason: 'reads private.mcp_oauth_clients',
  },
  {
    file: 'shared/services/mcp-oauth/oauth-server.ts',
    fn: 'startAuthorization',
    uses: 1,
    reason: 'records the request in private.mcp_oauth_requests before anyone has signed in',
  },
  {
    file: 'shared/services/mcp-oauth/oauth-server.ts',
    fn: 'pendingRequest',
    uses: 1,
    reason: 'reads private.mcp_oauth_requests (private schema)',
  },
  {
    file: 'shared/services/mcp-oauth/oauth-server.ts',
    fn: 'decideRequest',
    uses: 2,
    reason: 'binds or deletes the request in private.mcp_oauth_requests (private schema)',
  },
  {
    file: 'shared/services/mcp-oauth/oauth-server.ts',
    fn: 'assertMayConnect',
    uses: 1,
    reason:
      'the token endpoint checks that the consenting user is still an owner or admin: a client, no signed-in caller',
  },
  {
    file: 'shared/services/mcp-oauth/oauth-server.ts',
    fn: 'issueTokens',
    uses: 1,
    reason: 'writes token hashes to private.mcp_oauth_tokens',
  },
  {
    file: 'shared/services/mcp-oauth/oauth-server.ts',
    fn: 'exchangeToken',
    uses: 7,
    reason:
      'the token endpoint: a client with a code or refresh token, no signed-in caller; private.mcp_oauth_* tables',
  },
  {
    file: 'shared/services/mcp-oauth/oauth-server.ts',
    fn: 'revokeToken',
    uses: 3,
    reason: 'RFC 7009 revocation by a client holding the token, no signed-in caller',
  },
  // Retention, sources
  {
    file: 'shared/services/retention/retention.ts',
    fn: 'pruneRetention',
    uses: 1,
    reason: 'the retention job: private.prune_retention over every tenant',
  },
  {
    file: 'shared/services/content/scheduler.ts',
    fn: 'publishDueArticles',
    uses: 1,
    reason: `the publish-scheduled job: ${ACROSS}; each content.published is written for its article's tenant`,
  },
  { file: 'shared/services/sources/scrape.ts', fn: 'storeItems', uses: 2, reason: JOB },
  { file: 'shared/services/sources/scrape.ts', fn: 'scrapeSourceJob', uses: 1, reason: JOB },
  { file: 'shared/services/sources/scrape.ts', fn: 'record', uses: 3, reason: JOB },
  { file: 'shared/services/jobs/scheduled.ts', fn: 'queueDueRuns', uses: 1, reason: ACROSS },
  // Tenants
  {
    file: 'shared/services/tenants/invitations.ts',
    fn: 'previewInvitation',
    uses: 1,
    reason: 'anyone holding the link, before membership: private.preview_invitation by token hash',
  },
  {
    file: 'shared/services/tenants/tenants.ts',
    fn: 'changePlan',
    uses: 1,
    reason: 'the service-role plan change: tenants.plan is never granted to API roles',
  },
  // Usage
  {
    file: 'shared/services/usage/alerts.ts',
    fn: 'createAlert',
    uses: 1,
    reason: 'enqueues notifications and marks alerts sent (notifications has no write grant for API roles)',
  },
  {
    file: 'shared/services/usage/metering.ts',
    fn: 'meterUsage',
    uses: 1,
    reason: 'counts usage: usage_counters is SELECT-only for API roles (a member must not reset a count)',
  },
  {
    file: 'shared/services/usage/metering.ts',
    fn: 'reserveUsage',
    uses: 1,
    reason: 'reserves tokens in usage_counters (SELECT-only for API roles) through a private function',
  },
  {
    file: 'shared/services/usage/metering.ts',
    fn: 'settleReservation',
    uses: 1,
    reason:
      'settles a token reservation in usage_counters (SELECT-only for API roles) through a private function',
  },
  {
    file: 'shared/services/usage/metering.ts',
    fn: 'settleUsage',
    uses: 1,
    reason: 'enqueues usage alert notifications (no write grant for API roles)',
  },
  {
    file: 'shared/services/usage/metering.ts',
    fn: 'enqueueDueUsageAlerts',
    uses: 1,
    reason: 'the alert check (job and request): writes notifications and alert marks',
  },
  {
    file: 'shared/services/usage/metering.ts',
    fn: 'meterBuffered',
    uses: 1,
    reason:
      'hands the usage buffer the pool for its flush and alert check (counters are SELECT-only for API roles)',
  },
  // Webhooks
  { file: 'shared/services/webhooks/dispatcher.ts', fn: 'claimDueDeliveries', uses: 1, reason: ACROSS },
  { file: 'shared/services/webhooks/dispatcher.ts', fn: 'recordOutcomes', uses: 1, reason: JOB },
  {
    file: 'shared/services/webhooks/secrets.ts',
    fn: 'revealSecret',
    uses: 1,
    reason:
      'reads secret_ciphertext (no API-role grant), after the subscription was found visible as the caller',
  },
  {
    file: 'shared/services/webhooks/secrets.ts',
    fn: 'rotateSecret',
    uses: 1,
    reason:
      'writes the secret ciphertexts (no API-role grant), after the subscription was found visible as the caller',
  },
]

const root = path.resolve(import.meta.dirname, '../..')
const key = (u: { file: string; fn: string }) => `${u.file} :: ${u.fn}`

/** Differences between what the code does and what the list allows, in words. */
function compareWithAllowList(uses: OwnerUse[], allowed: Allowed[]): string[] {
  const found = new Map<string, OwnerUse[]>()
  for (const u of uses) found.set(key(u), [...(found.get(key(u)) ?? []), u])
  const listed = new Map(allowed.map((a) => [key(a), a]))
  const problems: string[] = []
  for (const [k, at] of found) {
    const entry = listed.get(k)
    const lines = at.map((u) => `${u.file}:${u.line} (${u.handle})`).join(', ')
    if (!entry) problems.push(`unlisted owner use in ${k}: ${lines}`)
    else if (entry.uses !== at.length)
      problems.push(`${k} reaches the owner pool ${at.length} times, the list says ${entry.uses}: ${lines}`)
  }
  for (const k of listed.keys())
    if (!found.has(k)) problems.push(`stale entry: ${k} no longer reaches the owner pool`)
  return problems
}

describe('owner-handle allow-list', () => {
  it('every owner-pool use in services and functions is listed with its reason, and every entry is used', () => {
    const { uses, files } = findOwnerUses(root)
    expect(files).toBeGreaterThan(100) // the scan saw the code, not an empty set
    expect(compareWithAllowList(uses, ALLOWED)).toEqual([])
  }, 300_000)

  it('entries are unique and each has a reason', () => {
    expect(new Set(ALLOWED.map(key)).size).toBe(ALLOWED.length)
    for (const a of ALLOWED) expect(a.reason.length, key(a)).toBeGreaterThan(20)
  })
})
