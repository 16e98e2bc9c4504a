/**
 * A DNS server on a loopback UDP port that answers the same name differently on each query, as a
 * rebinding attacker's authoritative server does with a zero TTL: `answers[0]` for the first A
 * query, `answers[1]` for the second, and the last one from then on. AAAA and other queries get
 * an empty answer. Node and Deno both run it (node:dgram).
 */
import { createSocket } from 'node:dgram'
import { Resolver } from 'node:dns/promises'

export interface RebindingDns {
  port: number
  /** Every A query's name, in order. */
  queries: string[]
  /** A resolver that asks this server only (what the guarded fetch's `resolve` seam takes). */
  resolve: (host: string) => Promise<string[]>
  close: () => Promise<void>
}

/** The question's name and type, and where the question ends. */
function question(msg: Buffer): { name: string; type: number; end: number } {
  const labels: string[] = []
  let at = 12
  while (msg[at]! > 0) {
    labels.push(msg.subarray(at + 1, at + 1 + msg[at]!).toString('latin1'))
    at += msg[at]! + 1
  }
  return { name: labels.join('.'), type: msg.readUInt16BE(at + 1), end: at + 5 }
}

export async function startRebindingDns(answers: string[]): Promise<RebindingDns> {
  const socket = createSocket('udp4')
  const queries: string[] = []
  socket.on('message', (msg, from) => {
    const q = question(msg)
    const records: Buffer[] = []
    if (q.type === 1) {
      queries.push(q.name)
      const address = answers[Math.min(queries.length - 1, answers.length - 1)]!
      const rr = Buffer.alloc(16)
      rr.writeUInt16BE(0xc00c, 0) // the name: a pointer to the question's
      rr.writeUInt16BE(1, 2) // A
      rr.writeUInt16BE(1, 4) // IN
      rr.writeUInt32BE(0, 6) // TTL 0: nobody may cache it
      rr.writeUInt16BE(4, 10)
      Buffer.from(address.split('.').map(Number)).copy(rr, 12)
      records.push(rr)
    }
    const header = Buffer.alloc(12)
    msg.copy(header, 0, 0, 2) // the query's id
    header.writeUInt16BE(0x8180, 2) // a response, recursion desired and available, no error
    header.writeUInt16BE(1, 4)
    header.writeUInt16BE(records.length, 6)
    socket.send(Buffer.concat([header, msg.subarray(12, q.end), ...records]), from.port, from.address)
  })
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve))
  const port = socket.address().port
  const resolver = new Resolver({ timeout: 2_000, tries: 1 })
  resolver.setServers([`127.0.0.1:${port}`])
  return {
    port,
    queries,
    resolve: (host) => resolver.resolve4(host),
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  }
}
