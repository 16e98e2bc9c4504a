import {
  claimLeased,
  type Fragment,
  finishLeased,
  heldBy,
  type Lease,
  type LeaseColumns,
  released,
} from '@shared/infra/claim-lease.ts'
import type { Sql } from '@shared/infra/db.ts'
import type { FunctionDeps, ServiceContext } from '@shared/infra/deps.ts'
import { recordEvent } from '@shared/infra/events.ts'
import { usingSecretsOf } from '@shared/infra/secret-columns.ts'
import { type ResolvedProvider, resolveProviders } from './catalog.ts'
import { type McpOAuthServer, refreshMcpTokens } from './mcp-auth.ts'
import { refreshTokens, TokenEndpointError, type TokenSet, vaultPurposes } from './oauth.ts'

/**
 * The hourly token refresh (spec: tokens expiring within 1 hour are refreshed, new tokens stored).
 *
 * Exclusivity: a run claims connections with one UPDATE over a FOR UPDATE SKIP LOCKED subquery
 * that sets a lease (`refresh_locked_until`, `refresh_lease`; shared/infra/claim-lease.ts). Row locks make two runs skip each
 * other's rows, the lease keeps them away after that transaction ends, and the UPDATE's RETURNING
 * is the re-read after the lock: the refresh token used is the newest one stored. The token
 * endpoint is called outside any transaction, only while the lease is held with room to spare
 * (every attempt is bounded by a timeout far shorter than the lease), and the new tokens are
 * stored by one UPDATE conditioned on the lease. A refresh token is therefore never sent twice,
 * across runs and instances. (If a process dies after sending, the lease expires and the next run
 * tries the same token; a provider that rotated it answers invalid_grant, and the connection asks
 * for re-authorization, which is the safe outcome.)
 */

const REFRESH_WINDOW_MS = 60 * 60 * 1000
const LEASE_MS = 5 * 60 * 1000
/** Stop sending when less than this remains of the lease (one attempt's timeout plus margin). */
const LEASE_MARGIN_MS = 30 * 1000
const ATTEMPTS = 3
const RETRY_BASE_MS = 200
/** After a run's attempts fail transiently, wait before the next run tries: 5 min, 10, 20, ... 1 h. */
const BACKOFF_BASE_MS = 5 * 60 * 1000
const BACKOFF_MAX_MS = 60 * 60 * 1000

export interface RefreshResult {
  claimed: number
  refreshed: number
  needs_reauth: number
  failed: number
  skipped: number
}

interface Claimed {
  id: string
  tenant_id: string
  integration_slug: string
  refresh_token_encrypted: string
  token_version: number
  refresh_failures: number
  connection_type: 'oauth' | 'mcp'
  /** An OAuth MCP connection's authorization server and client (mcp-auth.ts). */
  mcp_oauth: McpOAuthServer | null
  mcp_oauth_client_secret_encrypted: string | null
}

const REFRESH_LEASE: LeaseColumns = { token: 'refresh_lease', until: 'refresh_locked_until' }

/**
 * Claims connections whose token can be refreshed (and is not backing off) under the refresh
 * lease: `due` narrows them (the hourly window, or one connection).
 */
