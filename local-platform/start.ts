/**
 * `npm start`: the whole platform in one process on one port.
 *   - the embedded database (PGlite, kept in .data/pgdata) on its own Postgres port, or DATABASE_URL
 *   - migrations applied, a demo tenant and user seeded on first start
 *   - every function at /functions/v1/<name>/... and at the spec's public paths
 *   - the dashboard at /dashboard/ and Supabase Auth's password endpoints at /auth/v1/
 * Flags: --memory (throwaway in-memory database), --port N, --db-port N.
 * One platform runs per data folder (.data, or PLATFORM_DATA_DIR): a second start on it refuses.
 * `--instance-of <folder>` starts another instance of the platform whose data folder that is: its
 * keys (signing, vault, API keys) from the folder's local-env.json, the same DATABASE_URL, its own
 * port; it neither locks nor writes the folder. It needs DATABASE_URL (PostgreSQL): the embedded
 * PGlite is one process's database and serves one connection at a time.
 */

import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { buildDashboard } from '@dashboard/build.ts'
import { applyMigrations } from '@shared/infra/migrations.ts'
import { connectDatabase, isPostgresWriteRace } from '../shared/infra/db.ts'
import { DataFolderLocked, lockDataFolder, refuseLockedDataFolder } from './data-lock.ts'
import { ensureUserAndTenant, issueAccessToken } from './dev-identity.ts'
import { startEmbeddedPostgres } from './embedded-postgres.ts'
import { listenPlatform } from './listen.ts'
import {
  dataDir,
  functionEnvironment,
  loadOrCreateLocalEnv,
  readLocalEnv,
  saveLocalEnv,
} from './local-env.ts'
import { busyPorts, refuseBusyPorts } from './ports.ts'
import { createPlatform, startScheduler } from './server.ts'

const { values: args } = parseArgs({
  options: {
    memory: { type: 'boolean', default: false },
    port: { type: 'string' },
    'db-port': { type: 'string' },
    'instance-of': { type: 'string' },
  },
})

const instanceOf = args['instance-of']
if (instanceOf !== undefined) {
  if (!process.env.DATABASE_URL) {
    console.error(`--instance-of needs DATABASE_URL: another instance shares the first one's PostgreSQL database.
The embedded PGlite is not shared (one connection at a time): start the first instance with
DATABASE_URL=postgres://... npm start, then DATABASE_URL=<the same> npm start -- --instance-of ${instanceOf} --port <free port>.`)
    process.exit(1)
  }
  // The first instance's folder is read only: its lock and local-env.json stay the first's.
  process.env.PLATFORM_DATA_DIR = instanceOf
}
const storedEnv = instanceOf !== undefined ? readLocalEnv() : await loadOrCreateLocalEnv()
const apiPort = Number(args.port ?? process.env.PORT ?? storedEnv.apiPort)
const dbPort = Number(args['db-port'] ?? process.env.DB_PORT ?? storedEnv.dbPort)
const localEnv = { ...storedEnv, apiPort, dbPort }

// Both ports are checked before anything starts: a second `npm start` must neither open the data
// folder's database nor touch local-env.json, which the instance already running depends on.
const busy = await busyPorts([
  { port: apiPort, what: 'the API (--port)' },
  ...(process.env.DATABASE_URL ? [] : [{ port: dbPort, what: 'the embedded database (--db-port)' }]),
])
if (busy.length > 0) refuseBusyPorts(busy)
// One platform per data folder (whatever its ports or database): a second one would open the same
// database files and rewrite local-env.json under the first. The lock goes when this process ends.
try {
  if (instanceOf === undefined) lockDataFolder(dataDir(), `http://127.0.0.1:${apiPort}`)
} catch (err) {
  if (err instanceof DataFolderLocked) refuseLockedDataFolder(err)
  throw err
}
// A terminal gets one readable line per request; pipes and files get JSON (or say LOG_FORMAT=json).
process.env.LOG_FORMAT ??= process.stdout.isTTY ? 'pretty' : 'json'

let databaseUrl = process.env.DATABASE_URL
let embedded: Awaited<ReturnType<typeof startEmbeddedPostgres>> | undefined
if (!databaseUrl) {
  embedded = await startEmbeddedPostgres({
    dataDir: args.memory ? undefined : join(dataDir(), 'pgdata'),
    port: dbPort,
  })
  databaseUrl = embedded.url
}

