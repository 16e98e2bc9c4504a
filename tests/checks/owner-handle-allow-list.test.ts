import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { findOwnerUses, type OwnerUse } from '../support/owner-uses.ts'

/**
 * Every function in shared/services and functions that reaches the owner pool, the connection that
 * bypasses row-level security (`ctx.asOwner` on a ServiceContext, `deps.sql` on FunctionDeps),
 * with the reason it cannot run as the tenant (docs/adr/0013-tenant-and-owner-handles.md).
 * Keyed by file and the nearest named enclosing function, not by how often it reaches the pool:
 * splitting a function or adding a query to one makes nothing less safe, a new function that
 * reaches it does. The test fails on a function that is not listed and on an entry whose use is gone.
 *
 * A job handler's pool is typed `JobDeps.sql` (shared/infra/deps.ts), which only the job engine
 * gives out; its uses are exempt by type, as infrastructure's are, and the last test here keeps
 * any other code from giving it out.
 *
 * To add one: first try `ctx.asTenant` / `ctx.readAsTenant`. Only when the tenant role cannot do
 * the work (a secret column, a private table, rows of no tenant yet, work across tenants) add an
 * entry whose reason says which.
 */
interface Allowed {
  file: string
  fn: string
  reason: string
}

const JOB = 'a job or the dispatcher: runs for no signed-in caller, scopes every statement by tenant_id'
const ACROSS = 'claims due work across every tenant (FOR UPDATE SKIP LOCKED), before any tenant is known'

