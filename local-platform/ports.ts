import { createServer } from 'node:net'

export interface NamedPort {
  port: number
  /** What the port is for, as the user would pass it ("the API (--port)"). */
  what: string
}

/** True when something already listens on host:port (binding it fails with EADDRINUSE). */
export function portInUse(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', (err: NodeJS.ErrnoException) =>
      err.code === 'EADDRINUSE' ? resolve(true) : reject(err),
    )
    probe.listen(port, host, () => probe.close(() => resolve(false)))
  })
}

export async function busyPorts(ports: NamedPort[], host = '127.0.0.1'): Promise<NamedPort[]> {
  const busy: NamedPort[] = []
  for (const p of ports) if (await portInUse(p.port, host)) busy.push(p)
  return busy
}

/** Says which ports are taken and how to go on, then exits (nothing was started or written). */
export function refuseBusyPorts(busy: NamedPort[]): never {
  const lines = busy.map((p) => `  port ${p.port}, for ${p.what}, is already in use`)
  console.error(
    [
      'Cannot start the platform:',
      ...lines,
      'Another `npm start` may be running (stop it first), or choose free ports:',
      '  npm start -- --port <n> --db-port <m>',
      'Nothing was started, and local-env.json in the data folder is unchanged.',
    ].join('\n'),
  )
  process.exit(1)
}