function claimRefreshes(
  sql: Sql,
  now: Date,
  which: { due: Fragment; order: Fragment; limit: number },
): Promise<{ lease: Lease; rows: Claimed[] }> {
  return claimLeased<Claimed>(sql, {
    table: 'public.integration_connections',
    columns: REFRESH_LEASE,
    leaseMs: LEASE_MS,
    now,
    due: sql`${which.due} and (connection_type = 'oauth' or mcp_auth_type = 'oauth') and status = 'active' and refresh_token_encrypted is not null
      and (refresh_next_attempt_at is null or refresh_next_attempt_at <= ${now})`,
    order: which.order,
    limit: which.limit,
    returning: sql`t.id, t.tenant_id, t.integration_slug, t.refresh_token_encrypted, t.token_version, t.refresh_failures,
      t.connection_type, t.mcp_oauth, t.mcp_oauth_client_secret_encrypted`,
  })
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

export async function refreshExpiringTokens(
  deps: FunctionDeps,
  providers: Map<string, ResolvedProvider>,
  opts: { batchSize?: number; concurrency?: number; budgetMs?: number } = {},
): Promise<RefreshResult> {
  const batchSize = opts.batchSize ?? 100
  const concurrency = opts.concurrency ?? 16
  const budgetEnd = Date.now() + (opts.budgetMs ?? 50_000)
  const result: RefreshResult = { claimed: 0, refreshed: 0, needs_reauth: 0, failed: 0, skipped: 0 }

  while (Date.now() < budgetEnd) {
    const now = deps.clock.now()
    const { lease, rows: claimed } = await claimRefreshes(deps.sql, now, {
      due: deps.sql`token_expires_at < ${new Date(now.getTime() + REFRESH_WINDOW_MS)}`,
      order: deps.sql`token_expires_at`,
      limit: batchSize,
    })
    if (claimed.length === 0) break
    result.claimed += claimed.length

    let next = 0
    await Promise.all(
      Array.from({ length: Math.min(concurrency, claimed.length) }, async () => {
        while (next < claimed.length) {
          const row = claimed[next++]!
          const outcome = await refreshOne(deps, providers.get(row.integration_slug), row, lease)
          result[outcome]++
        }
      }),
    )
    if (claimed.length < batchSize) break
  }
  return result
}

async function refreshOne(
  deps: FunctionDeps,
  provider: ResolvedProvider | undefined,
  row: Claimed,
  lease: Lease,
): Promise<'refreshed' | 'needs_reauth' | 'failed' | 'skipped'> {
  const server = row.connection_type === 'mcp' ? row.mcp_oauth : null
  if (!server && !provider?.clientId) {
    await recordFailure(deps, row, lease, 'the provider is not configured on this deployment')
    return 'failed'
  }
  let tokens: TokenSet | null = null
  let lastError: TokenEndpointError | null = null
  try {
    const refreshToken = await deps.vault.decrypt(
      row.tenant_id,
      row.refresh_token_encrypted,
      vaultPurposes.refreshToken,
    )
    const clientSecret = row.mcp_oauth_client_secret_encrypted
      ? await deps.vault.decrypt(
          row.tenant_id,
          row.mcp_oauth_client_secret_encrypted,
          vaultPurposes.mcpClientSecret,
        )
      : null
    const refresh = server
      ? () => refreshMcpTokens(deps, server, clientSecret, refreshToken)
      : () => refreshTokens(deps, provider!, refreshToken)
    for (let attempt = 0; attempt < ATTEMPTS && !tokens; attempt++) {
      // Never send after the lease could have passed to another run.
      if (deps.clock.now().getTime() > lease.until.getTime() - LEASE_MARGIN_MS) return 'skipped'
      try {
        tokens = await refresh()
      } catch (err) {
        if (!(err instanceof TokenEndpointError)) throw err
        lastError = err
        // Only transient failures are worth another try; the grant answer will not change.
        if (err.kind !== 'transient') break
        if (attempt < ATTEMPTS - 1) await sleep(RETRY_BASE_MS * 4 ** attempt * (0.5 + Math.random()))
      }
    }
  } catch (err) {
    deps.logger.error('token refresh failed', {
      connection_id: row.id,
      error: err instanceof Error ? err.name : 'unknown',
    })
    await recordFailure(deps, row, lease, 'internal error while refreshing')
    return 'failed'
  }

  if (tokens) {
    const access = await deps.vault.encrypt(row.tenant_id, tokens.accessToken, vaultPurposes.accessToken)
    // Providers that rotate send a new refresh token; the others keep the old one valid.
    const refresh = tokens.refreshToken
      ? await deps.vault.encrypt(row.tenant_id, tokens.refreshToken, vaultPurposes.refreshToken)
      : null
    // Stored only under the lease; a rotated refresh token waits out a database restart.
    const stored = await finishLeased(
      deps.sql,
      lease,
      row.id,
      deps.sql`
        access_token_encrypted = ${access},
        refresh_token_encrypted = coalesce(${refresh}, refresh_token_encrypted),
        token_expires_at = ${tokens.expiresAt},
        scopes = coalesce(${tokens.scopes}::text[], scopes),
        token_version = token_version + 1,
        refresh_failures = 0, refresh_next_attempt_at = null, last_refresh_error = null,
        last_refreshed_at = ${deps.clock.now()}, updated_at = ${deps.clock.now()}`,
    )
    if (!stored) deps.logger.warn('token refresh lease lost before storing', { connection_id: row.id })
    return 'refreshed'
  }

  if (lastError?.kind === 'invalid_grant') {
    await markNeedsReauth(deps, row, lease)
    return 'needs_reauth'
  }
  await recordFailure(deps, row, lease, lastError?.message ?? 'refresh failed')
  return 'failed'
}

async function recordFailure(deps: FunctionDeps, row: Claimed, lease: Lease, message: string): Promise<void> {
  const failures = row.refresh_failures + 1
  const wait = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** (failures - 1))
  await finishLeased(
    deps.sql,
    lease,
    row.id,
    deps.sql`refresh_failures = ${failures}, refresh_next_attempt_at = ${new Date(deps.clock.now().getTime() + wait)},
      last_refresh_error = ${message.slice(0, 500)}`,
  )
}

