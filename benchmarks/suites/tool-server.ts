/**
 * Tool server (functions/mcp-sse).
 * 1. One tools/call of platform:list_content (20 items) three ways: over MCP Streamable HTTP
 *    (a JSON-RPC POST to {mcp_url}), through the REST form (POST {mcp_url}/tools/execute), and
 *    as a direct call of the service function (callTool). Baseline: the direct call.
 * 2. The HTTP+SSE round trip: POST to {mcp_url}/sse/messages on instance 1, answer read as an
 *    event on the stream held by instance 0 (through Postgres), p50/p99.
 * The test clock moves a minute every 90 calls, so the 100/min key limit never refuses one.
 */
import type { TenantCaller } from '@shared/infra/caller.ts'
import { serviceContextFor } from '@shared/infra/deps.ts'
import { callTool } from '@shared/services/tools/tool-set.ts'
import { startTestPlatform, TestClock } from '@tests/support/platform.ts'
import { latencyStats, measure, printComparison, printMeasurement } from '../lib.ts'

const CALLS = 400
const ROUND_TRIPS = 200

export default async function toolServerBenchmark(): Promise<void> {
  const clock = new TestClock()
  const tp = await startTestPlatform({ instances: 2, clock })
  const t = await tp.createTenant()
  await tp.db.sql`insert into public.sites (tenant_id, name)
                  select ${t.tenantId}, 'Site ' || g from generate_series(1, 20) g`
  const created = await tp.json('/api/api-keys', {
    token: t.token,
    body: {
      name: 'bench',
      kind: 'tool_server',
      environment: 'development',
      scopes: ['content:read'],
      rate_limit_per_minute: 100,
    },
  })
  const key = created.body.key as string
  const [row] = await tp.db.sql<
    { id: string }[]
  >`select id from public.api_keys where tenant_id = ${t.tenantId}`
  const caller: TenantCaller = {
    kind: 'tool_key',
    keyId: row!.id,
    tenantId: t.tenantId,
    userId: t.userId,
    role: 'owner',
    scopes: ['content:read'],
    claims: {
      sub: t.userId,
      role: 'authenticated',
      app_metadata: { tenant_id: t.tenantId },
      api_key_id: row!.id,
    },
  }
  const ctx = serviceContextFor(tp.instances[0]!.platform.deps, caller)
  const tick = (i: number) => {
    if (i % 90 === 0) clock.advance(60_000)
  }
  const args = { limit: 20 }
  const rpc = (id: number) =>
    JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'platform__list_content', arguments: args },
    })
  const expectOk = async (res: Response) => {
    if (res.status !== 200 && res.status !== 202) throw new Error(`HTTP ${res.status}: ${await res.text()}`)
    await res.text()
  }

  const direct = await measure(
    'direct callTool()',
    async () => {
      const r = await callTool(ctx, 'platform:list_content', args, {
        scopes: caller.scopes,
        triggeredBy: 'assistant',
      })
      if (r.status !== 'ok') throw new Error(r.status)
    },
    { total: CALLS, concurrency: 4 },
  )
  const streamable = await measure(
    'MCP Streamable HTTP tools/call',
    async (i) => {
      tick(i)
      await expectOk(
        await fetch(`${tp.baseUrl}/mcp`, {
          method: 'POST',
          headers: {
            'x-api-key': key,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
          body: rpc(i),
        }),
      )
    },
    { total: CALLS, concurrency: 4 },
  )
  const rest = await measure(
    'REST POST /tools/execute',
    async (i) => {
      tick(i)
      await expectOk(
        await fetch(`${tp.baseUrl}/mcp/tools/execute`, {
          method: 'POST',
          headers: { 'x-api-key': key, 'content-type': 'application/json' },
          body: JSON.stringify({ tool: 'platform:list_content', params: args }),
        }),
      )
    },
    { total: CALLS, concurrency: 4 },
  )
  printComparison('Tool call: MCP Streamable HTTP vs direct service call', streamable, direct)
  printComparison('Tool call: REST /tools/execute vs direct service call', rest, direct)

  // SSE round trip: stream on instance 0, POSTs on instance 1.
  clock.advance(60_000)
  const abort = new AbortController()
  const stream = await fetch(`${tp.instances[0]!.baseUrl}/mcp/sse`, {
    headers: { 'x-api-key': key, accept: 'text/event-stream' },
    signal: abort.signal,
  })
  const reader = stream.body!.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  const waiting = new Map<number, () => void>()
  let sessionId = ''
  const gotEndpoint = new Promise<void>((resolve) => {
    void (async () => {
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }))
        if (done) return
        buffer += decoder.decode(value)
        let cut = buffer.indexOf('\n\n')
        while (cut >= 0) {
          const event = buffer.slice(0, cut)
          buffer = buffer.slice(cut + 2)
          const data =
            event
              .split('\n')
              .find((l) => l.startsWith('data: '))
              ?.slice(6) ?? ''
          if (event.startsWith('event: endpoint')) {
            sessionId = data.split('sessionId=')[1]!
            resolve()
          } else if (event.startsWith('event: message')) {
            waiting.get((JSON.parse(data) as { id: number }).id)?.()
          }
          cut = buffer.indexOf('\n\n')
        }
      }
    })()
  })
  await gotEndpoint
  const samples: number[] = []
  for (let i = 0; i < ROUND_TRIPS; i++) {
    tick(i + 1)
    const id = 1_000_000 + i
    const t0 = performance.now()
    const arrived = new Promise<void>((r) => waiting.set(id, r))
    const res = await fetch(`${tp.instances[1]!.baseUrl}/mcp/sse/messages?sessionId=${sessionId}`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: rpc(id),
    })
    await expectOk(res)
    await arrived
    samples.push(performance.now() - t0)
    waiting.delete(id)
  }
  abort.abort()
  const stats = latencyStats(samples)
  console.log('\nHTTP+SSE round trip (POST on instance 1 -> event on instance 0 stream)')
  printMeasurement({
    label: `SSE tools/call round trip (${ROUND_TRIPS}, sequential)`,
    count: ROUND_TRIPS,
    seconds: samples.reduce((s, x) => s + x, 0) / 1000,
    perSecond: ROUND_TRIPS / (samples.reduce((s, x) => s + x, 0) / 1000),
    ...stats,
  })
  await tp.close()
}
