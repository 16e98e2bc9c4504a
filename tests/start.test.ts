import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { portInUse } from '../scripts/lib/ports.ts'

/**
 * `npm start -- --port N --db-port M` as a user runs it: the ports are recorded, so `npm run token`
 * and the printed example commands reach that instance, and the start-up output stays readable.
 * A second start on the same ports refuses clearly and leaves the first one's state alone, and a
 * stopped platform leaves nothing listening.
 *
 * The platform runs as one process (node with tsx's loader), not under npx: npx does not pass a
 * signal on to the program it runs, so signalling npx left the platform listening after the tests.
 */
const run = promisify(execFile)
const dir = mkdtempSync(join(tmpdir(), 'platform-start-'))
const children = new Set<ChildProcess>()

/** Signals the process and waits until it has exited (SIGKILL if it has not after 20 s). */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000)
  await exited
  clearTimeout(timer)
  children.delete(child)
}

afterAll(async () => {
  for (const child of children) await stop(child)
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

const env = { ...process.env, PLATFORM_DATA_DIR: dir, LOG_FORMAT: 'json' }
const startArgs = (port: number, dbPort: number) => [
  '--import',
  'tsx',
  'scripts/start.ts',
  '--memory',
  '--port',
  String(port),
  '--db-port',
  String(dbPort),
]

function start(port: number, dbPort: number): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, startArgs(port, dbPort), { env, stdio: ['ignore', 'pipe', 'pipe'] })
  children.add(child)
  let output = ''
  child.stdout!.on('data', (d) => {
    output += d
  })
  child.stderr!.on('data', (d) => {
    output += d
  })
  return { child, output: () => output }
}

/** A second start: runs to its end; its exit code and everything it said. */
async function startAgain(port: number, dbPort: number): Promise<{ code: number | null; output: string }> {
  return run(process.execPath, startArgs(port, dbPort), { env, timeout: 90_000 }).then(
    (r) => ({ code: 0, output: r.stdout + r.stderr }),
    (err: { code: number | null; stdout: string; stderr: string }) => ({
      code: err.code,
      output: err.stdout + err.stderr,
    }),
  )
}

describe.skipIf(process.env.DATABASE_URL)('npm start with other ports', () => {
  let first: ReturnType<typeof start>
  let port: number
  let dbPort: number

  it('records them for npm run token and prints commands that reach this instance', async () => {
    ;[port, dbPort] = [await freePort(), await freePort()]
    first = start(port, dbPort)
    const started = Date.now()
    while (!first.output().includes('export TOKEN=') && Date.now() - started < 90_000)
      await new Promise((r) => setTimeout(r, 200))
    expect(first.output()).toContain(`http://127.0.0.1:${port}`)
    expect(first.output()).toContain(`127.0.0.1:${dbPort}`)
    await expectTokenWorks(port)

    // Without --tenant, the same user gets a token for the tenant they already have, not a new one.
    const tsx = (script: string, ...args: string[]) =>
      run(process.execPath, ['--import', 'tsx', script, ...args], { env })
    const { stdout: again } = await tsx('scripts/token.ts', '--email', 'ports@example.com')
    const tenants = await fetch(`http://127.0.0.1:${port}/api/tenants`, {
      headers: { authorization: `Bearer ${again.trim()}` },
    }).then((r) => r.json())
    expect(tenants.data.map((t: { name: string }) => t.name)).toEqual(['Ports'])

    // npm run plan lifts the Free plan on the local platform, by the tenant's name.
    const { stdout: change } = await tsx('scripts/plan.ts', '--tenant', 'Ports', 'pro')
    expect(JSON.parse(change)).toMatchObject({ plan: 'pro', previous_plan: 'free' })
    const current = await fetch(`http://127.0.0.1:${port}/api/tenants/current`, {
      headers: { authorization: `Bearer ${again.trim()}` },
    }).then((r) => r.json())
    expect(current.plan).toBe('pro')
  }, 120_000)

  it('refuses a second start on a busy port, says which, and leaves local-env.json alone', async () => {
    const recorded = readFileSync(join(dir, 'local-env.json'), 'utf8')
    const otherPort = await freePort()
    // The embedded database's port taken (the API port free), then the API's (the database's free).
    for (const [api, db, busy] of [
      [otherPort, dbPort, dbPort],
      [port, otherPort, port],
    ] as const) {
      const second = await startAgain(api, db)
      expect(second.code, second.output).toBe(1)
      expect(second.output).toContain(`port ${busy}, for the ${busy === port ? 'API' : 'embedded database'}`)
      expect(second.output).not.toContain('EADDRINUSE')
      expect(readFileSync(join(dir, 'local-env.json'), 'utf8')).toBe(recorded)
    }
    // The first instance still serves, and npm run token still reaches it.
    await expectTokenWorks(port)
  }, 200_000)

  it('stops on SIGTERM and leaves nothing listening', async () => {
    await stop(first.child)
    expect(await portInUse(port)).toBe(false)
    expect(await portInUse(dbPort)).toBe(false)
  }, 60_000)
})

async function expectTokenWorks(port: number) {
  const { stdout: token } = await run(
    process.execPath,
    ['--import', 'tsx', 'scripts/token.ts', '--email', 'ports@example.com', '--tenant', 'Ports'],
    { env },
  )
  const res = await fetch(`http://127.0.0.1:${port}/api/tenants/current`, {
    headers: { authorization: `Bearer ${token.trim()}` },
  })
  expect(res.status, await res.clone().text()).toBe(200)
  expect((await res.json()).name).toBe('Ports')
}
