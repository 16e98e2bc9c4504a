import type { TenantCaller } from '@shared/infra/caller.ts'
import type { Queryable } from '@shared/infra/db.ts'
import { notFound, ServiceError } from '@shared/infra/errors.ts'
import type { Article } from './schema.ts'

/** What a contributor may write: the checks that give it the reason row-level security refuses. */

/**
 * A contributor writes only drafts it authored (docs/adr/0027-contributor-role.md):
 * INSUFFICIENT_PERMISSIONS for anything else, NOT_FOUND for no article. Row-level security
 * refuses the same writes; this check gives the caller the reason.
 */
export async function requireOwnDraft(tx: Queryable, caller: TenantCaller, id: string): Promise<void> {
  if (caller.role !== 'contributor') return
  const [a] = await tx<{ author_id: string | null; status: Article['status'] }[]>`
    select author_id, status from public.articles where id = ${id} and tenant_id = ${caller.tenantId}`
  if (!a) throw notFound('Article')
  if (a.author_id !== caller.userId)
    throw new ServiceError(
      'INSUFFICIENT_PERMISSIONS',
      'A contributor changes only the articles it wrote: ask an editor (member, admin or owner)',
    )
  if (a.status !== 'draft')
    throw new ServiceError(
      'INSUFFICIENT_PERMISSIONS',
      `The article is ${a.status}: only an editor (member, admin or owner) changes it now`,
    )
}

/** A contributor's articles are its own: it cannot name another author. */
export function requireSelfAsAuthor(caller: TenantCaller, authorId: string | null | undefined): void {
  if (caller.role === 'contributor' && authorId !== undefined && authorId !== caller.userId)
    throw new ServiceError('INSUFFICIENT_PERMISSIONS', 'A contributor is the author of its own articles', {
      details: [{ field: 'author_id', message: 'must be your own user id' }],
    })
}
