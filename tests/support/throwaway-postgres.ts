import { execFile } from 'node:child_process'
import { chown, mkdtemp, readdir, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

/**
 * A PostgreSQL cluster of its own (initdb, pg_ctl) on a free loopback port, for tests that stop
 * and start the server under the platform's feet. Needs the server binaries: PG_BIN_DIR, or the
 * newest /usr/lib/postgresql/<version>/bin (Debian's layout). As root the cluster runs as the
 * `postgres` user, since PostgreSQL refuses to run as root.
 */
export interface ThrowawayPostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres (trust auth). */
  url: string
  port: number
  /** Stops the server: `fast` ends every connection with a termination message, `immediate` as a crash would. */
  stop(mode?: 'fast' | 'immediate'): Promise<void>
  /** Starts it again on the same port and data; resolves when it accepts connections. */
  start(): Promise<void>
  /** Stops it and removes its data. */
  destroy(): Promise<void>
}

/** The directory holding initdb and pg_ctl, or null when this machine has no PostgreSQL server. */
export async function findPostgresBinaries(): Promise<string | null> {
  if (process.env.PG_BIN_DIR) return process.env.PG_BIN_DIR
  const root = '/usr/lib/postgresql'
  const versions = await readdir(root).catch(() => [] as string[])
  for (const version of versions.sort((a, b) => Number(b) - Number(a))) {
    const dir = join(root, version, 'bin')
    const found = await readdir(dir).catch(() => [] as string[])
    if (found.includes('initdb') && found.includes('pg_ctl')) return dir
  }
  return null
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port
      s.close(() => resolve(port))
    })
    s.on('error', reject)
  })
}

export async function startThrowawayPostgres(binDir: string): Promise<ThrowawayPostgres> {
  const dir = await mkdtemp(join(tmpdir(), 'pg-throwaway-'))
  const data = join(dir, 'data')
  const log = join(dir, 'server.log')
  const port = await freePort()
  const asRoot = process.getuid?.() === 0
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres'])
    const { stdout: gid } = await run('id', ['-g', 'postgres'])
    await chown(dir, Number(stdout.trim()), Number(gid.trim()))
  }
  const exec = (tool: string, args: string[]) =>
    asRoot
      ? run('runuser', ['-u', 'postgres', '--', join(binDir, tool), ...args])
      : run(join(binDir, tool), args)

  await exec('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync'])
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60`
  const start = async () => {
    await exec('pg_ctl', ['-D', data, '-l', log, '-o', options, '-w', '-t', '30', 'start'])
  }
  const stop = async (mode: 'fast' | 'immediate' = 'fast') => {
    await exec('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '30', 'stop'])
  }
  await start()
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop,
    start,
    async destroy() {
      await stop('immediate').catch(() => {})
      await rm(dir, { recursive: true, force: true })
    },
  }
}
