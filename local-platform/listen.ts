import { IncomingMessage } from 'node:http'
import type { Http2ServerRequest } from 'node:http2'
import type { AddressInfo, Socket } from 'node:net'
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
 * Closing rather than draining to keep the connection: draining would read up to the whole
 * refused body (megabytes, at the sender's pace) only to keep one connection; a new connection
 * costs far less. But the close lingers (lingerAfterAnswer): closing a socket with unread bytes
 * resets it, and a sender still writing then sees EPIPE/ECONNRESET instead of the answer. A
 * request whose body did arrive in full, read or not, keeps its connection.
 */
function closeIfBodyUnread(incoming: IncomingMessage | Http2ServerRequest, res: Response): Response {
  if (incoming.complete) return res
  if (incoming instanceof IncomingMessage) lingerAfterAnswer(incoming) // HTTP/1.1: we serve no other
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

/** How long a connection answered early goes on reading its sender's body before it closes. */
export const LINGER_MS = 5_000
/** And how many more bytes it reads (and discards) at most. */
export const LINGER_MAX_BYTES = 16 * 1024 * 1024

const lingering = new WeakSet<Socket>()

/**
 * A lingering close, as web servers do it: once the answer is written, Node's server calls the
 * socket's `destroySoon` (it said `Connection: close`). Instead we end our side (the FIN follows the
 * answer, so the sender knows it is complete), and go on reading and discarding what the sender
 * still writes until it closes, LINGER_MS pass or LINGER_MAX_BYTES more arrive; then the socket is
 * destroyed (a sender that has read the answer closes at once, so the bounds are for one that
 * never stops). Had we closed at once, the unread bytes would reset the connection, and the sender's
 * next write would fail (EPIPE) before it read the answer; its runtime may drop the answer too.
 */
function lingerAfterAnswer(incoming: IncomingMessage): void {
  const socket = incoming.socket
  if (!socket || lingering.has(socket)) return
  lingering.add(socket)
  socket.destroySoon = () => {
    if (socket.destroyed || socket.writableEnded) return
    const stop = () => {
      clearTimeout(deadline)
      socket.destroy()
    }
    const deadline = setTimeout(stop, LINGER_MS)
    deadline.unref()
    socket.once('close', stop)
    socket.end()
    // The body's reader (the Request's stream, unread now) pauses the socket when its queue is
    // full: drop it, and count and discard what still comes.
    let read = 0
    incoming.removeAllListeners('data')
    incoming.on('data', (chunk: Buffer) => {
      read += chunk.length
      if (read > LINGER_MAX_BYTES) stop()
    })
    incoming.resume()
  }
}
