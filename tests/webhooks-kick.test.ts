// The Supabase dispatch kick (migration 20261121050000_outbox_kick.sql): a trigger on the outbox
// that queues a pg_net request to the dispatch job. pg_net is not installed here, so a stand-in
// net.http_post with pg_net's own constraint (the request queue's url is NOT NULL) and a
// stand-in Vault view take its place, and the trigger is created as the migration does where
// pg_net exists.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestPlatform, type TestPlatform, type TestTenant } from './support/platform.ts'

let tp: TestPlatform
let t: TestTenant

const keyBody = { name: 'k', environment: 'production', scopes: ['content:read'], rate_limit_per_minute: 60 }

beforeAll(async () => {
  tp = await startTestPlatform()
  t = await tp.createTenant()
  await tp.db.sql.unsafe(`
    create schema net;
    create table net.http_request_queue (id bigserial primary key, url text not null, headers jsonb);
    create function net.http_post(url text, body jsonb, params jsonb default '{}', headers jsonb default '{}',
                                  timeout_milliseconds int default 5000) returns bigint
    language sql as $$ insert into net.http_request_queue (url, headers) values (url, headers) returning id $$;
    create schema vault;
    create table vault.decrypted_secrets (name text primary key, decrypted_secret text);
    create trigger event_outbox_kick_dispatch after insert on public.event_outbox
      for each statement execute function private.kick_webhook_dispatch();
  `)
})
afterAll(async () => {
  await tp?.close()
})

describe('outbox dispatch kick (pg_net)', () => {
  it('never fails the write that fired it: without the Vault secrets the change still commits', async () => {
    const res = await tp.json('/api/api-keys', { token: t.token, body: keyBody })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    const events = await tp.db.sql`select 1 from public.event_outbox where tenant_id = ${t.tenantId}`
    expect(events).toHaveLength(1)
    expect(await tp.db.sql`select 1 from net.http_request_queue`).toHaveLength(0)
  })

  it('queues one request to the dispatch job per outbox write once the secrets are set', async () => {
    await tp.db.sql`insert into vault.decrypted_secrets values
      ('project_url', 'https://ref.supabase.co'), ('service_role_key', 'service-key')`
    const res = await tp.json('/api/api-keys', { token: t.token, body: { ...keyBody, name: 'k2' } })
    expect(res.status).toBe(201)
    const queued = await tp.db.sql`select url, headers from net.http_request_queue`
    expect(queued).toEqual([
      {
        url: 'https://ref.supabase.co/functions/v1/webhooks/jobs/dispatch',
        headers: { 'Content-Type': 'application/json', apikey: 'service-key' },
      },
    ])
  })
})
