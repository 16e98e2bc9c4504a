import type { FunctionDeps, ServiceContext } from '@shared/infra/deps.ts'
import { notFound } from '@shared/infra/errors.ts'
import { type Cursor, type Page, paginate } from '@shared/infra/pagination.ts'
import type { CredentialUsage } from './schema.ts'

/** A credential's usage history: the tenant's paged read and the daily retention prune. */

/** Usage records older than this are deleted by the daily prune job. */
export const USAGE_RETENTION_DAYS = 90

/** Newest first; NOT_FOUND when the credential is not the tenant's. */
export async function listCredentialUsage(
  ctx: ServiceContext,
  id: string,
  page: { limit: number; after: Cursor | null },
): Promise<Page<CredentialUsage>> {
  const { caller } = ctx
  const { limit, after } = page
  const rows = await ctx.asTenant(async (tx) => {
    const [credential] =
      await tx`select id from public.credentials where id = ${id} and tenant_id = ${caller.tenantId}`
    if (!credential) return null
    return tx<{ id: string; caller_kind: 'assistant'; function_name: string; used_at: Date }[]>`
      select id, caller_kind, function_name, used_at from public.credential_usage
      where credential_id = ${id} and tenant_id = ${caller.tenantId}
        ${after ? tx`and (used_at, id) < (${after.at}, ${after.id})` : tx``}
      order by used_at desc, id desc
      limit ${limit + 1}`
  })
  if (!rows) throw notFound('Credential')
  return paginate(
    rows,
    limit,
    (r) => ({ at: r.used_at, id: r.id }),
    (r) => ({ ...r, used_at: r.used_at.toISOString() }),
  )
}

/** Deletes usage records past the retention period. */
export async function pruneCredentialUsage(deps: Pick<FunctionDeps, 'sql' | 'clock'>) {
  const cutoff = new Date(deps.clock.now().getTime() - USAGE_RETENTION_DAYS * 86_400_000)
  const result = await deps.sql`delete from public.credential_usage where used_at < ${cutoff}`
  return { deleted: result.count }
}
