import type { JobDeps } from '@shared/infra/deps.ts'
import { recordEvent } from '@shared/infra/events.ts'
import type { ScrapedItem } from './feed.ts'
import type { SourceRow } from './sources.ts'

/**
 * Inserts new items, from a fetch (scheduled, requested, on connect) or a WebSub push alike; an
 * item already seen for this source (same guid, or link) is skipped, so `source.items_added` names
 * each new item once whichever way it arrived.
 */
export async function storeItems(
  deps: Pick<JobDeps, 'sql' | 'clock' | 'onOutboxCommitted'>,
  source: SourceRow,
  items: ScrapedItem[],
) {
  if (items.length === 0) return 0
  const now = deps.clock.now()
  // Duplicates within one fetch count once (the first wins, as it would across fetches).
  const seen = new Set<string>()
  const unique = items.filter((i) => !seen.has(i.externalId) && seen.add(i.externalId))
  const ids: string[] = []
  for (let at = 0; at < unique.length; at += 500) {
    const chunk = unique.slice(at, at + 500).map((i, n) => ({
      external_id: i.externalId,
      // Items are listed newest created first: the feed's first item gets the fetch time and each
      // later one a millisecond less, so one fetch's items list in the order the feed gave them.
      created_at: new Date(now.getTime() - (at + n)).toISOString(),
      url: i.url,
      title: i.title,
      text: i.text?.replaceAll('\u0000', '') ?? null,
      author: i.author,
      media: i.media,
      published_at: i.publishedAt?.toISOString() ?? null,
    }))
    // One statement per 500 items: the batch travels as one JSON parameter.
    const res = await deps.sql`
      insert into public.source_items (tenant_id, source_id, external_id, url, title, text, author, media, published_at, created_at)
      select ${source.tenant_id}, ${source.id}, x.external_id, x.url, x.title, x.text, x.author, coalesce(x.media, '[]'), x.published_at, x.created_at
      from jsonb_to_recordset(${deps.sql.json(chunk as never)}) as x (external_id text, url text, title text, text text,
        author text, media jsonb, published_at timestamptz, created_at timestamptz)
      on conflict (source_id, external_id) do nothing
      returning id`
    ids.push(...res.map((r) => String(r.id)))
  }
  // Automations and webhooks that wait for new items hear of them once per fetch.
  if (ids.length > 0)
    await recordEvent(deps.sql, {
      tenantId: source.tenant_id,
      type: 'source.items_added',
      at: now,
      data: { source_id: source.id, new_items: ids.length, item_ids: ids.slice(0, 50) },
    })
  // Committed (one statement, no transaction): the automations waiting for it start now.
  if (ids.length > 0) deps.onOutboxCommitted?.()
  return ids.length
}
