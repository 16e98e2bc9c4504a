import LinkHeader from 'http-link-header'

/**
 * WebSub discovery (W3C WebSub §4): a feed names its hub and its own canonical address (the topic)
 * with `rel="hub"` and `rel="self"` links, in the HTTP `Link` header or in the document (Atom's
 * `<link>`, RSS's `<atom:link>`, JSON Feed's `hubs` and `feed_url`). The header wins over the body,
 * as the recommendation says. Without a self link the fetched address is the topic.
 */
export interface HubLinks {
  hub: string
  topic: string
}

const MAX_URL = 2000

const httpUrl = (v: unknown, base?: string): string | null => {
  if (typeof v !== 'string' || v.length === 0 || v.length > MAX_URL) return null
  try {
    const u = new URL(v, base)
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : null
  } catch {
    return null
  }
}

// biome-ignore lint/suspicious/noExplicitAny: the parsed feed is walked generically across formats
type Loose = any

/** The hub and self links a parsed feed (feedsmith's result) carries. */
export function inFeedLinks(feed: Loose): { hub: string | null; self: string | null } {
  const links: Loose[] = [...(feed?.links ?? []), ...(feed?.atom?.links ?? [])]
  const rel = (r: string) => links.find((l) => l?.rel === r)?.href
  const jsonHub = (feed?.hubs ?? []).find((h: Loose) => /^websub$/i.test(String(h?.type ?? '')))?.url
  return { hub: httpUrl(rel('hub') ?? jsonHub), self: httpUrl(rel('self') ?? feed?.feed_url) }
}

/** The hub and topic for a fetched feed, or null when it names no hub. */
export function discoverHub(
  fetchedUrl: string,
  linkHeader: string | null,
  inFeed: { hub: string | null; self: string | null },
): HubLinks | null {
  let headerHub: string | null = null
  let headerSelf: string | null = null
  if (linkHeader && linkHeader.length <= 8192) {
    try {
      const parsed = LinkHeader.parse(linkHeader)
      headerHub = httpUrl(parsed.rel('hub')[0]?.uri, fetchedUrl)
      headerSelf = httpUrl(parsed.rel('self')[0]?.uri, fetchedUrl)
    } catch {
      // A malformed header names nothing; the document may still.
    }
  }
  const hub = headerHub ?? inFeed.hub
  if (!hub) return null
  return { hub, topic: headerSelf ?? inFeed.self ?? fetchedUrl }
}
