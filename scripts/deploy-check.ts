/**
 * `npm run deploy:check`: checks each function as `supabase functions deploy` ships it.
 *
 * 1. Bundle. For every function in supabase/config.toml: its entry point, the local files
 *    reachable from it and its own deno.json, the import map the CLI takes from beside the entry
 *    point (what the CLI uploads), are copied into an empty
 *    directory: no node_modules, no package.json. Every import must be local, `node:` or resolve
 *    to `npm:` (directly or through the import map); jsr: and https: imports are refused (only the
 *    npm registry is reachable here, and one registry keeps deploys reproducible). Then
 *    `deno cache` resolves the whole graph from the npm registry into a fresh DENO_DIR.
 * 2. Boot (with DATABASE_URL). Each copy runs under Deno from cache only, against that database,
 *    with the environment a Supabase project gives (sb_ keys as JSON objects), and must answer
 *    /health (a database round trip).
 * 3. Storage (with DATABASE_URL): the media bucket exists with the settings docs/deploy.md names
 *    (private, 25 MB, the image types), and storage.objects carries its policies (a warning).
 * 4. Jobs (--jobs, with DATABASE_URL on the Supabase schema fixture after the migrations). Every job of
 *    shared/infra/jobs/schedule.ts must be registered in cron.job with its schedule. Then the Vault
 *    holds project_url (the running function) and service_role_key (an sb_secret_ key), each
 *    job's cron command runs as pg_cron would run it, and the request the pg_net stand-in recorded
 *    is sent to the running function: it must answer 200.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import postgres from 'postgres'
import { createLocalEnv } from '../local-platform/local-env.ts'
import { registeredSchedule, scheduledJobs } from '../shared/infra/jobs/schedule.ts'
import { bundleOf, configuredFunctions } from './lib/deploy-bundle.ts'
import { checkMediaBucket } from './lib/media-bucket.ts'

const root = resolve(import.meta.dirname, '..')
const deno = join(root, 'node_modules/.bin/deno')

async function freePort(): Promise<number> {
  return new Promise((done) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number }
      s.close(() => done(port))
    })
  })
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  const exited = new Promise<void>((r) => child.once('exit', () => r()))
  // Its own process group: the npm `deno` launcher runs the real binary as a child.
  process.kill(-child.pid!, 'SIGTERM')
  return exited
}

async function waitForHealth(child: ChildProcess, url: string, output: () => string): Promise<string> {
  const started = Date.now()
  while (Date.now() - started < 60_000) {
    try {
      const res = await fetch(url)
      const body = await res.text()
      return res.status === 200 ? 'ok' : `health ${res.status}: ${body.slice(0, 200)}`
    } catch {
      if (child.exitCode !== null) return `exited with ${child.exitCode}\n${output().slice(-2000)}`
      await new Promise((r) => setTimeout(r, 200))
    }
  }
  return `did not answer within 60 s\n${output().slice(-2000)}`
}

const work = mkdtempSync(join(tmpdir(), 'deploy-check-'))
const denoDir = join(work, 'deno-dir')
const databaseUrl = process.env.DATABASE_URL
const failures: string[] = []
const fail = (msg: string) => {
  failures.push(msg)
  console.log(`FAIL ${msg}`)
}
const children: ChildProcess[] = []
/**
 * The machine's environment (proxy and CA settings reach Deno's npm client), less anything the
 * functions would read as configuration: each run gets only the configuration given here.
 */
const baseEnv = Object.fromEntries(
  Object.entries(process.env).filter(
    ([k]) =>
      !/^(SUPABASE_|DATABASE_|OAUTH_|VAULT_|OUTBOUND_|EMAIL_|METERING_|DENO_DIR$|PUBLIC_URL$|DASHBOARD_URL$|CORS_ORIGINS$|LOG_LEVEL$|MAX_BODY_BYTES$|(LEGACY_)?JWT_SECRET$)/.test(
        k,
      ),
  ),
)