/** invalid_grant: the connection needs re-authorization; the tenant's owners hear about it once. */
async function markNeedsReauth(deps: FunctionDeps, row: Claimed, lease: Lease): Promise<void> {
  const marked = await deps.sql.begin(async (tx) => {
    const [updated] = await tx<
      {
        integration_id: string
        integration_slug: string
        display_name: string | null
        external_account_name: string | null
      }[]
    >`
      update public.integration_connections set
        status = 'needs_reauth', last_refresh_error = 'invalid_grant', ${released(tx, lease)},
        updated_at = ${deps.clock.now()}
      where id = ${row.id} and ${heldBy(tx, lease)}
      returning integration_id, integration_slug, display_name, external_account_name`
    if (!updated) return false
    await recordEvent(tx, {
      tenantId: row.tenant_id,
      type: 'connection.reauthorization_required',
      at: deps.clock.now(),
      data: {
        connection_id: row.id,
        integration_id: updated.integration_id,
        integration_slug: updated.integration_slug,
        display_name: updated.display_name,
        external_account_name: updated.external_account_name,
        reason: 'invalid_grant',
        // An MCP server is signed in to again by connecting it again.
        reconnect_path:
          row.connection_type === 'mcp'
            ? '/api/integrations/connect'
            : `/api/integrations/${updated.integration_slug}/authorize`,
      },
    })
    const owners = await tx<{ email: string }[]>`
      select u.email from public.tenant_members m join auth.users u on u.id = m.user_id
      where m.tenant_id = ${row.tenant_id} and m.role = 'owner' and u.email is not null`
    const label = updated.display_name ?? updated.external_account_name ?? updated.integration_slug
    for (const { email } of owners) {
      await deps.notifier.enqueue(tx, {
        tenantId: row.tenant_id,
        kind: 'integration.needs_reauth',
        recipient: email,
        subject: `Reconnect ${updated.integration_slug}: access was revoked or expired`,
        body: `The ${updated.integration_slug} connection "${label}" can no longer refresh its access. Reconnect it in Settings > Integrations to keep using its tools.`,
        // One notice per token generation and owner, however many runs or instances see the failure.
        dedupeKey: `integration.needs_reauth:${row.id}:${row.token_version}:${email}`,
      })
    }
    return true
  })
  if (marked) deps.onOutboxCommitted?.()
}

/**
 * Refreshes one connection's token now (a tool call found it expired), under the same lease as the
 * hourly job: if a run holds the connection, or it is backing off, nothing is sent ('skipped').
 * The connection must be visible to the caller (row-level security).
 */
export async function refreshConnectionToken(
  ctx: ServiceContext,
  connectionId: string,
): Promise<'refreshed' | 'needs_reauth' | 'failed' | 'skipped'> {
  const { caller } = ctx
  const {
    lease,
    rows: [row],
  } = await usingSecretsOf(
    ctx,
    ctx.asOwner,
    'Connection',
    async (tx) =>
      (
        await tx<{ id: string }[]>`
        select id from public.integration_connections where id = ${connectionId} and tenant_id = ${caller.tenantId}`
      )[0],
    (owner) =>
      claimRefreshes(owner, ctx.clock.now(), {
        due: owner`id = ${connectionId} and tenant_id = ${caller.tenantId}`,
        order: owner`id`,
        limit: 1,
      }),
  )
  if (!row) return 'skipped'
  // The job's refresh, on the lease just claimed: it writes the token ciphertexts (no API-role grant).
  const owner = { ...ctx, sql: ctx.asOwner }
  return refreshOne(owner, resolveProviders(ctx.config).get(row.integration_slug), row, lease)
}
