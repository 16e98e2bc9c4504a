import { editorRoles, requireRole } from '@shared/infra/caller.ts'
import type { Queryable } from '@shared/infra/db.ts'
import type { ServiceContext } from '@shared/infra/deps.ts'
import { invalidField, notFound, requireFuture, ServiceError } from '@shared/infra/errors.ts'
import { recordEvent } from '@shared/infra/events.ts'
import { forgetPublishedReads } from '@shared/infra/hot-path/hot-path.ts'
import { requireOwnDraft } from './article-access.ts'
import { notifyReviewRequested } from './article-review.ts'
import { type ArticleRow, presentArticle, readArticle, updatedEvent } from './article-row.ts'
import type { Article } from './schema.ts'

/**
 * An article's way to readers and back: publish now, schedule (publish_at, unpublish_at),
 * unpublish or cancel a schedule, and a contributor's request for review. Events:
 * content.published (exactly the spec's data), content.scheduled, content.unpublished, and
 * content.updated beside each change. The scheduler (scheduler.ts) publishes and unpublishes at
 * the times set here.
 */

/**
 * An article taken back to draft, by hand or by its unpublish_at: content.updated (subscribers to every
 * modification of an article see this one too) and content.unpublished.
 */
export async function recordUnpublished(
  tx: Queryable,
  tenantId: string,
  after: ArticleRow,
  previousStatus: Article['status'],
  changedFields: string[],
  now: Date,
): Promise<void> {
  await recordEvent(tx, {
    tenantId,
    type: 'content.updated',
    at: now,
    data: updatedEvent(after, 'updated', changedFields, now),
  })
  await recordEvent(tx, {
    tenantId,
    type: 'content.unpublished',
    at: now,
    data: {
      article_id: after.id,
      site_id: after.site_id,
      title: after.title,
      slug: after.slug,
      previous_status: previousStatus,
      unpublished_at: now.toISOString(),
    },
  })
}

/**
 * unpublish_at must lie in the future and after publish_at when the article is scheduled:
 * VALIDATION_ERROR naming unpublish_at (checked before anything is written).
 */
export function requireUnpublishAfter(publishAt: Date | null, unpublishAt: Date, now: Date): void {
  requireFuture('unpublish_at', unpublishAt, now)
  if (publishAt && unpublishAt <= publishAt)
    throw invalidField(
      'unpublish_at',
      `must lie after publish_at (${publishAt.toISOString()})`,
      'unpublish_at must lie after publish_at',
    )
}

/** content.published's data: exactly the spec's four fields. */
export const publishedEvent = (r: { id: string; title: string; site_id: string; published_at: Date }) => ({
  article_id: r.id,
  title: r.title,
  site_id: r.site_id,
  published_at: r.published_at.toISOString(),
})

/**
 * Publishes a draft or a scheduled article now (event content.published with exactly the spec's
 * data), recording the revision that went live; a published one is returned as is.
 */
export async function publishArticle(ctx: ServiceContext, id: string): Promise<Article> {
  requireRole(ctx.caller, editorRoles)
  const { caller } = ctx
  const now = ctx.clock.now()
  const { row, published } = await ctx.asTenant(async (tx) => {
    const [article] = await tx<{ id: string; title: string; site_id: string; published_at: Date }[]>`
      update public.articles set status = 'published', published_at = ${now}, publish_at = null,
        published_revision_id = revision_id, review_requested_at = null, updated_at = ${now},
        review_note = null, review_returned_at = null, review_returned_by = null,
        unpublish_at = case when unpublish_at > ${now} then unpublish_at end
      where id = ${id} and tenant_id = ${caller.tenantId} and status <> 'published'
      returning id, title, site_id, published_at`
    if (article)
      await recordEvent(tx, {
        tenantId: caller.tenantId,
        type: 'content.published',
        at: now,
        data: publishedEvent(article),
      })
    return { row: await readArticle(tx, caller.tenantId, id), published: Boolean(article) }
  })
  if (!row) throw notFound('Article')
  forgetPublishedReads(ctx, ctx.caller.tenantId)
  if (published) ctx.onOutboxCommitted?.()
  return presentArticle(row)
}

/**
 * Schedules a draft (or reschedules a scheduled article) to be published at `publishAt`, which
 * must lie in the future: event content.scheduled. A published article is a CONFLICT
 * (unpublish it first). The publish-scheduled job publishes it within a minute of that time.
 */