const ALLOWED: Allowed[] = [
  // Front ends
  {
    file: 'functions/mcp-sse/sse-hub.ts',
    fn: 'SseHub.deliver',
    reason: 'queues a message in private.mcp_sse_messages and pg_notify for the instance holding the stream',
  },
  {
    file: 'functions/mcp-sse/sse-hub.ts',
    fn: 'SseHub.listen',
    reason: 'LISTEN on the instance channel (a session-level connection, no tenant)',
  },
  {
    file: 'functions/mcp-sse/sse-hub.ts',
    fn: 'SseHub.drain',
    reason: 'takes the messages for this instance streams from private.mcp_sse_messages, across tenants',
  },
  {
    file: 'functions/mcp-sse/sse-sessions.ts',
    fn: 'sessionForKey',
    reason: 'looks up the session (private schema) to check the posting key before a tenant is known',
  },
  // Affiliate
  {
    file: 'shared/services/affiliate/sync.ts',
    fn: 'notifyRejected',
    reason: 'reads the admins e-mail addresses (auth.users) and enqueues notifications (no API-role grant)',
  },
  {
    file: 'shared/services/tools/sse-sessions.ts',
    fn: 'openSseSession',
    reason: 'records the SSE session in private.mcp_sse_sessions (private schema, no API-role grant)',
  },
  {
    file: 'shared/services/tools/sse-sessions.ts',
    fn: 'closeSseSession',
    reason: 'removes the SSE session row from private.mcp_sse_sessions',
  },
  // Assistant
  { file: 'shared/services/assistant/automation-dispatch.ts', fn: 'runDueAutomations', reason: ACROSS },
  { file: 'shared/services/assistant/automation-dispatch.ts', fn: 'runEventAutomations', reason: ACROSS },
  {
    file: 'shared/services/assistant/event-runs-kick.ts',
    fn: 'pendingEventRuns',
    reason:
      'the kick after an event commits: whether any tenant has a pending run to start (across tenants, as the sweep)',
  },
  {
    file: 'shared/services/assistant/automation-dispatch.ts',
    fn: 'startRun',
    reason:
      'the sweep starts a claimed run as its creator (found through the owner pool) and records the run row: assistant_automation_runs is SELECT-only for API roles',
  },
  {
    file: 'shared/services/assistant/approvals.ts',
    fn: 'expireApprovals',
    reason: 'the sweep: expires waiting tool calls and queues their turns across every tenant',
  },
  {
    file: 'shared/services/assistant/sweep.ts',
    fn: 'sweepTurns',
    reason: 'fails turns stuck past their deadline, across every tenant',
  },
  {
    file: 'shared/services/assistant/turn/event-log.ts',
    fn: 'deleteOldTurnEvents',
    reason: 'the sweep: deletes stream events past their retention, across every tenant',
  },
  {
    file: 'shared/services/assistant/turn/steps.ts',
    fn: 'creatorOf',
    reason: 'the turn job: finds its creator and their role now, before acting as them',
  },
  {
    file: 'shared/services/assistant/turn/cancel.ts',
    fn: 'readStopMark',
    reason:
      "the turn job: reads its own turn's Stop mark (one row by id and tenant) every CANCEL_POLL_MS while the model streams; the Stop may arrive through another instance",
  },
  {
    file: 'shared/services/assistant/turn/steps.ts',
    fn: 'resumeStoredCalls',
    reason:
      'the turn job: compares each approved call’s recorded article revision with the article’s now (approval-basis.ts), scoped by the turn’s tenant_id',
  },
  {
    file: 'shared/services/assistant/turn/store.ts',
    fn: 'insertTurn',
    reason:
      'inserts the turn, its message and its job: assistant_turns and assistant_messages are SELECT-only for API roles',
  },
  {
    file: 'shared/services/assistant/turn/store.ts',
    fn: 'storeDecision',
    reason:
      'records the decision and queues the job: assistant_tool_calls and jobs are SELECT-only for API roles',
  },
  {
    file: 'shared/services/assistant/turn/job-store.ts',
    fn: 'loadTurn',
    reason: 'the turn job: loads the turn by id before its tenant is known, then acts as its creator',
  },
  { file: 'shared/services/assistant/turn/job-store.ts', fn: 'finishTurn', reason: JOB },
  {
    file: 'shared/services/assistant/turn/cancel.ts',
    fn: 'cancelTurn',
    reason:
      'marks the turn (and cancels the calls of one waiting for approval): assistant_turns and assistant_tool_calls are SELECT-only for API roles',
  },
  { file: 'shared/services/assistant/turn/cancel.ts', fn: 'stopIfCancelled', reason: JOB },
  {
    file: 'shared/services/assistant/turn/title.ts',
    fn: 'titleAfterTurn',
    reason:
      'after the answer went out: loads the turn by id, checked against the caller’s tenant before any use',
  },
  {
    file: 'shared/services/assistant/turn/title.ts',
    fn: 'titleNow',
    reason:
      'reads the first exchange and stores the title and its tokens (usage counters are not writable by API roles), scoped by the turn’s tenant_id',
  },
  { file: 'shared/services/assistant/turn/job-store.ts', fn: 'markInterrupted', reason: JOB },
  { file: 'shared/services/assistant/turn/job-store.ts', fn: 'takeApproved', reason: JOB },
  { file: 'shared/services/assistant/turn/job-store.ts', fn: 'readConversation', reason: JOB },
  { file: 'shared/services/assistant/turn/job-store.ts', fn: 'readInstructions', reason: JOB },
  { file: 'shared/services/assistant/turn/job-store.ts', fn: 'approvalRequired', reason: JOB },
  { file: 'shared/services/assistant/turn/job-store.ts', fn: 'storeAnswer', reason: JOB },
  {
    file: 'shared/services/assistant/turn/job-store.ts',
    fn: 'storeToolCallEnd',
    reason: 'stores the tool call outcome: assistant_tool_calls is SELECT-only for API roles',
  },
  {
    file: 'shared/services/assistant/turn/job-store.ts',
    fn: 'awaitApproval',
    reason:
      'the turn job: marks the turn awaiting approval and writes its assistant.approval_required event in one transaction',
  },
  // Commerce
  { file: 'shared/services/commerce/process.ts', fn: 'claimDueDeliveries', reason: ACROSS },
  { file: 'shared/services/commerce/process.ts', fn: 'recordFailure', reason: JOB },
  { file: 'shared/services/commerce/process.ts', fn: 'applyTogether', reason: JOB },
  {
    file: 'shared/services/commerce/process.ts',
    fn: 'kickProcessing',
    reason: 'keys the per-pool kick state by the pool object (no query)',
  },
  {
    file: 'shared/services/commerce/receive.ts',
    fn: 'cacheFor',
    reason: 'keys the per-pool store cache by the pool object (no query)',
  },
  {
    file: 'shared/services/commerce/receive.ts',
    fn: 'loadStores',
    reason:
      'finds the store of an unsigned delivery before a tenant is known, with commerce_stores.secret_ciphertext (no API-role grant)',
  },
  {
    file: 'shared/services/commerce/receive.ts',
    fn: 'receiveDelivery',
    reason:
      'stores an inbound webhook delivery: no signed-in caller, the tenant comes from the verified store',
  },
  // Content
  {
    file: 'shared/services/content/localized-reads.ts',
    fn: 'getArticleBySlug',
    reason:
      'an article by slug in one statement, as GET /v1/content: private.article_by_slug sets role authenticated and the claims itself and reads under RLS; no API role may execute it',
  },
  {
    file: 'shared/services/content/feed.ts',
    fn: 'listContent',
    reason:
      'GET /v1/content (the hot read) and the MCP content reads in one statement: private.content_feed sets role authenticated and the claims itself and reads under RLS; no API role may execute it',
  },
  // Credentials
  {
    file: 'shared/services/credentials/credential-usage.ts',
    fn: 'pruneCredentialUsage',
    reason: 'the retention job: deletes old usage rows of every tenant',
  },
  {
    file: 'shared/services/credentials/expiry-alerts.ts',
    fn: 'sendExpiryAlerts',
    reason: 'the expiry job: finds expiring credentials of every tenant and enqueues notifications',
  },
  {
    file: 'shared/services/credentials/providers.ts',
    fn: 'listProviders',
    reason: 'the shared provider catalogue (no tenant rows), read on a route that builds no service context',
  },
  {
    file: 'shared/services/credentials/use-credential.ts',
    fn: 'useCredential',
    reason:
      'reads credentials.secret_ciphertext (never granted to API roles) and records the use; visibility is checked as the caller first',
  },
  // Generation
  // Integrations
  {
    file: 'shared/services/integrations/connections.ts',
    fn: 'deleteConnection',
    reason:
      'reads the token ciphertexts (no API-role grant) to revoke them, after the row was found visible as the caller',
  },
  {
    file: 'shared/services/integrations/oauth-flow.ts',
    fn: 'completeAuthorization',
    reason:
      'the OAuth callback: consumes private.oauth_states before the tenant is known, writes token ciphertexts',
  },
  {
    file: 'shared/services/integrations/mcp-oauth-connect.ts',
    fn: 'completeMcpAuthorization',
    reason:
      'the OAuth callback of an MCP server: the caller is the signed state, not a session; writes token ciphertexts and mcp_oauth (no API-role grant)',
  },
  {
    file: 'shared/services/integrations/oauth.ts',
    fn: 'storeState',
    reason: 'writes the state to private.oauth_states (private schema, no API-role grant)',
  },
  {
    file: 'shared/services/integrations/token-refresh.ts',
    fn: 'refreshExpiringTokens',
    reason: ACROSS,
  },
  {
    file: 'shared/services/integrations/token-refresh.ts',
    fn: 'refreshOne',
    reason: 'writes the refreshed token ciphertexts (no API-role grant) under the lease',
  },
  { file: 'shared/services/integrations/token-refresh.ts', fn: 'recordFailure', reason: JOB },
  { file: 'shared/services/integrations/token-refresh.ts', fn: 'markNeedsReauth', reason: JOB },
  {
    file: 'shared/services/integrations/token-refresh.ts',
    fn: 'refreshConnectionToken',
    reason:
      'claims the refresh lease and reads refresh_token_encrypted (no API-role grant), after the row was found visible as the caller',
  },
  {
    file: 'shared/services/integrations/tool-calls.ts',
    fn: 'connectionToken',
    reason: 'reads the token ciphertexts (no API-role grant), after the row was found visible as the caller',
  },
  // MCP OAuth server: private.mcp_oauth_* tables, and clients that are no tenant's caller
  {
    file: 'shared/services/mcp-oauth/oauth-server.ts',
    fn: 'registerClient',
    reason: 'dynamic client registration: anonymous, private.mcp_oauth_clients',
  },
  {
    file: 'shared/services/mcp-oauth/oauth-server.ts',
    fn: 'findClient',
    reason: 'reads private.mcp_oauth_clients',
  },
  {
    file: 'shared/services/mcp-oauth/oauth-server.ts',
    fn: 'startAuthorization',
    reason: 'records the request in private.mcp_oauth_requests before anyone has signed in',
  },
  {
    file: 'shared/services/mcp-oauth/oauth-server.ts',
    fn: 'pendingRequest',
    reason: 'reads private.mcp_oauth_requests (private schema)',
  },
  {
    file: 'shared/services/mcp-oauth/oauth-server.ts',
    fn: 'decideRequest',
    reason: 'binds or deletes the request in private.mcp_oauth_requests (private schema)',
  },
  {
    file: 'shared/services/mcp-oauth/oauth-server.ts',
    fn: 'assertMayConnect',
    reason:
      'the token endpoint checks that the consenting user is still an owner or admin: a client, no signed-in caller',
  },
  {
    file: 'shared/services/mcp-oauth/oauth-server.ts',
    fn: 'issueTokens',
    reason: 'writes token hashes to private.mcp_oauth_tokens',
  },
  {
    file: 'shared/services/mcp-oauth/oauth-server.ts',
    fn: 'exchangeToken',
    reason:
      'the token endpoint: a client with a code or refresh token, no signed-in caller; private.mcp_oauth_* tables',
  },
  {
    file: 'shared/services/mcp-oauth/oauth-server.ts',
    fn: 'revokeToken',
    reason: 'RFC 7009 revocation by a client holding the token, no signed-in caller',
  },
  // Retention, sources
  {
    file: 'shared/services/retention/retention.ts',
    fn: 'pruneRetention',
    reason: 'the retention job: private.prune_retention over every tenant',
  },
  {
    file: 'shared/services/retention/retention.ts',
    fn: 'pruneRateLimits',
    reason: 'the prune-rate-limits job (service role): deletes expired buckets of every tenant',
  },
  {
    file: 'shared/services/content/scheduler.ts',
    fn: 'publishDueArticles',
    reason: `the publish-scheduled job: ${ACROSS}; each content.published is written for its article's tenant`,
  },
  {
    file: 'shared/services/content/scheduler.ts',
    fn: 'unpublishDueArticles',
    reason: `the publish-scheduled job's unpublishing: ${ACROSS}; each content.unpublished is written for its article's tenant`,
  },
  {
    file: 'shared/services/content/public-feeds.ts',
    fn: 'findPublicSite',
    reason:
      'a public feed names only a site id, so no tenant is known yet: private.public_feed_site finds the site (only while its feeds are public) and its tenant; the rows are then read with published-only claims under RLS',
  },
  {
    file: 'shared/services/content/previews.ts',
    fn: 'readPreview',
    reason:
      "anyone holding a preview link, without an account: private.article_preview_by_token finds the link by token hash (only while active and its maker an editor) and its tenant; the article is then read with the maker's claims under RLS",
  },
  { file: 'shared/services/jobs/scheduled.ts', fn: 'queueDueRuns', reason: ACROSS },
  // A WebSub hub at a source's callback (ADR 0042): no credentials and no tenant until the
  // callback's token (compared by hash, in constant time) has found its subscription row.
  {
    file: 'shared/services/sources/websub-callback.ts',
    fn: 'subscriptionAt',
    reason:
      "a WebSub hub has no credentials: the callback's address names one subscription, read by id and kept only when the token's hash matches; nothing else of any tenant is read",
  },
  {
    file: 'shared/services/sources/websub-callback.ts',
    fn: 'verifyIntent',
    reason:
      "the hub's verification of the subscription its token found: that row's state and lease, and its renewal job in that row's tenant",
  },
  {
    file: 'shared/services/sources/websub-callback.ts',
    fn: 'receivePush',
    reason:
      "a signed push to the subscription its token found: that row's last push and a push job for that row's tenant and source",
  },
  // Tenants
  {
    file: 'shared/services/tenants/invitations.ts',
    fn: 'previewInvitation',
    reason: 'anyone holding the link, before membership: private.preview_invitation by token hash',
  },
  {
    file: 'shared/services/tenants/tenants.ts',
    fn: 'changePlan',
    reason: 'the service-role plan change: tenants.plan is never granted to API roles',
  },
  // Tools
  {
    file: 'shared/services/tools/platform-tools.ts',
    fn: 'jobDepsOf',
    reason:
      'platform:generate_draft runs the generation job it queued (as the tenant) on the job engine, which claims and runs jobs on the owner pool as every job does',
  },
  // Usage
  {
    file: 'shared/services/usage/alerts.ts',
    fn: 'createAlert',
    reason: 'enqueues notifications and marks alerts sent (notifications has no write grant for API roles)',
  },
  {
    file: 'shared/services/usage/metering.ts',
    fn: 'meterUsage',
    reason: 'counts usage: usage_counters is SELECT-only for API roles (a member must not reset a count)',
  },
  {
    file: 'shared/services/usage/metering.ts',
    fn: 'reserveUsage',
    reason: 'reserves tokens in usage_counters (SELECT-only for API roles) through a private function',
  },
  {
    file: 'shared/services/usage/metering.ts',
    fn: 'settleReservation',
    reason:
      'settles a token reservation in usage_counters (SELECT-only for API roles) through a private function',
  },
  {
    file: 'shared/services/usage/metering.ts',
    fn: 'settleUsage',
    reason: 'enqueues usage alert notifications (no write grant for API roles)',
  },
  {
    file: 'shared/services/usage/metering.ts',
    fn: 'enqueueDueUsageAlerts',
    reason: 'the alert check (job and request): writes notifications and alert marks',
  },
  {
    file: 'shared/services/usage/metering.ts',
    fn: 'meterBuffered',
    reason:
      'hands the usage buffer the pool for its flush and alert check (counters are SELECT-only for API roles)',
  },
  // Webhooks
  { file: 'shared/services/webhooks/dispatcher.ts', fn: 'claimDueDeliveries', reason: ACROSS },
  { file: 'shared/services/webhooks/dispatcher.ts', fn: 'recordOutcomes', reason: JOB },
  {
    file: 'shared/services/webhooks/secrets.ts',
    fn: 'revealSecret',
    reason:
      'reads secret_ciphertext (no API-role grant), after the subscription was found visible as the caller',
  },
  {
    file: 'shared/services/webhooks/secrets.ts',
    fn: 'rotateSecret',
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
  const listed = new Set(allowed.map(key))
  const problems: string[] = []
  for (const [k, at] of found)
    if (!listed.has(k))
      problems.push(
        `unlisted owner use in ${k}: ${at.map((u) => `${u.file}:${u.line} (${u.handle})`).join(', ')}`,
      )
  for (const k of listed)
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

  it('only the job engine gives out the job pool', () => {
    // A cast to JobDeps or a JobPool made anywhere else would exempt a request's owner use by type.
    const allowed = new Set(['shared/infra/deps.ts', 'shared/infra/jobs/engine.ts'])
    const tsFiles = (dir: string): string[] =>
      readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? tsFiles(`${dir}/${e.name}`) : e.name.endsWith('.ts') ? [`${dir}/${e.name}`] : [],
      )
    const files = [...tsFiles('shared'), ...tsFiles('functions')]
    expect(files.length).toBeGreaterThan(100)
    const minting = files.filter(
      (f) =>
        !allowed.has(f) &&
        /\bJobPool\b|\bas\b[^;\n]*\bJobDeps\b/.test(readFileSync(path.join(root, f), 'utf8')),
    )
    expect(minting).toEqual([])
  })
})
