/**
 * The DNS-rebinding check as a script, for the runtimes the platform runs on (Deno on Supabase,
 * Node locally): a loopback DNS server answers a public address to the first query and 127.0.0.1
 * after (to a made-up name: Deno's resolver answers `localhost` itself); the guarded fetch must refuse, and the loopback HTTP server must see no request. Then a
 * name only that server knows (answered 127.0.0.1, loopback allowed) must be reached, which only
 * happens if the connection used the checked lookup. Prints one JSON line.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createGuardedFetch, defaultOutboundPolicy } from '@shared/infra/outbound.ts'
import { startRebindingDns } from './rebinding-dns.ts'

let hits = 0
const server = createServer((_req, res) => {
  hits++
  res.end('internal secret')
})
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
const port = (server.address() as AddressInfo).port

const rebinding = await startRebindingDns(['93.184.216.34', '127.0.0.1'])
const guarded = createGuardedFetch(
  { ...defaultOutboundPolicy, allowHttp: true, timeoutMs: 5_000 },
  { resolve: rebinding.resolve },
)
let refused = ''
try {
  const res = await guarded(`http://rebind.test:${port}/latest/meta-data/`)
  refused = `answered ${res.status}: ${await res.text()}`
} catch (err) {
  refused = `${(err as Error).name}: ${(err as Error).message}`
}
const rebindingQueries = rebinding.queries.length
const hitsAfterRebinding = hits
await rebinding.close()

const onlyOurs = await startRebindingDns(['127.0.0.1'])
const allowed = createGuardedFetch(
  { ...defaultOutboundPolicy, allowHttp: true, allowLoopback: true, timeoutMs: 5_000 },
  { resolve: onlyOurs.resolve },
)
let pinned = ''
try {
  pinned = await (await allowed(`http://pinned.rebind.test:${port}/`)).text()
} catch (err) {
  pinned = `${(err as Error).name}: ${(err as Error).message}`
}
await onlyOurs.close()
server.close()
console.log(JSON.stringify({ refused, hitsAfterRebinding, rebindingQueries, pinned }))
// Pooled keep-alive sockets would hold the process open for a few seconds.
process.exit(0)
