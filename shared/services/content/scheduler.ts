import type { FunctionDeps } from '@shared/infra/deps.ts'
import { recordEvent } from '@shared/infra/events.ts'
import { forgetPublishedReads } from '@shared/infra/hot-path/hot-path.ts'
import { publishedEvent, recordUnpublished } from './article-lifecycle.ts'
import { type ArticleRow, selectArticle } from './article-row.ts'

/** Articles published per transaction: a long backlog is worked off in batches. */
const BATCH = 100

/**
 * The publish-scheduled job (every minute): publishes every scheduled article whose publish_at
 * has come, each with content.published, in the same transaction. Exactly once across instances:
 * the batch is claimed FOR UPDATE SKIP LOCKED and the UPDATE requires status 'scheduled', so a
 * second instance either skips rows the first holds or finds them published. Nothing is kept
 * outside the transaction (a transaction pooler is fine), and a batch cut off by a database
 * restart rolls back whole and is published by the next run. published_at is the publish_at the
 * author chose; the revision current at that moment is the one that goes live. Its other half,
 * unpublishDueArticles, takes articles back to draft at their unpublish_at.
 */
export async function publishDueArticles(deps: Pick<FunctionDeps, 'sql' | 'clock' | 'onOutboxCommitted'>) {
  const now = deps.clock.now()
  let published = 0
  for (;;) {
    const rows = await deps.sql.begin(async (tx) => {
      const due = await tx<
        { id: string; tenant_id: string; title: string; site_id: string; published_at: Date }[]
      >`
        with due as (
          select id from public.articles
          where status = 'scheduled' and publish_at <= ${now}
          order by publish_at, id
          limit ${BATCH}
          for update skip locked
        )
        update public.articles a set status = 'published', published_at = a.publish_at, publish_at = null,
          published_revision_id = a.revision_id, updated_at = ${now}
        from due where a.id = due.id and a.status = 'scheduled'
        returning a.id, a.tenant_id, a.title, a.site_id, a.published_at`
      for (const article of due)
        await recordEvent(tx, {
          tenantId: article.tenant_id,
          type: 'content.published',
          at: now,
          data: publishedEvent(article),
        })
      return due
    })
    published += rows.length
    for (const tenantId of new Set(rows.map((r) => r.tenant_id))) forgetPublishedReads(deps, tenantId)
    if (rows.length < BATCH) break
  }
  if (published > 0) deps.onOutboxCommitted?.()
  return published
}

/**
 * The same job's other half: takes every published article whose unpublish_at has come back to
 * draft, each with content.updated and one content.unpublished (as POST .../unpublish records),
 * in the same transaction. Exactly once across instances and through a transaction pooler as
 * publishing is: the batch is claimed FOR UPDATE SKIP LOCKED and the UPDATE requires status
 * 'published' and a due unpublish_at, so a second instance skips the rows or finds them drafts.
 */
export async function unpublishDueArticles(deps: Pick<FunctionDeps, 'sql' | 'clock' | 'onOutboxCommitted'>) {
  const now = deps.clock.now()
  let unpublished = 0
  for (;;) {
    const rows = await deps.sql.begin(async (tx): Promise<(ArticleRow & { tenant_id: string })[]> => {
      const due = await tx<{ id: string }[]>`
        with due as (
          select id from public.articles
          where status = 'published' and unpublish_at <= ${now}
          order by unpublish_at, id
          limit ${BATCH}
          for update skip locked
        )
        update public.articles a set status = 'draft', published_at = null, publish_at = null,
          unpublish_at = null, updated_at = ${now}
        from due where a.id = due.id and a.status = 'published' and a.unpublish_at <= ${now}
        returning a.id`
      if (due.length === 0) return []
      const after = await tx<(ArticleRow & { tenant_id: string })[]>`
        ${selectArticle(tx, tx`, a.tenant_id`)} where a.id = any (${due.map((d) => d.id)}) order by a.id`
      for (const article of after)
        await recordUnpublished(
          tx,
          article.tenant_id,
          article,
          'published',
          ['status', 'published_at', 'unpublish_at'],
          now,
        )
      return after
    })
    unpublished += rows.length
    for (const tenantId of new Set(rows.map((r) => r.tenant_id))) forgetPublishedReads(deps, tenantId)
    if (rows.length < BATCH) break
  }
  if (unpublished > 0) deps.onOutboxCommitted?.()
  return unpublished
}
