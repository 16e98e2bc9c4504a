import { editorRoles, requireRole, type TenantCaller } from '@shared/infra/caller.ts'
import type { Queryable } from '@shared/infra/db.ts'
import type { ServiceContext } from '@shared/infra/deps.ts'
import { notFound, ServiceError } from '@shared/infra/errors.ts'
import { recordEvent } from '@shared/infra/events.ts'
import { type ArticleRow, presentArticle, readArticle, updatedEvent } from './article-row.ts'
import type { Article } from './schema.ts'

/**
 * Review as a loop (docs/adr/0046-review-loop-and-newsroom-navigation.md): a submitted draft tells
 * the tenant's editors by e-mail, and an editor may hand it back to its writer with a note, which
 * the writer reads on the article (review_return) and which is told to them by e-mail too. The
 * e-mails go through the platform's notifier, in the commit of the change, as invitations do.
 */

/** A link to the article in the dashboard's editor. */
function articleLink(dashboardUrl: string, id: string): string {
  const url = new URL(dashboardUrl)
  url.hash = `/articles/${id}`
  return url.toString()
}

/**
 * Tenants may not write e-mails (they could mail anyone anything): the rows are the service's.
 * Leaving the role for the rest of the transaction keeps the change, its event and its e-mails in
 * one commit; the caller's writes before this were checked by row-level security.
 */
async function asService(tx: Queryable): Promise<void> {
  await tx`select set_config('role', 'none', true)`
}

/**
 * Inside submitForReview's transaction, once the draft is submitted: every editor (owner, admin,
 * member) with an e-mail address but the submitter is told once per submission (the dedupe key
 * names the submission's time).
 */
export async function notifyReviewRequested(
  tx: Queryable,
  ctx: Pick<ServiceContext, 'notifier' | 'config'>,
  caller: TenantCaller,
  article: ArticleRow,
): Promise<void> {
  await asService(tx)
  const editors = await tx<{ email: string }[]>`
    select u.email from public.tenant_members m join auth.users u on u.id = m.user_id
    where m.tenant_id = ${caller.tenantId} and m.role = any(${[...editorRoles]}::text[])
      and m.user_id <> ${caller.userId} and u.email is not null
    order by m.created_at limit 50`
  const [who] = await tx<{ email: string | null }[]>`select email from auth.users where id = ${caller.userId}`
  const at = article.review_requested_at?.toISOString() ?? ''
  for (const { email } of editors)
    await ctx.notifier.enqueue(tx, {
      tenantId: caller.tenantId,
      kind: 'content.review_requested',
      recipient: email,
      subject: `Waiting for your review: ${article.title}`.slice(0, 200),
      body:
        `${who?.email ?? 'A writer'} submitted the draft "${article.title}" for review.\n\n` +
        `Read it, then publish, schedule or return it with a note: ${articleLink(ctx.config.DASHBOARD_URL, article.id)}`,
      dedupeKey: `review-requested:${article.id}:${at}:${email}`,
    })
}

/**
 * Returns a submitted draft to its writer with a note (editors only): review_requested_at is
 * cleared and review_return set (event content.updated, changed_fields review_requested_at and
 * review_return), and the author is told by e-mail. Only a draft waiting for review is returned:
 * anything else is a CONFLICT, and nothing changes.
 */
export async function returnForChanges(ctx: ServiceContext, id: string, note: string): Promise<Article> {
  requireRole(ctx.caller, editorRoles)
  const { caller } = ctx
  const now = ctx.clock.now()
  const row = await ctx.asTenant(async (tx) => {
    const [before] = await tx<{ status: Article['status']; review_requested_at: Date | null }[]>`
      select status, review_requested_at from public.articles
      where id = ${id} and tenant_id = ${caller.tenantId} for update`
    if (!before) throw notFound('Article')
    if (before.status !== 'draft' || !before.review_requested_at)
      throw new ServiceError(
        'CONFLICT',
        before.status !== 'draft'
          ? `The article is ${before.status}: only a draft waiting for review is returned`
          : 'The draft is not waiting for review: only a submitted draft is returned',
        { details: [{ field: 'review_requested_at', message: before.status }] },
      )
    await tx`
      update public.articles set review_requested_at = null, review_note = ${note},
        review_returned_at = ${now}, review_returned_by = ${caller.userId}, updated_at = ${now}
      where id = ${id} and tenant_id = ${caller.tenantId}`
    const after = (await readArticle(tx, caller.tenantId, id))!
    await recordEvent(tx, {
      tenantId: caller.tenantId,
      type: 'content.updated',
      at: now,
      data: updatedEvent(after, 'updated', ['review_requested_at', 'review_return'], now),
    })
    await asService(tx)
    const [author] = await tx<{ email: string | null }[]>`
      select email from auth.users where id = ${after.author_id} and id <> ${caller.userId}`
    if (author?.email)
      await ctx.notifier.enqueue(tx, {
        tenantId: caller.tenantId,
        kind: 'content.review_returned',
        recipient: author.email,
        subject: `Returned with a note: ${after.title}`.slice(0, 200),
        body:
          `An editor returned your draft "${after.title}" with this note:\n\n${note}\n\n` +
          `Change it and submit it again: ${articleLink(ctx.config.DASHBOARD_URL, after.id)}`,
        dedupeKey: `review-returned:${after.id}:${now.toISOString()}`,
      })
    return after
  })
  ctx.onOutboxCommitted?.()
  return presentArticle(row)
}
