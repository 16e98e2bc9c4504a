import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { portInUse } from '../local-platform/ports.ts'

/**
 * `npm start -- --port N --db-port M` as a user runs it: the ports are recorded, so `npm run token`
 * and the printed example commands reach that instance, and the start-up output stays readable.
 * A second start on the same ports refuses clearly and leaves the first one's state alone, and a
 * stopped platform leaves nothing listening. A second start on the same data folder refuses
 * whatever its ports, naming the process that holds the folder.
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
const startArgs = (port: number, dbPort: number, memory = true) => [
  '--import',
  'tsx',
  'local-platform/start.ts',
  ...(memory ? ['--memory'] : []),
  '--port',
  String(port),
  '--db-port',
  String(dbPort),
]

function start(
  port: number,
  dbPort: number,
  opts: { memory?: boolean; env?: NodeJS.ProcessEnv } = {},
): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, startArgs(port, dbPort, opts.memory), {
    env: opts.env ?? env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
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

/**
 * A second start: runs to its end (a start that does not refuse is stopped after 90 s); its exit
 * code and everything it said.
 */
async function startAgain(
  port: number,
  dbPort: number,
  opts: { memory?: boolean; env?: NodeJS.ProcessEnv } = {},
): Promise<{ code: number | null; output: string }> {
  return run(process.execPath, startArgs(port, dbPort, opts.memory), {
    env: opts.env ?? env,
    timeout: 90_000,
  }).then(
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

describe.skipIf(process.env.DATABASE_URL)('two platforms on one data folder', () => {
  const folder = mkdtempSync(join(tmpdir(), 'platform-lock-'))
  const folderEnv = { ...env, PLATFORM_DATA_DIR: folder }
  afterAll(() => rmSync(folder, { recursive: true, force: true }))

  const waitForStart = async (s: ReturnType<typeof start>) => {
    const started = Date.now()
    while (!s.output().includes('export TOKEN=') && Date.now() - started < 120_000) {
      if (s.child.exitCode !== null) throw new Error(`npm start exited: ${s.output()}`)
      await new Promise((r) => setTimeout(r, 200))
    }
  }
  const tokenFor = async () =>
    (
      await run(
        process.execPath,
        ['--import', 'tsx', 'scripts/token.ts', '--email', 'lock@example.com', '--tenant', 'Lock'],
        {
          env: folderEnv,
        },
      )
    ).stdout.trim()
  const siteName = async (port: number, id: string) => {
    const res = await fetch(`http://127.0.0.1:${port}/v1/content/sites/${id}`, {
      headers: { authorization: `Bearer ${await tokenFor()}` },
    })
    expect(res.status).toBe(200)
    return (await res.json()).name as string
  }

  it('refuses a second start on other ports, names the first, and loses nothing of it', async () => {
    const [port, dbPort, otherPort, otherDbPort] = [
      await freePort(),
      await freePort(),
      await freePort(),
      await freePort(),
    ]
    const first = start(port, dbPort, { memory: false, env: folderEnv })
    await waitForStart(first)
    const recorded = readFileSync(join(folder, 'local-env.json'), 'utf8')

    const second = await startAgain(otherPort, otherDbPort, { memory: false, env: folderEnv })
    expect(second.code, second.output).toBe(1)
    expect(second.output).toContain(`in use by process ${first.child.pid}`)
    expect(second.output).toContain(`http://127.0.0.1:${port}`)
    expect(second.output).not.toContain('Tenant platform running')
    // Neither its ports nor its database were opened, and the first's files are as they were.
    expect(await portInUse(otherPort)).toBe(false)
    expect(await portInUse(otherDbPort)).toBe(false)
    expect(readFileSync(join(folder, 'local-env.json'), 'utf8')).toBe(recorded)
    // The lock names the first.
    expect(JSON.parse(readFileSync(join(folder, 'platform.lock'), 'utf8'))).toMatchObject({
      pid: first.child.pid,
      url: `http://127.0.0.1:${port}`,
    })

    // A site created through the first survives its restart.
    const created = await fetch(`http://127.0.0.1:${port}/v1/content/sites`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await tokenFor()}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Kept site' }),
    })
    expect(created.status, await created.clone().text()).toBe(201)
    const site = (await created.json()).id as string
    await stop(first.child)
    expect(existsSync(join(folder, 'platform.lock'))).toBe(false)

    // A lock left by a process that no longer runs (a crash) does not keep the folder.
    const gone = spawnSync(process.execPath, ['-e', ''])
    writeFileSync(
      join(folder, 'platform.lock'),
      JSON.stringify({ pid: gone.pid, url: 'http://127.0.0.1:1', started_at: new Date().toISOString() }),
    )
    const again = start(port, dbPort, { memory: false, env: folderEnv })
    await waitForStart(again)
    expect(await siteName(port, site)).toBe('Kept site')
    await stop(again.child)
  }, 400_000)
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

describe('another instance of the same platform (--instance-of)', () => {
  it('refuses without DATABASE_URL, says why, and leaves the first one’s folder alone', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'platform-instance-'))
    try {
      const { DATABASE_URL: _ignored, ...withoutDatabase } = process.env
      const second = spawnSync(
        process.execPath,
        [
          '--import',
          'tsx',
          'local-platform/start.ts',
          '--instance-of',
          folder,
          '--port',
          String(await freePort()),
        ],
        { env: { ...withoutDatabase, LOG_FORMAT: 'json' }, encoding: 'utf8', timeout: 60_000 },
      )
      expect(second.status, second.stderr).toBe(1)
      expect(second.stderr).toContain('--instance-of needs DATABASE_URL')
      expect(second.stderr).toContain('one connection at a time')
      // Nothing written: no lock, no keys of its own.
      expect(existsSync(join(folder, 'platform.lock'))).toBe(false)
      expect(existsSync(join(folder, 'local-env.json'))).toBe(false)
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  }, 90_000)
})
