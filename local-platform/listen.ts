import type { IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type ServerType, serve } from '@hono/node-server'
import type { Platform } from './server.ts'

/**
 * Serves the local platform over HTTP on Node (`npm start`, the tests): resolves once the port is
 * listening, rejects when it cannot be (EADDRINUSE), so the caller says which port and why.
 */
export function listenPlatform(
  platform: Pick<Platform, 'fetch'>,
  opts: {
    port: number
    hostname?: string
    /** The client address the functions see; default the socket peer. */
    clientAddress?: (req: Request, socketAddress: string | undefined) => string | undefined
  },
): Promise<{ server: ServerType; port: number }> {
  return new Promise((resolve, reject) => {
    const server = serve(
      {
        port: opts.port,
        hostname: opts.hostname ?? '127.0.0.1',
        // The client address for the unauthenticated rate limit comes from the socket (a client's
        // own X-Forwarded-For counts only behind TRUSTED_PROXIES).
        fetch: async (req, info) => {
          const socketAddress = info.incoming.socket.remoteAddress
          const remoteAddr = opts.clientAddress ? opts.clientAddress(req, socketAddress) : socketAddress
          return closeIfBodyUnread(info.incoming, await platform.fetch(req, { remoteAddr }))
        },
      },
      () => {
        server.off('error', reject)
        resolve({ server, port: (server.address() as AddressInfo).port })
      },
    )
    server.once('error', reject)
  })
}

/**
 * An answer that is ready before its request's body has arrived in full (a 413 from the body
 * limit, a 401 before the body was read) must not leave the connection open: the rest of the
 * body is still on its way, Node cannot always skip it (a refused body stream destroys the
 * socket), and a pooled keep-alive client that sends its next request on that socket sees it
 * closed under it ("other side closed"). So such an answer says `Connection: close`, and the
 * client opens a new connection for its next request.
 *
 * Closing rather than draining: draining would read up to the whole refused body (megabytes, at
 * the sender's pace) only to keep one connection; a new connection costs far less. A request whose
 * body did arrive in full, read or not, keeps its connection.
 */
export function closeIfBodyUnread(incoming: Pick<IncomingMessage, 'complete'>, res: Response): Response {
  if (incoming.complete) return res
  try {
    res.headers.set('connection', 'close')
    return res
  } catch {
    // The headers of a response from fetch() are immutable: answer with a copy.
    const copy = new Response(res.body, res)
    copy.headers.set('connection', 'close')
    return copy
  }
}
