import { parseFeed } from 'feedsmith'
import { inFeedLinks } from './websub-discovery.ts'

/** One scraped post, normalised from whichever source kind produced it. */
export interface ScrapedItem {
  externalId: string
  url: string | null
  title: string | null
  text: string | null
  author: string | null
  media: { url: string; type: string | null }[]
  publishedAt: Date | null
}

const MAX_TEXT = 20_000
const MAX_FIELD = 2000

// biome-ignore lint/suspicious/noExplicitAny: feed entries are walked generically across formats
type Loose = any

/** Atom text constructs parse to {value}; RSS and JSON Feed give strings. */
const text = (v: Loose, max = MAX_FIELD): string | null => {
  const s = typeof v === 'string' ? v : typeof v?.value === 'string' ? v.value : null
  const trimmed = s?.trim()
  return trimmed ? trimmed.slice(0, max) : null
}

const date = (v: Loose): Date | null => {
  if (typeof v !== 'string' && !(v instanceof Date)) return null
  const d = new Date(v)
  return Number.isNaN(d.getTime()) ? null : d
}

const httpUrl = (v: Loose): string | null => {
  const s = text(v)
  if (!s) return null
  try {
    const u = new URL(s)
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : null
  } catch {
    return null
  }
}

function mediaOf(entry: Loose): { url: string; type: string | null }[] {
  const found: { url: string; type: string | null }[] = []
  const add = (url: Loose, type: Loose = null) => {
    const u = httpUrl(url)
    if (u && !found.some((m) => m.url === u) && found.length < 20) found.push({ url: u, type: text(type) })
  }
  for (const e of entry.enclosures ?? []) add(e.url, e.type)
  if (entry.enclosure) add(entry.enclosure.url, entry.enclosure.type)
  for (const a of entry.attachments ?? []) add(a.url, a.mime_type)
  if (entry.image) add(entry.image, 'image')
  // Media RSS (YouTube channel feeds, Mastodon): media:content, media:thumbnail, media:group.
  const media = entry.media
  for (const group of [media, media?.group, ...(media?.groups ?? [])]) {
    for (const c of group?.contents ?? []) add(c.url, c.type ?? c.medium)
    for (const t of group?.thumbnails ?? []) add(t.url, 'image')
  }
  for (const l of entry.links ?? []) if (l.rel === 'enclosure') add(l.href, l.type)
  return found
}

/**
 * The feed's items, whatever its format (RSS 2.0, Atom, RDF, JSON Feed), and the WebSub hub and
 * self links it names. Throws on anything else.
 */
export function parseFeedItems(body: string): {
  format: string
  items: ScrapedItem[]
  links: ReturnType<typeof inFeedLinks>
} {
  const { format, feed } = parseFeed(body) as { format: string; feed: Loose }
  const entries: Loose[] = feed.items ?? feed.entries ?? []
  const items: ScrapedItem[] = []
  for (const e of entries) {
    const link =
      httpUrl(e.link) ??
      httpUrl(e.url) ??
      httpUrl((e.links ?? []).find((l: Loose) => !l.rel || l.rel === 'alternate')?.href) ??
      httpUrl(e.external_url)
    const guid = text(e.guid) ?? text(e.id)
    const externalId = guid ?? link
    if (!externalId) continue // nothing to tell it apart from the next run's copy
    const authors: Loose[] = e.authors ?? (e.author ? [e.author] : [])
    items.push({
      externalId,
      url: link,
      title: text(e.title),
      text:
        text(e.content_text, MAX_TEXT) ??
        text(e.content?.encoded, MAX_TEXT) ??
        text(e.content, MAX_TEXT) ??
        text(e.content_html, MAX_TEXT) ??
        text(e.description, MAX_TEXT) ??
        text(e.summary, MAX_TEXT) ??
        text(e.media?.group?.description ?? e.media?.description, MAX_TEXT),
      author: text(authors[0]?.name ?? authors[0]) ?? text(e.dc?.creator ?? e.dc?.creators?.[0]),
      media: mediaOf(e),
      publishedAt:
        date(e.pubDate) ?? date(e.published) ?? date(e.date_published) ?? date(e.updated) ?? date(e.dc?.date),
    })
  }
  return { format, items, links: inFeedLinks(feed) }
}