try {
  // 1. Bundles: copy what the CLI uploads, resolve from the npm registry with a fresh DENO_DIR.
  const functions = configuredFunctions(root)
  const copies = new Map<string, string>()
  for (const fn of functions) {
    const importMap = JSON.parse(readFileSync(join(root, fn.importMap), 'utf8')) as {
      imports?: Record<string, string>
      nodeModulesDir?: unknown
    }
    if (importMap.nodeModulesDir === 'manual') {
      fail(`${fn.importMap}: nodeModulesDir "manual" needs a node_modules, which the CLI does not upload`)
    }
    for (const [key, value] of Object.entries(importMap.imports ?? {})) {
      if (!value.startsWith('npm:') && !value.startsWith('./') && !value.startsWith('../')) {
        fail(`${fn.importMap}: "${key}" maps to ${value}; only npm: packages resolve here`)
      }
    }
    const { files, problems } = bundleOf(root, fn.entrypoint, importMap.imports ?? {}, dirname(fn.importMap))
    for (const p of problems) fail(`${fn.name}: ${p}`)
    const dir = join(work, fn.name)
    for (const file of [...files, fn.importMap]) {
      mkdirSync(dirname(join(dir, file)), { recursive: true })
      cpSync(join(root, file), join(dir, file))
    }
    copies.set(fn.name, dir)
    const started = Date.now()
    try {
      execFileSync(deno, ['cache', '--config', fn.importMap, fn.entrypoint], {
        cwd: dir,
        env: { ...baseEnv, DENO_DIR: denoDir, NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
    } catch (err) {
      fail(
        `${fn.name}: deno cache failed\n${String((err as { stderr?: Buffer }).stderr ?? err).slice(-2000)}`,
      )
      continue
    }
    if (existsSync(join(dir, 'node_modules'))) fail(`${fn.name}: Deno made a node_modules in the bundle`)
    console.log(
      `bundle ${fn.name.padEnd(14)} ${String(files.length).padStart(3)} files, resolved from npm in ${Date.now() - started} ms`,
    )
  }

  // 2. Boot each copy from the cache only, against the database.
  if (!databaseUrl) {
    console.log('DATABASE_URL not set: bundles checked, boot and jobs skipped')
  } else {
    const local = await createLocalEnv()
    const secretKey = local.serviceRoleKey // sb_secret_...
    const env = {
      ...baseEnv,
      DENO_DIR: denoDir,
      NO_COLOR: '1',
      LOG_LEVEL: 'warn',
      DATABASE_URL: databaseUrl,
      SUPABASE_URL: 'http://127.0.0.1:54321',
      SUPABASE_JWKS: JSON.stringify({ keys: [local.jwtPublicJwk] }),
      SUPABASE_PUBLISHABLE_KEYS: JSON.stringify({ default: local.anonKey }),
      SUPABASE_SECRET_KEYS: JSON.stringify({ default: secretKey }),
      VAULT_MASTER_KEYS: local.masterKeys,
      PUBLIC_URL: 'https://api.example.com',
      DASHBOARD_URL: 'https://dashboard.example.com',
    }
    const running = new Map<string, number>()
    for (const fn of functions) {
      const dir = copies.get(fn.name)
      if (!dir) continue
      const port = await freePort()
      const child = spawn(deno, ['run', '-A', '--cached-only', '--config', fn.importMap, fn.entrypoint], {
        cwd: dir,
        env: { ...env, PORT: String(port) },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      })
      children.push(child)
      let output = ''
      child.stdout!.on('data', (d) => (output += d))
      child.stderr!.on('data', (d) => (output += d))
      const result = await waitForHealth(child, `http://127.0.0.1:${port}/${fn.name}/health`, () => output)
      console.log(`boot   ${fn.name.padEnd(14)} ${result}`)
      if (result === 'ok') running.set(fn.name, port)
      else fail(`${fn.name}: ${result}`)
    }

    // 3. Jobs: registered by pg_cron; each called through the request pg_net recorded.
    const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} })
    try {
      // The media bucket's settings (docs/deploy.md, step 5).
      const bucket = await checkMediaBucket(sql)
      for (const w of bucket.warnings) console.log(`warn   ${w}`)
      for (const f of bucket.failures) fail(f)
      if (!bucket.failures.length) console.log('bucket media: present with its settings')
      const [{ cron } = { cron: false }] = await sql<{ cron: boolean }[]>`
        select to_regclass('cron.job') is not null and to_regclass('net.http_request_queue') is not null
               and to_regclass('vault.decrypted_secrets') is not null as cron`
      if (!process.argv.includes('--jobs')) {
        console.log(
          'jobs skipped (--jobs: only on the Supabase schema fixture, whose Vault secrets it replaces)',
        )
      } else if (!cron) {
        fail('--jobs: no pg_cron, pg_net or Vault in this database')
      } else {
        const registered = await sql<{ jobname: string; schedule: string; command: string }[]>`
          select jobname, schedule, command from cron.job`
        const [{ extversion } = { extversion: '0' }] = await sql<{ extversion: string }[]>`
          select extversion from pg_extension where extname = 'pg_cron'`
        for (const job of scheduledJobs) {
          const row = registered.find((r) => r.jobname === job.name)
          const command = `select private.invoke_job('${job.path}')`
          // Sub-minute jobs run every minute on a pg_cron older than 1.5 (private.schedule_job).
          const schedule = registeredSchedule(job, extversion)
          if (!row) fail(`job ${job.name}: not registered in cron.job`)
          else if (row.schedule !== schedule || row.command !== command)
            fail(
              `job ${job.name}: registered as ${row.schedule} ${row.command}, expected ${schedule} ${command}`,
            )
        }
        for (const job of scheduledJobs) {
          const fnName = job.path.split('/')[0]!
          const port = running.get(fnName)
          const row = registered.find((r) => r.jobname === job.name)
          if (!port || !row) continue
          // What the guide tells the operator to store, pointing at the running function.
          await sql`delete from vault.secrets where name in ('project_url', 'service_role_key')`
          await sql`select vault.create_secret(${`http://127.0.0.1:${port}`}, 'project_url')`
          await sql`select vault.create_secret(${secretKey}, 'service_role_key')`
          // The job's own command, as pg_cron runs it (as role postgres).
          const [{ id } = { id: null }] = await sql.unsafe<{ id: string }[]>(`${row.command} as id`)
          const [request] = await sql<
            { method: string; url: string; headers: Record<string, string>; body: string }[]
          >`
            select method, url, headers, convert_from(body, 'utf8') as body from net.http_request_queue where id = ${id}`
          await sql`delete from net.http_request_queue where id = ${id}`
          if (!request) {
            fail(`job ${job.name}: pg_net recorded no request`)
            continue
          }
          const res = await fetch(request.url, {
            method: request.method,
            headers: request.headers,
            body: request.body,
          })
          const text = await res.text()
          console.log(
            `job    ${job.name.padEnd(24)} ${request.method} ${new URL(request.url).pathname} -> ${res.status}`,
          )
          if (res.status !== 200) fail(`job ${job.name}: ${res.status} ${text.slice(0, 300)}`)
        }
        await sql`delete from vault.secrets where name in ('project_url', 'service_role_key')`
      }
    } finally {
      await sql.end()
    }
  }
} finally {
  await Promise.all(children.map(stop))
  rmSync(work, { recursive: true, force: true })
}

if (failures.length) {
  console.error(`\n${failures.length} deploy check(s) failed`)
  process.exit(1)
}
console.log('deploy check passed')
