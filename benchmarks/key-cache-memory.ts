/**
 * Memory an instance holds per active key on the hot path (docs/performance.md): the verified-key
 * cache entry and the key's rate-lease state, each loaded the real way (one lookup, one lease
 * statement per key) from a database with 10,000 keys. Run with the collector exposed:
 *   node --expose-gc --import tsx benchmarks/key-cache-memory.ts
 * Heap after a full collection, before and after.
 */

import { sha256Hex } from '../shared/infra/crypto.ts'
import { AuthCache } from '../shared/infra/hot-path/auth-cache.ts'
import { AuthChangeFollower } from '../shared/infra/hot-path/auth-changes.ts'
import { RateLeases } from '../shared/infra/hot-path/rate-leases.ts'
import { createLogger } from '../shared/infra/logger.ts'
import { createTestDatabase } from '../tests/support/database.ts'

const gc = (globalThis as { gc?: () => void }).gc
if (!gc) throw new Error('run with node --expose-gc (see the comment at the top)')
const KEYS = 10_000
const db = await createTestDatabase()
const [user] = await db.sql<
  { id: string }[]
>`insert into auth.users (email) values ('memory@example.com') returning id`
const [tenant] = await db.sql<
  { id: string }[]
>`insert into public.tenants (name) values ('Memory') returning id`
await db.sql`insert into public.tenant_members (tenant_id, user_id, role) values (${tenant!.id}, ${user!.id}, 'owner')`
const secret = (i: number) => `svc_live_memory_${i}`
await db.sql`
  insert into public.api_keys (tenant_id, created_by, name, family, environment, key_prefix, key_hash, scopes, rate_limit_per_minute)
  select ${tenant!.id}, ${user!.id}, 'memory', 'platform', 'production', 'svc_live_',
         encode(sha256(convert_to('svc_live_memory_' || g, 'UTF8')), 'hex'), '{content:read}', 1000
  from generate_series(0, ${KEYS - 1}) g`

const follower = new AuthChangeFollower(db.sql, db.url, createLogger('silent'))
await follower.poll()
const heap = () => {
  gc()
  gc()
  return process.memoryUsage().heapUsed
}
const before = heap()
const cache = new AuthCache(db.sql, follower)
const leases = new RateLeases(db.sql)
const now = new Date()
for (let i = 0; i < KEYS; i++) {
  // As a request does: the hash of the presented key, the cached lookup, one token of its limit.
  const key = await cache.key(sha256Hex(secret(i)), 'platform', now)
  if (!key) throw new Error('key not found')
  await leases.take(`key:${key.keyId}`, key.rateLimit, now)
}
const after = heap()
console.log(
  `${cache.keys.map.size} keys cached, ${cache.misses} lookups, ${leases.stats.leases} leases: ` +
    `${((after - before) / 2 ** 20).toFixed(1)} MiB, ${((after - before) / KEYS).toFixed(0)} bytes per key`,
)
await follower.stop()
await db.close()
process.exit(0)
