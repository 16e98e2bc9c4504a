import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A loopback server that answers as Apify's API v2 documents: POST /v2/acts/{actorId}/runs starts a
 * run, GET /v2/actor-runs/{runId}?waitForFinish=N waits up to N seconds for it, POST
 * /v2/actor-runs/{runId}/abort aborts it, GET /v2/datasets/{datasetId}/items lists its items.
 * Responses wrap the run object in `data`; errors are `{error: {type, message}}`.
 *
 * The actor decides the run: `...~posts` succeeds after 100 ms with `items`, `...~fails` ends FAILED,
 * `...~hangs` never finishes.
 */
export interface ApifyServer {
  url: string
  token: string
  items: Record<string, unknown>[]
  runs: Map<string, { actor: string; input: unknown; status: string }>
  close(): Promise<void>
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = ''
    req.on('data', (d) => (text += d))
    req.on('end', () => resolve(text))
  })

export async function startApifyServer(token = 'apify_api_test_token_123456'): Promise<ApifyServer> {
  const runs = new Map<
    string,
    { actor: string; input: unknown; status: string; doneAt: number; datasetId: string }
  >()
  const items: Record<string, unknown>[] = [
    {
      id: 'tw-1',
      url: 'https://x.example/status/1',
      text: 'First post from the actor',
      author: { name: 'Poster' },
      timestamp: '2026-11-23T06:00:00.000Z',
      images: ['https://pbs.example/1.jpg'],
    },
    { postId: 'tw-2', postUrl: 'https://x.example/status/2', caption: 'Second', ownerUsername: 'poster2' },
    { id: 'tw-1', url: 'https://x.example/status/1', text: 'duplicate of the first' },
  ]
  let counter = 0
  const runView = (id: string) => {
    const r = runs.get(id)!
    if (r.status === 'RUNNING' && r.doneAt <= Date.now())
      r.status = r.actor.endsWith('fails') ? 'FAILED' : 'SUCCEEDED'
    return {
      data: {
        id,
        actId: r.actor,
        status: r.status,
        statusMessage: r.status === 'FAILED' ? 'The actor crashed: login wall' : undefined,
        defaultDatasetId: r.datasetId,
        startedAt: new Date().toISOString(),
      },
    }
  }
  const json = (res: import('node:http').ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x')
    if (req.headers.authorization !== `Bearer ${token}`) {
      return json(res, 401, {
        error: { type: 'token-not-valid', message: 'Authentication token is not valid.' },
      })
    }
    const parts = url.pathname.split('/').filter(Boolean)
    if (req.method === 'POST' && parts[0] === 'v2' && parts[1] === 'acts' && parts[3] === 'runs') {
      const actor = decodeURIComponent(parts[2]!)
      const id = `run${++counter}`
      const hangs = actor.endsWith('hangs')
      runs.set(id, {
        actor,
        input: JSON.parse((await readBody(req)) || '{}'),
        status: 'RUNNING',
        doneAt: hangs ? Number.POSITIVE_INFINITY : Date.now() + 100,
        datasetId: `ds${counter}`,
      })
      return json(res, 201, runView(id))
    }
    if (parts[0] === 'v2' && parts[1] === 'actor-runs' && runs.has(parts[2]!)) {
      const id = parts[2]!
      if (req.method === 'POST' && parts[3] === 'abort') {
        runs.get(id)!.status = 'ABORTED'
        return json(res, 200, runView(id))
      }
      const waitUntil = Date.now() + Math.min(60, Number(url.searchParams.get('waitForFinish') ?? 0)) * 1000
      while (runView(id).data.status === 'RUNNING' && Date.now() < waitUntil)
        await new Promise((r) => setTimeout(r, 20))
      return json(res, 200, runView(id))
    }
    if (req.method === 'GET' && parts[0] === 'v2' && parts[1] === 'datasets' && parts[3] === 'items') {
      const limit = Number(url.searchParams.get('limit') ?? 1000)
      return json(res, 200, items.slice(0, limit))
    }
    return json(res, 404, { error: { type: 'record-not-found', message: 'Not found' } })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    token,
    items,
    runs,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections()
        server.close(() => r())
      }),
  }
}
