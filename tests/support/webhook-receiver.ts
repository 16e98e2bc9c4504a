import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders
  /** The body bytes exactly as they arrived. */
  raw: Buffer
  // biome-ignore lint/suspicious/noExplicitAny: parsed JSON of arbitrary shape, asserted field by field in tests
  body: any
  receivedAt: number
}

export type Responder = (req: ReceivedWebhook) => { status: number; body?: string; delayMs?: number } | 'hang'

/** A real HTTP receiver on loopback that records every request and answers as told. */
export interface WebhookReceiver {
  url: string
  received: ReceivedWebhook[]
  respond: Responder
  close(): Promise<void>
}

export async function startReceiver(
  respond: Responder = () => ({ status: 200, body: 'ok' }),
): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = []
  const hanging = new Set<() => void>()
  const receiver = { received, respond } as WebhookReceiver
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const raw = Buffer.concat(chunks)
      let body: unknown
      try {
        body = JSON.parse(raw.toString('utf8'))
      } catch {
        body = undefined
      }
      const entry: ReceivedWebhook = { headers: req.headers, raw, body, receivedAt: performance.now() }
      received.push(entry)
      const answer = receiver.respond(entry)
      if (answer === 'hang') {
        hanging.add(() => res.destroy())
        return
      }
      const send = () => res.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body ?? '')
      if (answer.delayMs) setTimeout(send, answer.delayMs)
      else send()
    })
  })
  server.keepAliveTimeout = 1000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
  receiver.close = async () => {
    for (const end of hanging) end()
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
  return receiver
}

export async function waitFor(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 5000,
  what = 'condition',
): Promise<void> {
  const deadline = performance.now() + timeoutMs
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 10))
  }
}
