import { type ChildProcess, spawn } from 'node:child_process'
import { createServer, request as httpRequest, type Server } from 'node:http'
import { type AddressInfo, connect } from 'node:net'
import { fileURLToPath } from 'node:url'
import { timingSafeEqual } from '@shared/infra/crypto.ts'

/**
 * The reference MCP server (`@modelcontextprotocol/server-everything`) as a child process on
 * loopback, over Streamable HTTP (/mcp) or the older SSE transport (/sse + /message). It has no
 * authentication of its own, so a small proxy in front of it refuses requests without the right
 * bearer token or X-API-Key, the way a hosted MCP server does.
 */

export interface McpTestServer {
  /** The address a tenant would register (through the auth proxy). */
  url: string
  transport: 'streamableHttp' | 'sse'
  /** Requests the proxy refused. */
  refused: number
  /** Requests the proxy passed on to the server. */
  passed: number
  close(): Promise<void>
}

const entry = fileURLToPath(
  new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
)

async function freePort(): Promise<number> {
  const s = createServer()
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r))
  const port = (s.address() as AddressInfo).port
  await new Promise<void>((r) => s.close(() => r()))
  return port
}

async function waitForPort(port: number, child: ChildProcess, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`MCP server exited with ${child.exitCode}`)
    const open = await new Promise<boolean>((resolve) => {
      const sock = connect(port, '127.0.0.1')
      sock.once('connect', () => {
        sock.destroy()
        resolve(true)
      })
      sock.once('error', () => resolve(false))
    })
    if (open) return
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error('MCP server did not start')
}

export async function startMcpServer(opts: {
  transport: 'streamableHttp' | 'sse'
  /** 'none': the server takes every request, as an open server on a trusted network does. */
  auth: { type: 'bearer' | 'api_key'; token: string } | { type: 'none' }
}): Promise<McpTestServer> {
  const upstreamPort = await freePort()
  const child = spawn(process.execPath, [entry, opts.transport], {
    env: { ...process.env, PORT: String(upstreamPort) },
    stdio: ['ignore', 'ignore', 'ignore'],
  })
  await waitForPort(upstreamPort, child)

  let refused = 0
  let passed = 0
  const proxy: Server = createServer((req, res) => {
    const auth = opts.auth
    const presented =
      auth.type === 'bearer'
        ? (req.headers.authorization ?? '').replace(/^Bearer\s+/i, '')
        : String(req.headers['x-api-key'] ?? '')
    if (auth.type !== 'none' && (!presented || !timingSafeEqual(presented, auth.token))) {
      refused++
      res.writeHead(401, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ error: 'invalid_token' }))
      return
    }
    passed++
    const upstream = httpRequest(
      {
        host: '127.0.0.1',
        port: upstreamPort,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: `127.0.0.1:${upstreamPort}` },
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers)
        res.flushHeaders()
        up.pipe(res)
      },
    )
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502)
      res.end()
    })
    req.pipe(upstream)
  })
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r))
  const port = (proxy.address() as AddressInfo).port
  const path = opts.transport === 'sse' ? '/sse' : '/mcp'

  return {
    url: `http://127.0.0.1:${port}${path}`,
    transport: opts.transport,
    get refused() {
      return refused
    },
    get passed() {
      return passed
    },
    close: async () => {
      proxy.closeAllConnections()
      await new Promise<void>((r) => proxy.close(() => r()))
      child.kill('SIGKILL')
    },
  }
}
