/**
 * Soak: `npm run bench soak`, a few minutes, not part of npm test. Two platform
 * instances, each its own process (benchmarks/soak/instance.ts) over one database, take a mixed
 * load at a fixed rate (open loop: requests go out on schedule whatever the answers take): keyed
 * reads (GET /v1/content), tool calls (POST /mcp tools/call), writes that fire a webhook
 * (POST /v1/content/sites, delivered to a receiver on loopback) and signed commerce deliveries.
 * Per minute: throughput, p50/p99, 5xx (and other failures), and each process's RSS.
 * Goals: no 5xx, p99 flat within 20% after the first minute, RSS growth under 10% after it.
 * SOAK_MINUTES (default 4) and SOAK_RATE (requests per second, default 20) change the run.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ensureUserAndTenant, issueAccessToken } from '@local-platform/dev-identity.ts'
import { createLocalEnv } from '@local-platform/local-env.ts'
import { shopifyHeaders, shopifyOrder } from '@tests/support/commerce.ts'
import { createTestDatabase } from '@tests/support/database.ts'
import { startReceiver } from '@tests/support/webhook-receiver.ts'
import { latencyStats } from '../lib.ts'

const INSTANCE_SCRIPT = fileURLToPath(new URL('../soak/instance.ts', import.meta.url))
const DOMAIN = 'soak.myshopify.com'
const SECRET = 'shpss_soak_secret'

interface Instance {
  child: ChildProcess
  baseUrl: string
}

function startInstance(databaseUrl: string, localEnvFile: string): Promise<Instance> {
  const child = spawn(process.execPath, ['--import', 'tsx', INSTANCE_SCRIPT], {
    env: { ...process.env, SOAK_DATABASE_URL: databaseUrl, SOAK_LOCAL_ENV: localEnvFile },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  return new Promise((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const ready = /READY (\d+)/.exec(out)
      if (ready) resolve({ child, baseUrl: `http://127.0.0.1:${ready[1]}` })
    })
    child.on('exit', (code) => reject(new Error(`instance exited with ${code}`)))
  })
}

/** Resident set size of a process in MB (Linux /proc). */
function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024
}

type Kind = 'read' | 'tool' | 'write' | 'delivery'
interface Sample {
  minute: number
  kind: Kind
  ms: number
  status: number
}

