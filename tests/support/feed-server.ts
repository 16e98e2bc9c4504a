import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gzipSync } from 'node:zlib'

/**
 * A loopback feed server: RSS 2.0, Atom and JSON Feed (with ETag / Last-Modified and 304 on a
 * matching conditional GET), a feed of any length, and the broken variants a source can turn into:
 * not XML, 404, a 10 MB body, a gzip bomb, a redirect to a private address.
 */
export interface FeedServer {
  url: string
  /** Requests per path, and how many of them were answered 304. */
  hits: Map<string, number>
  notModified: Map<string, number>
  /** Adds an item to /rss.xml (a new version: new ETag). */
  addRssItem(guid: string, title: string): void
  close(): Promise<void>
}

const LAST_MODIFIED = 'Mon, 23 Nov 2026 09:00:00 GMT'

function rssFeed(items: { guid: string; title: string; link?: string }[]): string {
  const entries = items
    .map(
      (i, n) => `<item><title>${i.title}</title><link>${i.link ?? `https://blog.example.com/${i.guid}`}</link>
<guid isPermaLink="false">${i.guid}</guid><description>Post ${i.title} &amp; more</description>
<author>writer@example.com (Writer ${n})</author>
<pubDate>Mon, 23 Nov 2026 0${n % 10}:00:00 GMT</pubDate>
<enclosure url="https://cdn.example.com/${i.guid}.jpg" type="image/jpeg" length="1000"/></item>`,
    )
    .join('\n')
  return `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Example blog</title>
<link>https://blog.example.com</link><description>Posts</description>${entries}</channel></rss>`
}

const atomFeed = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/" xmlns:yt="http://www.youtube.com/xml/schemas/2015">
  <title>Channel</title><id>yt:channel:UC123</id><updated>2026-11-23T10:00:00Z</updated>
  <entry>
    <id>yt:video:abc123</id><yt:videoId>abc123</yt:videoId>
    <title>First video</title>
    <link rel="alternate" href="https://www.youtube.com/watch?v=abc123"/>
    <author><name>Channel Owner</name></author>
    <published>2026-11-22T08:00:00Z</published><updated>2026-11-22T09:00:00Z</updated>
    <media:group>
      <media:title>First video</media:title>
      <media:content url="https://www.youtube.com/v/abc123" type="application/x-shockwave-flash" width="640" height="390"/>
      <media:thumbnail url="https://i.ytimg.com/vi/abc123/hqdefault.jpg" width="480" height="360"/>
      <media:description>What the video is about</media:description>
    </media:group>
  </entry>
  <entry>
    <id>yt:video:def456</id><title>Second video</title>
    <link rel="alternate" href="https://www.youtube.com/watch?v=def456"/>
    <author><name>Channel Owner</name></author>
    <published>2026-11-23T08:00:00Z</published><updated>2026-11-23T08:00:00Z</updated>
    <content type="html">&lt;p&gt;Second&lt;/p&gt;</content>
  </entry>
</feed>`

const jsonFeed = JSON.stringify({
  version: 'https://jsonfeed.org/version/1.1',
  title: 'Profile',
  items: [
    {
      id: 'https://mastodon.example/@me/1',
      url: 'https://mastodon.example/@me/1',
      content_text: 'Hello from the fediverse',
      date_published: '2026-11-23T07:30:00Z',
      authors: [{ name: 'Me' }],
      image: 'https://files.example/1.png',
    },
    {
      id: '2',
      url: 'https://mastodon.example/@me/2',
      content_html: '<p>Second toot</p>',
      date_published: '2026-11-23T07:45:00Z',
    },
  ],
})

export async function startFeedServer(): Promise<FeedServer> {
  const hits = new Map<string, number>()
  const notModified = new Map<string, number>()
  const rssItems = [
    { guid: 'post-1', title: 'One' },
    { guid: 'post-2', title: 'Two' },
    { guid: 'post-3', title: 'Three' },
  ]
  let rssVersion = 1
  const bomb = gzipSync(Buffer.alloc(50 * 1024 * 1024))
  const huge = Buffer.alloc(10 * 1024 * 1024, 'a')

  const conditional = (
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    etag: string,
    type: string,
    body: string,
  ) => {
    if (req.headers['if-none-match'] === etag) {
      notModified.set(path, (notModified.get(path) ?? 0) + 1)
      res.writeHead(304, { etag, 'last-modified': LAST_MODIFIED }).end()
      return
    }
    res.writeHead(200, { 'content-type': type, etag, 'last-modified': LAST_MODIFIED }).end(body)
  }

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x')
    hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1)
    switch (url.pathname) {
      case '/rss.xml':
        return conditional(
          req,
          res,
          url.pathname,
          `"rss-v${rssVersion}"`,
          'application/rss+xml',
          rssFeed(rssItems),
        )
      case '/atom.xml':
        return conditional(req, res, url.pathname, '"atom-v1"', 'application/atom+xml', atomFeed)
      case '/feed.json':
        return conditional(req, res, url.pathname, '"json-v1"', 'application/feed+json', jsonFeed)
      case '/big.xml': {
        const n = Number(url.searchParams.get('n') ?? 500)
        const items = Array.from({ length: n }, (_, i) => ({ guid: `big-${i}`, title: `Item ${i}` }))
        return res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(rssFeed(items))
      }
      case '/slow.xml': {
        // Answers after `ms` (default 1500): a scrape that is still running when others ask.
        const ms = Number(url.searchParams.get('ms') ?? 1500)
        const body = rssFeed([{ guid: 'slow-1', title: 'Slow item' }])
        setTimeout(() => res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(body), ms)
        return
      }
      case '/not-xml':
        return res
          .writeHead(200, { 'content-type': 'text/html' })
          .end('<html><body><h1>Welcome</h1></body></html>')
      case '/huge.xml':
        return res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(huge)
      case '/huge-chunked.xml':
        // No content-length: the cap must hold while reading.
        res.writeHead(200, { 'content-type': 'application/rss+xml', 'transfer-encoding': 'chunked' })
        for (let i = 0; i < 10; i++) res.write(huge.subarray(i * 1024 * 1024, (i + 1) * 1024 * 1024))
        return res.end()
      case '/bomb.xml':
        return res
          .writeHead(200, {
            'content-type': 'application/rss+xml',
            'content-encoding': 'gzip',
            'content-length': bomb.length,
          })
          .end(bomb)
      case '/to-private':
        return res.writeHead(302, { location: 'http://10.0.0.1/feed.xml' }).end()
      default:
        return res.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
    }
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    notModified,
    addRssItem(guid, title) {
      rssItems.push({ guid, title })
      rssVersion++
    },
    close: () => new Promise((r) => server.close(() => r())),
  }
}
