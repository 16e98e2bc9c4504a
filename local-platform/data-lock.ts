import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * One local platform per data folder. Two `npm start`s on one folder would open one PGlite
 * database from two processes (each overwriting the other's files) and take turns rewriting
 * local-env.json, so the second start refuses while the first holds the folder's lock file.
 *
 * The lock is a file that only one process can create, holding its process id and where it
 * serves. It is removed when the holder stops; a file left by a process that no longer runs (a
 * crash, a kill -9) is taken over.
 */

export interface LockHolder {
  pid: number
  /** Where the holder serves, for the refusal message. */
  url: string
  started_at: string
}

const lockFileName = 'platform.lock'

export class DataFolderLocked extends Error {
  constructor(
    readonly dir: string,
    readonly holder: LockHolder,
  ) {
    super(`The data folder ${dir} is in use by process ${holder.pid} (${holder.url})`)
  }
}

/** True while a process with this id runs (EPERM: it runs, as another user). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function readHolder(path: string): LockHolder | undefined {
  try {
    const holder = JSON.parse(readFileSync(path, 'utf8')) as LockHolder
    return Number.isInteger(holder.pid) && holder.pid > 0 ? holder : undefined
  } catch {
    return undefined
  }
}

/**
 * Takes the data folder's lock for this process, or throws DataFolderLocked naming the process
 * that holds it. Returns the release function (also run when the process exits).
 */
export function lockDataFolder(dir: string, url: string): () => void {
  mkdirSync(dir, { recursive: true })
  const path = join(dir, lockFileName)
  const mine: LockHolder = { pid: process.pid, url, started_at: new Date().toISOString() }
  // Written whole first, then linked into place: a link fails if the lock exists, and a lock
  // another process sees is always complete.
  const draft = `${path}.${process.pid}`
  writeFileSync(draft, `${JSON.stringify(mine)}\n`, { mode: 0o600 })
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        linkSync(draft, path)
        break
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 2) throw err
        const holder = readHolder(path)
        if (holder && running(holder.pid)) throw new DataFolderLocked(dir, holder)
        // Left by a process that has stopped (or unreadable): taken over.
        rmSync(path, { force: true })
      }
    }
  } finally {
    rmSync(draft, { force: true })
  }
  let released = false
  const release = () => {
    if (released) return
    released = true
    process.off('exit', release)
    // Only our own lock is removed, never one another process took over in the meantime.
    if (readHolder(path)?.pid === process.pid) rmSync(path, { force: true })
  }
  process.on('exit', release)
  return release
}

/** Says which process holds the data folder and how to go on, then exits (nothing was touched). */
export function refuseLockedDataFolder(locked: DataFolderLocked): never {
  console.error(
    [
      'Cannot start the platform:',
      `  the data folder ${locked.dir} is in use by process ${locked.holder.pid},`,
      `  a platform serving ${locked.holder.url} since ${locked.holder.started_at}.`,
      "Two platforms on one data folder overwrite each other's database. Stop that one first",
      `(kill ${locked.holder.pid}), or give this one a folder of its own:`,
      '  PLATFORM_DATA_DIR=.data-2 npm start -- --port <n> --db-port <m>',
      'Nothing was started, and the data folder is unchanged.',
    ].join('\n'),
  )
  process.exit(1)
}
