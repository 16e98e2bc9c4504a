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
    expect((await res.json()).name).toBe('Ports')
  }, 120_000)
})
