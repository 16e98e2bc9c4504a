/**
 * What writing the request log costs the database per 1,000 keyed reads, three ways (docs/adr/0022):
 *  - before: the table of migration 20261202050000 (a uuid key, three secondary indexes, a
 *    foreign key to tenants), a row per request;
 *  - now: the table of migration 20261207050000 (a bigint identity, two indexes, no foreign key,
 *    partitioned by day), a row per request;
 *  - sampled: a row per key and second with the second's counts (requests, by status class,
 *    latency sum and max) plus one sampled request's detail row.
 * Each writes the rows of 1,000 requests from 20 keys over 5 seconds in 5 batches (as the buffer
 * flushes once a second), in rounds, and reads the backend's CPU time from /proc (the server must
 * run on this machine). Rows written are counted as PostgreSQL counts them.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx benchmarks/request-log-rows.ts
 */
import { readFileSync } from 'node:fs'
import postgres from 'postgres'

const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const ROUNDS = Number(process.env.ROUNDS ?? 20)
const KEYS = 20
const SECONDS = 5
const READS = 1000

const admin = postgres(serverUrl, { max: 1, onnotice: () => {} })
const name = `request_log_rows_${Math.random().toString(36).slice(2, 8)}`
await admin.unsafe(`create database ${name}`)
const url = new URL(serverUrl)
url.pathname = `/${name}`
const sql = postgres(url.toString(), { max: 1, onnotice: () => {} })

const cpuOf = (pid: number) => Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e3

try {
  await sql.unsafe(`
    create table tenants (id uuid primary key);
    create table log_before (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null references tenants (id) on delete cascade,
      at timestamptz not null, request_id text not null, method text not null, path text not null,
      status smallint not null, key_id uuid, user_id uuid, latency_ms integer not null,
      rate_limit text, rate_remaining integer, quota text);
    create index on log_before (tenant_id, at desc, id desc);
    create index on log_before (key_id, at desc, id desc) where key_id is not null;
    create index on log_before (at);
    create table log_now (
      id bigint generated always as identity, tenant_id uuid not null,
      at timestamptz not null, request_id text not null, method text not null, path text not null,
      status smallint not null, key_id uuid, user_id uuid, latency_ms integer not null,
      rate_limit text, rate_remaining integer, quota text, requests integer not null default 1
    ) partition by range (at);
    create table log_now_default partition of log_now default;
    create index on log_now (tenant_id, at desc, id desc);
    create index on log_now (key_id, at desc, id desc) where key_id is not null;
    create table log_seconds (
      id bigint generated always as identity, tenant_id uuid not null, key_id uuid,
      second timestamptz not null, requests integer not null, ok integer not null,
      client_errors integer not null, server_errors integer not null,
      latency_ms_sum bigint not null, latency_ms_max integer not null
    ) partition by range (second);
    create table log_seconds_default partition of log_seconds default;
    create index on log_seconds (tenant_id, second desc, id desc);
    create index on log_seconds (key_id, second desc, id desc) where key_id is not null;
  `)
  const tenant = crypto.randomUUID()
  await sql`insert into tenants (id) values (${tenant})`
  const keys = Array.from({ length: KEYS }, () => crypto.randomUUID())
  const [backend] = await sql<{ pid: number }[]>`select pg_backend_pid() as pid`
  const pid = backend!.pid

  const detailBatch = (table: 'log_before' | 'log_now', second: number, perBatch: number) => {
    const at = Array.from({ length: perBatch }, (_, i) =>
      new Date(Date.now() + second * 1000 + i).toISOString(),
    )
    return sql.unsafe(
      `insert into ${table} (tenant_id, at, request_id, method, path, status, key_id, user_id, latency_ms,
         rate_limit, rate_remaining, quota)
       select * from unnest($1::uuid[], $2::timestamptz[], $3::text[], $4::text[], $5::text[], $6::smallint[],
         $7::uuid[], $8::uuid[], $9::integer[], $10::text[], $11::integer[], $12::text[])`,
      [
        at.map(() => tenant),
        at,
        at.map(() => crypto.randomUUID()),
        at.map(() => 'GET'),
        at.map(() => '/v1/content'),
        at.map(() => 200),
        at.map((_, i) => keys[i % KEYS]!),
        at.map(() => tenant),
        at.map((_, i) => i % 17),
        at.map(() => 'allowed'),
        at.map((_, i) => 900 - i),
        at.map(() => 'counted'),
      ] as never,
    )
  }
  const sampledBatch = async (second: number) => {
    const start = new Date(Date.now() + second * 1000).toISOString()
    await sql`
      insert into log_seconds (tenant_id, key_id, second, requests, ok, client_errors, server_errors,
        latency_ms_sum, latency_ms_max)
      select ${tenant}, k, ${start}::timestamptz, ${READS / SECONDS / KEYS}, ${READS / SECONDS / KEYS}, 0, 0, 80, 16
      from unnest(${keys}::uuid[]) k`
    await detailBatch('log_now', second, KEYS) // one sampled request per key and second
  }
  const rowsWritten = async () => {
    // This backend's own counts reach the view when it next reports (forced at the statement's end).
    await sql`select pg_stat_force_next_flush()`
    await sql`select 1`
    const [row] = await sql<{ n: string }[]>`
      select coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0)::text as n from pg_stat_user_tables
      where relname <> 'tenants'`
    return Number(row!.n)
  }
  const ways = {
    'row per request, before (uuid, 3 indexes, FK)': async () => {
      for (let s = 0; s < SECONDS; s++) await detailBatch('log_before', s, READS / SECONDS)
    },
    'row per request, now (bigint, 2 indexes, by day)': async () => {
      for (let s = 0; s < SECONDS; s++) await detailBatch('log_now', s, READS / SECONDS)
    },
    'per key and second + a sampled row': async () => {
      for (let s = 0; s < SECONDS; s++) await sampledBatch(s)
    },
  }
  const cpu = new Map<string, number[]>()
  const rows = new Map<string, number>()
  for (let round = 0; round < ROUNDS; round++) {
    for (const [label, write] of Object.entries(ways)) {
      const rowsBefore = await rowsWritten()
      const before = cpuOf(pid)
      await write()
      cpu.set(label, [...(cpu.get(label) ?? []), cpuOf(pid) - before])
      if (round === 0) rows.set(label, (await rowsWritten()) - rowsBefore)
    }
  }
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
  console.log(`per 1,000 keyed reads (${KEYS} keys, ${SECONDS} s), median of ${ROUNDS} rounds:`)
  for (const label of Object.keys(ways))
    console.log(
      `  ${label}: ${rows.get(label)} rows written, backend CPU ${Math.round(median(cpu.get(label)!))} µs`,
    )
} finally {
  await sql.end()
  await admin.unsafe(`drop database ${name}`)
  await admin.end()
}