const migrationSql = connectDatabase(databaseUrl, 1)
const applied = await applyMigrations(migrationSql)
// Seed the demo tenant once; the token is fresh on every start.
const demo = await ensureUserAndTenant(migrationSql, 'demo@example.com', 'Demo tenant')
await migrationSql.end()

// The dashboard's static files (a fraction of a second with esbuild), served at /dashboard/.
const dashboard = await buildDashboard()

const env = functionEnvironment(localEnv, databaseUrl)
const platform = await createPlatform({ env, localEnv })
const server = await listenPlatform(platform, { port: apiPort }).then(
  (listening) => listening.server,
  async (err: NodeJS.ErrnoException) => {
    // Taken between the check above and now.
    await platform.close()
    await embedded?.stop()
    if (err.code === 'EADDRINUSE') refuseBusyPorts([{ port: apiPort, what: 'the API (--port)' }])
    throw err
  },
)
// Only now, serving: remember this run's ports, so `npm run token` and the commands printed
// below reach this instance.
if (instanceOf === undefined) saveLocalEnv(localEnv)
const stopScheduler = startScheduler(platform, (path, err) =>
  platform.deps.logger.warn('scheduled job failed', { job: path, error: String(err) }),
)

const base = `http://127.0.0.1:${apiPort}`
const token = await issueAccessToken(
  localEnv,
  { userId: demo.userId, email: 'demo@example.com', tenantId: demo.tenantId },
  { issuer: `${base}/auth/v1`, expiresInSeconds: 3600 },
)
const { OUTBOUND_ALLOW_LOOPBACK: allowLoopback, OUTBOUND_ALLOW_HTTP: allowHttp } = platform.deps.config
const outboundLine =
  allowLoopback || allowHttp
    ? `${[allowLoopback && 'loopback (127.0.0.1)', allowHttp && 'plain http'].filter(Boolean).join(' and ')} targets allowed for webhooks, MCP servers and feeds (local default; production refuses them)`
    : 'loopback and plain http targets refused, as in production'
console.log(`
Tenant platform running at ${base}
  database     ${embedded ? `embedded PGlite ${args.memory ? '(in memory)' : `(${join(dataDir(), 'pgdata')})`} at ${embedded.url}` : 'DATABASE_URL'}
  migrations   ${applied.length ? `${applied.length} applied` : 'up to date'}
  dashboard    ${base}/dashboard/   (${(dashboard.gzipBytes / 1024).toFixed(0)} KiB gzip; sign up, or npm run set-password -- --email demo@example.com)
  API docs     ${base}/docs
  dev mailbox  ${base}/_dev/mailbox
  JWKS         ${base}/auth/v1/.well-known/jwks.json
  outbound     ${outboundLine}
  model APIs   OpenAI-compatible ${platform.deps.config.OPENAI_BASE_URL}, Anthropic ${platform.deps.config.ANTHROPIC_BASE_URL}
               (OPENAI_BASE_URL, ANTHROPIC_BASE_URL; an OpenAI credential's own base_url wins)

Demo user demo@example.com, tenant ${demo.tenantId}. Access token (1 hour):
export TOKEN=${token}

Try:
  curl -s -X POST ${base}/api/api-keys -H "Authorization: Bearer $TOKEN" -H 'content-type: application/json' \\
    -d '{"name":"demo","environment":"production","scopes":["content:read"],"rate_limit_per_minute":60}'
  curl -s ${base}/v1/content -H "Authorization: Bearer <the svc_live_... key from above>"
  npm run token -- --email you@example.com                        # your own user and tenant
  npm run plan -- --tenant "Demo tenant" pro                       # lift the Free plan's quotas
The README's "A first session" goes on from here: a tool-server key and one MCP call.
Everything this platform serves is listed at ${base}/
`)

const shutdown = async () => {
  stopScheduler()
  server.close()
  await platform.close()
  await embedded?.stop()
  process.exit(0)
}
// A database restart can trip a known postgres.js race (isPostgresWriteRace): survive that one
// error; anything else uncaught still ends the process, as by default.
process.on('uncaughtException', (err) => {
  if (isPostgresWriteRace(err)) {
    platform.deps.logger.warn('database connection closed under a write (postgres.js race); continuing')
    return
  }
  console.error(err)
  process.exit(1)
})
process.on('SIGINT', shutdown)
process.on('SIGTERM', shutdown)
