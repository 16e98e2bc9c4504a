import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'

/**
 * `npm start -- --port N --db-port M` as a user runs it: the ports are recorded, so `npm run token`
 * and the printed example commands reach that instance, and the start-up output stays readable.
 */
const run = promisify(execFile)
const dir = mkdtempSync(join(tmpdir(), 'platform-start-'))
let child: ChildProcess | undefined

afterAll(() => {
  child?.kill('SIGTERM')
  rmSync(dir, { recursive: true, force: true })
})

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port
      s.close(() => resolve(port))
    })
  })
}

describe.skipIf(process.env.DATABASE_URL)('npm start with other ports', () => {
  it('records them for npm run token and prints commands that reach this instance', async () => {
    const [port, dbPort] = [await freePort(), await freePort()]
    const env = { ...process.env, PLATFORM_DATA_DIR: dir, LOG_FORMAT: 'json' }
    child = spawn(
      'npx',
      ['tsx', 'scripts/start.ts', '--memory', '--port', String(port), '--db-port', String(dbPort)],
      {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    let output = ''
    child.stdout!.on('data', (d) => {
      output += d
    })
    child.stderr!.on('data', (d) => {
      output += d
    })
    const started = Date.now()
    while (!output.includes('export TOKEN=') && Date.now() - started < 90_000)
      await new Promise((r) => setTimeout(r, 200))
    expect(output).toContain(`http://127.0.0.1:${port}`)
    expect(output).toContain(`127.0.0.1:${dbPort}`)

    const { stdout: token } = await run(
      'npx',
      ['tsx', 'scripts/token.ts', '--email', 'ports@example.com', '--tenant', 'Ports'],
      {
        env,
      },
    )
    const res = await fetch(`http://127.0.0.1:${port}/api/tenants/current`, {
      headers: { authorization: `Bearer ${token.trim()}` },
    })
    expect(res.status, await res.clone().text()).toBe(200)
    const tenant = await res.json()
    expect(tenant.name).toBe('Ports')

    // Without --tenant, the same user gets a token for the tenant they already have, not a new one.
    const { stdout: again } = await run('npx', ['tsx', 'scripts/token.ts', '--email', 'ports@example.com'], {
      env,
    })
    const tenants = await fetch(`http://127.0.0.1:${port}/api/tenants`, {
      headers: { authorization: `Bearer ${again.trim()}` },
    }).then((r) => r.json())
    expect(tenants.data.map((t: { id: string }) => t.id)).toEqual([tenant.id])

    // npm run plan lifts the Free plan on the local platform, by the tenant's name.
    const { stdout: change } = await run('npx', ['tsx', 'scripts/plan.ts', '--tenant', 'Ports', 'pro'], {
      env,
    })
    expect(JSON.parse(change)).toMatchObject({ id: tenant.id, plan: 'pro', previous_plan: 'free' })
    const current = await fetch(`http://127.0.0.1:${port}/api/tenants/current`, {
      headers: { authorization: `Bearer ${again.trim()}` },
    }).then((r) => r.json())
    expect(current.plan).toBe('pro')
  }, 120_000)
})