export async function scheduleArticle(
  ctx: ServiceContext,
  id: string,
  publishAt: Date,
  unpublishAt?: Date,
): Promise<Article> {
  requireRole(ctx.caller, editorRoles)
  const { caller } = ctx
  const now = ctx.clock.now()
  if (publishAt <= now)
    throw invalidField(
      'publish_at',
      'must lie in the future: to publish now, POST /v1/content/articles/{id}/publish',
      'publish_at must lie in the future',
    )
  if (unpublishAt) requireUnpublishAfter(publishAt, unpublishAt, now)
  const row = await ctx.asTenant(async (tx) => {
    const [before] = await tx<{ status: string; publish_at: Date | null; unpublish_at: Date | null }[]>`
      select status, publish_at, unpublish_at from public.articles
      where id = ${id} and tenant_id = ${caller.tenantId} for update`
    if (!before) throw notFound('Article')
    if (before.status === 'published')
      throw new ServiceError('CONFLICT', 'The article is published: unpublish it before scheduling it', {
        details: [{ field: 'status', message: 'published' }],
      })
    const until = unpublishAt ?? before.unpublish_at
    // An unpublish_at kept from before must still come after the new publish_at.
    if (until && until <= publishAt)
      throw invalidField(
        'publish_at',
        `must lie before unpublish_at (${until.toISOString()}): move or clear unpublish_at first`,
        'publish_at must lie before unpublish_at',
      )
    if (
      before.publish_at?.getTime() === publishAt.getTime() &&
      (unpublishAt === undefined || before.unpublish_at?.getTime() === unpublishAt.getTime())
    )
      return readArticle(tx, caller.tenantId, id)
    await tx`
      update public.articles set status = 'scheduled', publish_at = ${publishAt}, review_requested_at = null,
        review_note = null, review_returned_at = null, review_returned_by = null,
        unpublish_at = ${until ?? null}, updated_at = ${now}
      where id = ${id} and tenant_id = ${caller.tenantId}`
    const after = (await readArticle(tx, caller.tenantId, id))!
    await recordEvent(tx, {
      tenantId: caller.tenantId,
      type: 'content.updated',
      at: now,
      data: updatedEvent(after, 'updated', ['status', 'publish_at'], now),
    })
    await recordEvent(tx, {
      tenantId: caller.tenantId,
      type: 'content.scheduled',
      at: now,
      data: {
        article_id: after.id,
        site_id: after.site_id,
        title: after.title,
        slug: after.slug,
        publish_at: publishAt.toISOString(),
        rescheduled: before.status === 'scheduled',
        scheduled_at: now.toISOString(),
      },
    })
    return after
  })
  forgetPublishedReads(ctx, ctx.caller.tenantId)
  ctx.onOutboxCommitted?.()
  return presentArticle(row!)
}

/**
 * Takes a published or scheduled article back to draft (event content.unpublished, with the
 * status it had): unpublishing, or cancelling a schedule. A draft is returned as is.
 */
export function unpublishArticle(ctx: ServiceContext, id: string): Promise<Article> {
  return backToDraft(ctx, id, ['published', 'scheduled'])
}

/**
 * Cancels a schedule: a scheduled article goes back to draft (event content.unpublished); a
 * draft is returned as is; a published article is a CONFLICT (unpublish it instead).
 */
export function cancelSchedule(ctx: ServiceContext, id: string): Promise<Article> {
  return backToDraft(ctx, id, ['scheduled'])
}

async function backToDraft(
  ctx: ServiceContext,
  id: string,
  from: readonly Exclude<Article['status'], 'draft'>[],
): Promise<Article> {
  requireRole(ctx.caller, editorRoles)
  const { caller } = ctx
  const now = ctx.clock.now()
  const { row, changed } = await ctx.asTenant(async (tx) => {
    const [before] = await tx<{ status: Article['status'] }[]>`
      select status from public.articles
      where id = ${id} and tenant_id = ${caller.tenantId} and status <> 'draft' for update`
    if (before && !from.includes(before.status as (typeof from)[number]))
      throw new ServiceError('CONFLICT', `The article is ${before.status}: unpublish it instead`, {
        details: [{ field: 'status', message: before.status }],
      })
    if (before) {
      await tx`
        update public.articles set status = 'draft', published_at = null, publish_at = null,
          unpublish_at = null, updated_at = ${now}
        where id = ${id} and tenant_id = ${caller.tenantId}`
      const after = (await readArticle(tx, caller.tenantId, id))!
      await recordUnpublished(
        tx,
        caller.tenantId,
        after,
        before.status,
        ['status', 'published_at', 'publish_at'],
        now,
      )
      return { row: after, changed: true }
    }
    return { row: await readArticle(tx, caller.tenantId, id), changed: false }
  })
  if (!row) throw notFound('Article')
  forgetPublishedReads(ctx, ctx.caller.tenantId)
  if (changed) ctx.onOutboxCommitted?.()
  return presentArticle(row)
}

/**
 * Asks the tenant's editors to review a draft: sets review_requested_at (event content.updated,
 * changed_fields review_requested_at) and e-mails them (article-review.ts); publishing or
 * scheduling it clears it. A note it was returned with is cleared: the writer answered it. Asking
 * again changes nothing; an article that is not a draft is a CONFLICT.
 */
export async function submitForReview(ctx: ServiceContext, id: string): Promise<Article> {
  const { caller } = ctx
  const now = ctx.clock.now()
  const { row, changed } = await ctx.asTenant(async (tx) => {
    const [before] = await tx<{ status: Article['status']; review_requested_at: Date | null }[]>`
      select status, review_requested_at from public.articles where id = ${id} and tenant_id = ${caller.tenantId}`
    if (!before) throw notFound('Article')
    if (before.status !== 'draft')
      throw new ServiceError(
        'CONFLICT',
        `The article is ${before.status}: only a draft is submitted for review`,
        {
          details: [{ field: 'status', message: before.status }],
        },
      )
    await requireOwnDraft(tx, caller, id)
    if (before.review_requested_at)
      return { row: (await readArticle(tx, caller.tenantId, id))!, changed: false }
    await tx`
      update public.articles set review_requested_at = ${now}, updated_at = ${now},
        review_note = null, review_returned_at = null, review_returned_by = null
      where id = ${id} and tenant_id = ${caller.tenantId}`
    const after = (await readArticle(tx, caller.tenantId, id))!
    await recordEvent(tx, {
      tenantId: caller.tenantId,
      type: 'content.updated',
      at: now,
      data: updatedEvent(after, 'updated', ['review_requested_at'], now),
    })
    // Last: it leaves the caller's role for the e-mails (article-review.ts).
    await notifyReviewRequested(tx, ctx, caller, after)
    return { row: after, changed: true }
  })
  if (changed) ctx.onOutboxCommitted?.()
  return presentArticle(row)
}
