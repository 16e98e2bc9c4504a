import { applyMigrations } from '@shared/infra/migrations.ts'
import { Hono } from 'hono'
import postgres from 'postgres'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Sql } from '../shared/infra/db.ts'
import { toErrorResponse } from '../shared/infra/http/error-response.ts'
import { createTestDatabase } from './support/database.ts'
import { startTestPlatform, type TestPlatform, type TestTenant } from './support/platform.ts'

let tp: TestPlatform
let a: TestTenant

beforeAll(async () => {
  tp = await startTestPlatform()
  a = await tp.createTenant()
})
afterAll(() => tp.close())

const b64url = (s: string) => btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')

describe('malformed input never reaches the database as a 500', () => {
  it.each([
    ['a non-uuid id', `2026-01-01T00:00:00.000Z|${'-'.repeat(36)}`],
    ['year 0', `0000-01-01T00:00:00.000Z|${crypto.randomUUID()}`],
    ['an extended year', `+275760-09-13T00:00:00.000Z|${crypto.randomUUID()}`],
    ['a non-ISO date', `1|${crypto.randomUUID()}`],
  ])('refuses a cursor with %s (400 naming cursor)', async (_label, raw) => {
    const res = await tp.json(`/api/api-keys?cursor=${b64url(raw)}`, { token: a.token })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'cursor' }] })
  })

  it('refuses text the database cannot store (NUL) with 400, and creates nothing', async () => {
    const body = { environment: 'production', scopes: ['content:read'], rate_limit_per_minute: 10 }
    const res = await tp.json('/api/api-keys', { token: a.token, body: { ...body, name: 'a\u0000b' } })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'name' }] })
    const [row] = await tp.db.sql<{ n: number }[]>`
      select count(*)::int as n from public.api_keys where tenant_id = ${a.tenantId}`
    expect(row?.n).toBe(0)
  })

  async function statusFor(err: unknown) {
    expect(err).toBeInstanceOf(postgres.PostgresError)
    const app = new Hono()
    app.get('/', () => {
      throw err
    })
    app.onError((e, c) => toErrorResponse(c, e, () => {}))
    const res = await app.request('/')
    return { status: res.status, body: await res.json() }
  }

  it('turns the database refusing a NUL in text into 400 VALIDATION_ERROR', async () => {
    const err = await tp.db.sql`select ${'a\u0000b'}::text`.catch((e: unknown) => e)
    expect(await statusFor(err)).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } })
  })
})

/**
 * Supabase gives anon and authenticated ALL on every new table and sequence in public
 * (`alter default privileges ... grant all`), which would silently widen the migrations' explicit
 * (column) grants and expose the tables through PostgREST. A database with those defaults must
 * end up with exactly the privileges of a plain one.
 */
describe('migrations on a database with Supabase default privileges', () => {
  let supabaseLike: { sql: Sql; close(): Promise<void> }

  beforeAll(async () => {
    supabaseLike = await createTestDatabase({ migrate: false })
    await supabaseLike.sql.unsafe(`
      do $$ begin
        if not exists (select 1 from pg_roles where rolname = 'anon') then create role anon nologin noinherit; end if;
        if not exists (select 1 from pg_roles where rolname = 'authenticated') then create role authenticated nologin noinherit; end if;
        if not exists (select 1 from pg_roles where rolname = 'service_role') then create role service_role nologin noinherit bypassrls; end if;
      end $$;
      alter default privileges in schema public grant all on tables to anon, authenticated, service_role;
      alter default privileges in schema public grant all on sequences to anon, authenticated, service_role;
    `)
    await applyMigrations(supabaseLike.sql)
  })
  afterAll(() => supabaseLike?.close())

  const grants = (sql: Sql) => sql<{ g: string }[]>`
    select grantee || ' ' || privilege_type || ' ' || table_name as g
    from information_schema.role_table_grants
    where table_schema = 'public' and grantee in ('anon', 'authenticated')
    union
    select grantee || ' ' || privilege_type || ' ' || table_name || '.' || column_name
    from information_schema.role_column_grants
    where table_schema = 'public' and grantee in ('anon', 'authenticated')
    union
    select grantee || ' ' || privilege_type || ' sequence ' || object_name
    from information_schema.role_usage_grants
    where object_schema = 'public' and grantee in ('anon', 'authenticated')
    order by 1`

  it('grants anon and authenticated nothing beyond the explicit grants', async () => {
    const plain = (await grants(tp.db.sql)).map((r) => r.g)
    const widened = (await grants(supabaseLike.sql)).map((r) => r.g)
    expect(widened.filter((g) => !plain.includes(g))).toEqual([])
  })

  it('keeps api_keys ownership, scopes and hash out of a tenant admin’s reach', async () => {
    const [row] = await supabaseLike.sql<{ owner: boolean; scopes: boolean; name: boolean }[]>`
      select has_column_privilege('authenticated', 'public.api_keys', 'created_by', 'UPDATE') as owner,
             has_column_privilege('authenticated', 'public.api_keys', 'scopes', 'UPDATE') as scopes,
             has_column_privilege('authenticated', 'public.api_keys', 'name', 'UPDATE') as name`
    expect(row).toEqual({ owner: false, scopes: false, name: true })
  })
})
