import { spawn } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { setupTimeout, startTestPlatform, type TestPlatform } from './support/platform.ts'

/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance, server scenarios) against
 * {mcp_url} over real HTTP. The suite's client sends no credentials, so a loopback proxy adds a
 * tool-server key to every request and passes everything else (Origin included) on as sent.
 * Scenarios that cannot pass on a gateway are listed in tests/support/mcp-conformance-baseline.yml
 * (docs/mcp.md says why for each); the suite itself fails the run on any other failure, and on a
 * listed scenario that now passes, so the baseline cannot go stale.
 *
 * Needs Node 22 and the suite, installed outside the repository (.ci/run does this):
 *   npm install --prefix DIR --ignore-scripts=false node@22 @modelcontextprotocol/conformance@0.1.16
 *   MCP_CONFORMANCE_DIR=DIR npx vitest run tests/mcp-conformance.test.ts
 */

const suiteDir = process.env.MCP_CONFORMANCE_DIR
const BASELINE = join(import.meta.dirname, 'support', 'mcp-conformance-baseline.yml')

const KEYS = 8

let tp: TestPlatform
let proxy: Server
let proxyUrl: string

beforeAll(async () => {
  if (!suiteDir) return
  tp = await startTestPlatform()
  const tenant = await tp.createTenant()
  // The suite sends a few hundred requests within a minute, over a key's 100 a minute: the proxy
  // takes turns over several keys of the tenant (the limit is per key, and is tested elsewhere).
  const keys: string[] = []
  for (let i = 0; i < KEYS; i++) {
    const res = await tp.json('/api/api-keys', {
      token: tenant.token,
      body: {
        name: `conformance ${i}`,
        kind: 'tool_server',
        environment: 'development',
        scopes: ['content:read', 'content:write'],
        rate_limit_per_minute: 100,
      },
    })
    expect(res.status).toBe(201)
    keys.push(res.body.key as string)
  }
  let turn = 0
  await tp.db.sql`insert into public.sites (tenant_id, name) values (${tenant.tenantId}, 'Conformance site')`
  proxy = createServer(async (req, out) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const headers = new Headers()
    for (const [name, value] of Object.entries(req.headers))
      if (typeof value === 'string' && name !== 'host' && name !== 'content-length') headers.set(name, value)
    headers.set('x-api-key', keys[turn++ % keys.length]!)
    const upstream = await fetch(`${tp.baseUrl}${req.url}`, {
      method: req.method,
      headers,
      body: chunks.length ? Buffer.concat(chunks) : undefined,
    })
    out.writeHead(upstream.status, Object.fromEntries(upstream.headers))
    if (upstream.body) Readable.fromWeb(upstream.body as never).pipe(out)
    else out.end()
  })
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/mcp`
}, setupTimeout())

afterAll(async () => {
  proxy?.close()
  await tp?.close()
})

function run(args: string[]): Promise<{ code: number; output: string }> {
  const bin = join(suiteDir!, 'node_modules', '.bin')
  return new Promise((resolve, reject) => {
    const child = spawn(join(bin, 'node'), [join(bin, 'conformance'), ...args], {
      env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, NO_COLOR: '1' },
    })
    let output = ''
    child.stdout.on('data', (d) => {
      output += d
    })
    child.stderr.on('data', (d) => {
      output += d
    })
    child.on('error', reject)
    child.on('close', (code) => resolve({ code: code ?? 1, output }))
  })
}

describe.skipIf(!suiteDir)('the official MCP conformance suite, server scenarios', () => {
  it('passes every scenario outside the baseline, and every baseline entry still fails', async () => {
    const outDir = await mkdtemp(join(tmpdir(), 'mcp-conformance-'))
    try {
      const version = await run(['--version'])
      const { code, output } = await run([
        'server',
        ...(process.env.MCP_CONFORMANCE_SCENARIO
          ? ['--scenario', process.env.MCP_CONFORMANCE_SCENARIO, '--verbose']
          : []),
        '--url',
        proxyUrl,
        '--expected-failures',
        BASELINE,
        '-o',
        outDir,
      ])
      // One line per scenario for the CI log (docs/mcp.md keeps the table).
      const results: string[] = []
      for (const scenario of (await readdir(outDir, { recursive: true })).filter((f) =>
        f.endsWith('checks.json'),
      )) {
        const checks = JSON.parse(await readFile(join(outDir, scenario), 'utf8')) as { status: string }[]
        const failed = checks.filter((c) => c.status === 'FAILURE').length
        const name = scenario.replace(/^server-/, '').replace(/-\d{4}-\d\d-\d\dT.*$/, '')
        results.push(`${name}: ${failed ? `FAIL (${failed})` : 'pass'}`)
      }
      console.log(`conformance ${version.output.trim()}\n${results.sort().join('\n')}`)
      expect(code, output.slice(-4000)).toBe(0)
      if (!process.env.MCP_CONFORMANCE_SCENARIO) expect(results.length).toBeGreaterThan(20)
    } finally {
      await rm(outDir, { recursive: true, force: true })
    }
  }, 600_000)
})
