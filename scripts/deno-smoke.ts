/**
 * Boots every function's Deno entry (functions/<name>/index.ts) under Deno with its own deno.json and
 * checks that it answers: /health (a database round trip through postgres.js on Deno) and its
 * OpenAPI document. Uses DATABASE_URL, or starts the embedded database.
 */
import { spawn } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { createServer } from 'node:net'
import { applyMigrations } from '@shared/infra/migrations.ts'
import { createLocalEnv, functionEnvironment } from '../local-platform/local-env.ts'
import { connectDatabase } from '../shared/infra/db.ts'

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number }
      s.close(() => resolve(port))
    })
  })
}

let databaseUrl = process.env.DATABASE_URL
let stopDb = async () => {}
if (!databaseUrl) {
  const { startEmbeddedPostgres } = await import('../local-platform/embedded-postgres.ts')
  const db = await startEmbeddedPostgres({ port: 0 })
  databaseUrl = db.url
  stopDb = db.stop
}
const sql = connectDatabase(databaseUrl, 1)
await applyMigrations(sql)
await sql.end()

const env = functionEnvironment(await createLocalEnv(), databaseUrl)
const names = readdirSync('functions')
  .filter((n) => existsSync(`functions/${n}/index.ts`))
  .sort()
let failures = 0
for (const name of names) {
  const port = await freePort()
  const child = spawn(
    'node_modules/.bin/deno',
    ['run', '-A', '--config', `functions/${name}/deno.json`, `functions/${name}/index.ts`],
    {
      env: { ...env, PORT: String(port), LOG_LEVEL: 'warn', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group: the npm `deno` launcher runs the real binary as a child, and
      // both must stop when we stop it.
      detached: true,
    },
  )
  let output = ''
  child.stdout.on('data', (d) => (output += d))
  child.stderr.on('data', (d) => (output += d))
  const started = Date.now()
  let result = 'did not answer within 60 s'
  while (Date.now() - started < 60_000) {
    try {
      const health = await fetch(`http://127.0.0.1:${port}/${name}/health`)
      const doc = await fetch(`http://127.0.0.1:${port}/functions/v1/${name}/openapi.json`)
      const body = (await doc.json()) as { openapi?: string }
      result =
        health.status === 200 && body.openapi === '3.1.0'
          ? 'ok'
          : `health ${health.status}, openapi ${doc.status}`
      break
    } catch {
      if (child.exitCode !== null) {
        result = `exited with ${child.exitCode}`
        break
      }
      await new Promise((r) => setTimeout(r, 250))
    }
  }
  if (child.exitCode === null) {
    const exited = new Promise((r) => child.once('exit', r))
    process.kill(-child.pid!, 'SIGTERM')
    await exited
  }
  console.log(`deno ${name.padEnd(20)} ${result}`)
  if (result !== 'ok') {
    failures++
    console.log(output.slice(-2000))
  }
}
await stopDb()
if (failures) {
  console.error(`${failures} function(s) failed to boot under Deno`)
  process.exit(1)
}
