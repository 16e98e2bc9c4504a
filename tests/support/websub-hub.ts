import { createHmac, randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A small WebSub hub on loopback (W3C WebSub §5–7) that also publishes one feed naming it:
 * - `GET /feed.xml`: an RSS feed with `<atom:link rel="hub">` and `rel="self"`, and the same two
 *   links in the HTTP `Link` header;
 * - `POST /`: a subscriber's (un)subscription request (form-encoded); answered 202, then the hub
 *   verifies intent with a GET to the callback carrying a fresh challenge, and records the
 *   subscription only when the callback echoes that challenge exactly;
 * - `publish()`: content distribution, the feed's body POSTed to every verified subscriber of the
 *   topic, signed `X-Hub-Signature: sha256=<hex HMAC of the body under its secret>`.
 * `reach` maps the callback's public origin to where the platform listens (what the proxy in
 * front of PUBLIC_URL does in production); the path, with its token, is used as given.
 */
export interface HubSubscription {
  callback: string
  secret: string
  leaseSeconds: number
}

export interface HubRequest {
  mode: string
  topic: string
  callback: string
  leaseSeconds: number | null
  /** What the callback answered the verification: whether it echoed the challenge. */
  verified?: boolean
}

export interface WebsubHub {
  url: string
  feedUrl: string
  /** Every (un)subscription request, in order, with its verification's outcome once known. */
  requests: HubRequest[]
  /** Verified subscriptions by topic. */
  subscriptions: Map<string, HubSubscription>
  addItem(guid: string, title: string): void
  /** Pushes the feed to each subscriber; `secret` overrides the signing secret (a forgery). */
  publish(opts?: {
    secret?: string
    algorithm?: 'sha1' | 'sha256'
  }): Promise<{ status: number; body: string }[]>
  close(): Promise<void>
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    let data = ''
    req.on('data', (c) => {
      data += c
    })
    req.on('end', () => resolve(data))
    req.on('error', reject)
  })

export async function startWebsubHub(opts: { leaseSeconds?: number; reach: (callback: string) => string }) {
  const items: { guid: string; title: string }[] = [{ guid: 'first', title: 'First post' }]
  const requests: HubRequest[] = []
  const subscriptions = new Map<string, HubSubscription>()
  let base = ''
  const feed = () => `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel><title>Pushed blog</title>
<link>https://push.example.com</link><description>Posts</description>
<atom:link rel="hub" href="${base}/"/><atom:link rel="self" href="${base}/feed.xml"/>
${items.map((i) => `<item><title>${i.title}</title><link>https://push.example.com/${i.guid}</link><guid isPermaLink="false">${i.guid}</guid></item>`).join('\n')}
</channel></rss>`

  async function verify(request: HubRequest, secret: string) {
    const challenge = randomBytes(16).toString('hex')
    const url = new URL(opts.reach(request.callback))
    url.searchParams.set('hub.mode', request.mode)
    url.searchParams.set('hub.topic', request.topic)
    url.searchParams.set('hub.challenge', challenge)
    if (request.leaseSeconds !== null) url.searchParams.set('hub.lease_seconds', String(request.leaseSeconds))
    const res = await fetch(url)
    const echoed = res.status >= 200 && res.status < 300 && (await res.text()) === challenge
    request.verified = echoed
    if (!echoed) return
    if (request.mode === 'subscribe')
      subscriptions.set(request.topic, {
        callback: request.callback,
        secret,
        leaseSeconds: request.leaseSeconds!,
      })
    else subscriptions.delete(request.topic)
  }

  const server: Server = createServer(async (req, res) => {
    if (req.method === 'GET' && req.url === '/feed.xml') {
      res.writeHead(200, {
        'content-type': 'application/rss+xml',
        link: `<${base}/>; rel="hub", <${base}/feed.xml>; rel="self"`,
      })
      res.end(feed())
      return
    }
    if (req.method === 'POST' && req.url === '/') {
      const form = new URLSearchParams(await readBody(req))
      const mode = form.get('hub.mode') ?? ''
      const topic = form.get('hub.topic') ?? ''
      const callback = form.get('hub.callback') ?? ''
      if (!['subscribe', 'unsubscribe'].includes(mode) || !topic || !callback) {
        res.writeHead(400).end('bad request')
        return
      }
      const request: HubRequest = {
        mode,
        topic,
        callback,
        leaseSeconds:
          mode === 'subscribe' ? (opts.leaseSeconds ?? Number(form.get('hub.lease_seconds'))) : null,
      }
      requests.push(request)
      res.writeHead(202).end()
      // Verification of intent happens after the answer, as a hub does it (asynchronously).
      void verify(request, form.get('hub.secret') ?? '').catch(() => {
        request.verified = false
      })
      return
    }
    res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  return {
    url: `${base}/`,
    feedUrl: `${base}/feed.xml`,
    requests,
    subscriptions,
    addItem(guid: string, title: string) {
      items.unshift({ guid, title })
    },
    async publish(o = {}) {
      const body = feed()
      const sent: { status: number; body: string }[] = []
      for (const [, sub] of subscriptions) {
        const algorithm = o.algorithm ?? 'sha256'
        const mac = createHmac(algorithm, o.secret ?? sub.secret)
          .update(body)
          .digest('hex')
        const res = await fetch(opts.reach(sub.callback), {
          method: 'POST',
          headers: { 'content-type': 'application/rss+xml', 'x-hub-signature': `${algorithm}=${mac}` },
          body,
        })
        sent.push({ status: res.status, body: await res.text() })
      }
      return sent
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  } satisfies WebsubHub
}
