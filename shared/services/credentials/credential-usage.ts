import type { FunctionDeps, ServiceContext } from '@shared/infra/deps.ts'
import { notFound } from '@shared/infra/errors.ts'
import { keysetPage, type Page, type PageRequest } from '@shared/infra/pagination.ts'
import type { CredentialUsage } from './schema.ts'

/** A credential's usage history: the tenant's paged read and the daily retention prune. */

/** Usage records older than this are deleted by the daily prune job. */
const USAGE_RETENTION_DAYS = 90

type UsageRow = { id: string; caller_kind: 'assistant'; function_name: string; used_at: Date }

/** Newest first; NOT_FOUND when the credential is not the tenant's. */
export async function listCredentialUsage(
  ctx: ServiceContext,
  id: string,
  page: PageRequest,
): Promise<Page<CredentialUsage>> {
  const { caller } = ctx
  return keysetPage(
    page,
    { at: 'used_at' },
    (r: UsageRow) => ({ ...r, used_at: r.used_at.toISOString() }),
    (keyset) =>
      ctx.asTenant(async (tx) => {
        const [credential] =
          await tx`select id from public.credentials where id = ${id} and tenant_id = ${caller.tenantId}`
        if (!credential) throw notFound('Credential')
        return tx<UsageRow[]>`
          select id, caller_kind, function_name, used_at from public.credential_usage
          where credential_id = ${id} and tenant_id = ${caller.tenantId}
            ${keyset(tx)}`
      }),
  )
}

/** Deletes usage records past the retention period. */
export async function pruneCredentialUsage(deps: Pick<FunctionDeps, 'sql' | 'clock'>) {
  const cutoff = new Date(deps.clock.now().getTime() - USAGE_RETENTION_DAYS * 86_400_000)
  const result = await deps.sql`delete from public.credential_usage where used_at < ${cutoff}`
  return { deleted: result.count }
}
