/**
 * One platform instance in its own process, for the soak benchmark (benchmarks/suites/soak.ts):
 * the local platform over SOAK_DATABASE_URL with the keys in SOAK_LOCAL_ENV (a JSON file), its
 * scheduler running, served on a free loopback port that it prints as `READY <port>`.
 */
import { readFileSync } from 'node:fs'
import { serve } from '@hono/node-server'
import { functionEnvironment, type LocalEnv } from '@local-platform/local-env.ts'
import { createPlatform, startScheduler } from '@local-platform/server.ts'
import { isPostgresWriteRace } from '@shared/infra/db.ts'

const localEnv = JSON.parse(readFileSync(process.env.SOAK_LOCAL_ENV!, 'utf8')) as LocalEnv
const env = {
  ...functionEnvironment(localEnv, process.env.SOAK_DATABASE_URL!),
  LOG_LEVEL: 'warn',
  DATABASE_POOL_MAX: '5',
  OUTBOUND_ALLOW_LOOPBACK: 'true',
  OUTBOUND_ALLOW_HTTP: 'true',
}
const platform = await createPlatform({ env, localEnv })
const stopScheduler = startScheduler(platform, (path, err) =>
  platform.deps.logger.warn('scheduled job failed', { job: path, error: String(err) }),
)
process.on('uncaughtException', (err) => {
  if (isPostgresWriteRace(err)) return
  console.error(err)
  process.exit(1)
})
const server = serve(
  {
    port: 0,
    hostname: '127.0.0.1',
    fetch: (req, info) => platform.fetch(req, { remoteAddr: info.incoming.socket.remoteAddress }),
  },
  (info) => process.stdout.write(`READY ${info.port}\n`),
)
process.on('SIGTERM', async () => {
  stopScheduler()
  server.close()
  await platform.close()
  process.exit(0)
})