export default async function soakBenchmark(): Promise<void> {
  const minutes = Number(process.env.SOAK_MINUTES ?? 4)
  const rate = Number(process.env.SOAK_RATE ?? 20)
  const db = await createTestDatabase()
  const localEnv = await createLocalEnv()
  const dir = mkdtempSync(join(tmpdir(), 'soak-'))
  const localEnvFile = join(dir, 'local-env.json')
  writeFileSync(localEnvFile, JSON.stringify(localEnv))
  const instances = await Promise.all([0, 1].map(() => startInstance(db.url, localEnvFile)))
  const receiver = await startReceiver()

  // One tenant with a content key, three tool keys (100/min each, the spec's tool limit), a
  // webhook subscription and a commerce store.
  const email = `soak-${Date.now()}@example.com`
  const ids = await ensureUserAndTenant(db.sql, email, 'Soak', 'owner')
  await db.sql`update public.tenants set plan = 'enterprise' where id = ${ids.tenantId}`
  await db.sql`insert into public.sites (tenant_id, name) select ${ids.tenantId}, 'Site ' || g from generate_series(1, 20) g`
  const token = await issueAccessToken(localEnv, { ...ids, email }, { issuer: 'http://127.0.0.1/auth/v1' })
  const api = async (path: string, body: unknown) => {
    const res = await fetch(`${instances[0]!.baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${await res.text()}`)
    return res.json() as Promise<Record<string, string>>
  }
  const contentKey = (
    await api('/api/api-keys', {
      name: 'soak',
      environment: 'production',
      scopes: ['content:read', 'content:write'],
      rate_limit_per_minute: 1000,
    })
  ).key!
  const toolKeys = await Promise.all(
    [1, 2, 3].map(
      async (n) =>
        (
          await api('/api/api-keys', {
            name: `soak tools ${n}`,
            kind: 'tool_server',
            environment: 'production',
            scopes: ['content:read'],
            rate_limit_per_minute: 100,
          })
        ).key!,
    ),
  )
  await api('/api/webhooks', { url: receiver.url, events: ['site.created'] })
  // Deliveries go to the store's own address (docs/commerce.md).
  const { webhook_url: storeUrl } = await api('/api/commerce/stores', {
    platform: 'shopify',
    shop_domain: DOMAIN,
    name: 'Soak',
    secret: SECRET,
  })

  const samples: Sample[] = []
  const rss: number[][] = []
  const started = performance.now()
  let sent = 0
  let sitesCreated = 0
  const request = async (kind: Kind, n: number) => {
    const base = instances[n % 2]!.baseUrl
    const minute = Math.floor((performance.now() - started) / 60_000)
    const t0 = performance.now()
    let status = 0
    try {
      let res: Response
      if (kind === 'read') {
        res = await fetch(`${base}/v1/content?limit=20`, {
          headers: { authorization: `Bearer ${contentKey}` },
        })
      } else if (kind === 'tool') {
        res = await fetch(`${base}/mcp`, {
          method: 'POST',
          headers: {
            'x-api-key': toolKeys[n % toolKeys.length]!,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: n,
            method: 'tools/call',
            params: { name: 'platform__list_content', arguments: { limit: 20 } },
          }),
        })
      } else if (kind === 'write') {
        res = await fetch(`${base}/v1/content/sites`, {
          method: 'POST',
          headers: { authorization: `Bearer ${contentKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name: `Soak site ${n}` }),
        })
        if (res.status === 201) sitesCreated++
      } else {
        const body = shopifyOrder({ id: String(8_000_000_000 + n), updatedAt: '2026-11-01T00:00:00Z' })
        res = await fetch(`${base}${new URL(storeUrl!).pathname}`, {
          method: 'POST',
          headers: shopifyHeaders({
            domain: DOMAIN,
            secret: SECRET,
            topic: 'orders/create',
            body,
            webhookId: `soak-${n}`,
          }),
          body,
        })
      }
      status = res.status
      await res.arrayBuffer()
    } catch {
      status = 0
    }
    samples.push({ minute, kind, ms: performance.now() - t0, status })
  }

  // Fixed rate: reads 2/5, tool calls, writes and deliveries 1/5 each.
  const mix: Kind[] = ['read', 'tool', 'read', 'write', 'delivery']
  const inFlight = new Set<Promise<void>>()
  await new Promise<void>((resolve) => {
    const tick = setInterval(() => {
      const elapsed = performance.now() - started
      const due = Math.floor((elapsed / 1000) * rate)
      while (sent < due) {
        const n = sent++
        const p = request(mix[n % mix.length]!, n).finally(() => inFlight.delete(p))
        inFlight.add(p)
      }
      const minute = Math.floor(elapsed / 60_000)
      if (rss.length < minute) rss.push(instances.map((i) => rssMb(i.child.pid!)))
      if (elapsed >= minutes * 60_000) {
        clearInterval(tick)
        resolve()
      }
    }, 10)
  })
  await Promise.all(inFlight)
  rss.push(instances.map((i) => rssMb(i.child.pid!)))
  // Webhooks still in flight go out.
  for (let i = 0; i < 100 && receiver.received.length < sitesCreated; i++)
    await new Promise((r) => setTimeout(r, 100))

  console.log(
    `  ${rate} requests/s for ${minutes} min across two instances (reads 40%, tool calls, writes, commerce deliveries 20% each)`,
  )
  console.log(
    '  minute | req/s | p50 ms | p99 ms | 5xx | other non-2xx | RSS instance 0 MB | RSS instance 1 MB',
  )
  const p99s: number[] = []
  for (let m = 0; m < minutes; m++) {
    const inMinute = samples.filter((s) => s.minute === m)
    const { p50ms, p99ms } = latencyStats(inMinute.map((s) => s.ms))
    p99s.push(p99ms)
    const fiveXx = inMinute.filter((s) => s.status >= 500 || s.status === 0).length
    const other = inMinute.filter((s) => s.status >= 300 && s.status < 500).length
    const [r0, r1] = rss[m] ?? [0, 0]
    console.log(
      `  ${String(m + 1).padStart(6)} | ${(inMinute.length / 60).toFixed(1).padStart(5)} | ${p50ms.toFixed(1).padStart(6)} | ${p99ms
        .toFixed(1)
        .padStart(
          6,
        )} | ${String(fiveXx).padStart(3)} | ${String(other).padStart(13)} | ${r0!.toFixed(0).padStart(17)} | ${r1!
        .toFixed(0)
        .padStart(17)}`,
    )
  }
  const statuses = new Map<string, number>()
  for (const s of samples.filter((x) => x.status >= 300 || x.status === 0)) {
    const k = `${s.kind} ${s.status}`
    statuses.set(k, (statuses.get(k) ?? 0) + 1)
  }
  const later = p99s.slice(1)
  const p99Spread = later.length ? Math.max(...later) / Math.min(...later) : 1
  const growth = rss.length > 1 ? instances.map((_, i) => rss.at(-1)![i]! / rss[0]![i]! - 1) : [0, 0]
  const total5xx = samples.filter((s) => s.status >= 500 || s.status === 0).length
  console.log(
    `  failures by kind and status: ${statuses.size ? JSON.stringify(Object.fromEntries(statuses)) : 'none'}`,
  )
  console.log(`  5xx: ${total5xx} (goal 0)`)
  console.log(`  p99 after the first minute: max/min ${p99Spread.toFixed(2)} (goal <= 1.20)`)
  console.log(
    `  RSS growth after the first minute: ${growth.map((g) => `${(g * 100).toFixed(1)}%`).join(', ')} (goal < 10%)`,
  )
  console.log(`  webhook deliveries received: ${receiver.received.length} for ${sitesCreated} sites created`)

  for (const i of instances) i.child.kill('SIGTERM')
  await Promise.all(
    instances.map((i) => new Promise((r) => (i.child.exitCode !== null ? r(null) : i.child.on('exit', r)))),
  )
  await receiver.close()
  await db.close()
  rmSync(dir, { recursive: true, force: true })
}
