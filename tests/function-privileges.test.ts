import postgres from 'postgres'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from './support/database.ts'

/**
 * What the API roles may do in the database, held to written lists: which functions anon and
 * authenticated can execute (through a grant of their own or PUBLIC's), and which columns they
 * can read. Runs on the test database (PGlite or PostgreSQL) and, in CI, on the Supabase schema
 * fixture (SHARED_TEST_DATABASE_URL), where Supabase's own default privileges apply.
 */

/** Functions in schemas public and private that a role may execute, as "schema.name". */
const executable: Record<'anon' | 'authenticated', string[]> = {
  anon: [],
  authenticated: [
    // RLS policies call these as the requesting user.
    'private.has_tenant_role',
    'private.user_tenant_ids',
    // Tenant routes call these inside withTenant (security definer, each checks the caller).
    'private.accept_invitation',
    'private.create_tenant',
    // The job engine: queues a job for the caller's own tenant, in the caller's transaction.
    'private.enqueue_job',
    'private.is_member_email',
    'private.preview_invitation',
    'private.record_event',
    'private.set_active_tenant',
    'private.tenant_member_list',
  ],
}

/** Tables anon may read any column of (the public catalogs); nothing else. */
const anonReadable = ['public.plan_quotas', 'public.products', 'public.providers']

/**
 * Secret material authenticated must never read. Columns named like a secret (hash, token,
 * ciphertext, encrypted, lease) are refused unless listed in `authenticatedSecretLike` with why.
 */
const secretLike = /(hash|token|ciphertext|encrypted|lease|secret)/
// Key and token hashes and secret ciphertexts are hidden from members by column grants
// (tests/secret-columns.test.ts); what remains are names that only look secret.
const authenticatedSecretLike: Record<string, string> = {
  'public.webhook_subscriptions.previous_secret_expires_at': 'a date',
  'public.commerce_stores.secret_updated_at': 'a date',
  'public.jobs.lease_until': 'a date',
  'public.integration_connections.token_expires_at': 'a date',
  'public.webhook_deliveries.lease_id': "a dispatcher's claim id",
  'public.assistant_conversations.input_tokens': 'a count of model tokens',
  'public.assistant_conversations.output_tokens': 'a count of model tokens',
  'public.assistant_turns.input_tokens': 'a count of model tokens',
  'public.assistant_turns.output_tokens': 'a count of model tokens',
}

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase()
})
afterAll(() => db.close())

async function executableBy(role: string): Promise<string[]> {
  const rows = await db.sql<{ fn: string }[]>`
    select distinct n.nspname || '.' || p.proname as fn
    from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname in ('public', 'private') and has_function_privilege(${role}, p.oid, 'EXECUTE')
    order by 1`
  return rows.map((r) => r.fn)
}

async function readableColumns(role: string): Promise<string[]> {
  const rows = await db.sql<{ col: string }[]>`
    select n.nspname || '.' || c.relname || '.' || a.attname as col
    from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
    where n.nspname in ('public', 'private') and c.relkind in ('r', 'v', 'm', 'p', 'f')
      and has_column_privilege(${role}, c.oid, a.attnum, 'SELECT')
    order by 1`
  return rows.map((r) => r.col)
}

describe('function privileges', () => {
  it.each(['anon', 'authenticated'] as const)('%s executes exactly the listed functions', async (role) => {
    expect(await executableBy(role)).toEqual([...executable[role]].sort())
  })

  it('no function in schema private is executable by PUBLIC', async () => {
    const rows = await db.sql<{ fn: string }[]>`
      select p.oid::regprocedure::text as fn
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'private'
        and (p.proacl is null
             or exists (select 1 from aclexplode(p.proacl) a where a.grantee = 0 and a.privilege_type = 'EXECUTE'))`
    expect(rows.map((r) => r.fn)).toEqual([])
  })

  it('a function that the migration role creates later starts without PUBLIC', async () => {
    await db.sql.begin(async (tx) => {
      await tx`create function private.privileges_probe() returns int language sql as 'select 1'`
      const [row] = await tx<{ public_can: boolean }[]>`
        select exists (select 1 from pg_proc p, aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) a
                       where p.oid = 'private.privileges_probe()'::regprocedure
                         and a.grantee = 0 and a.privilege_type = 'EXECUTE') as public_can`
      expect(row!.public_can).toBe(false)
      await tx`rollback and chain`
    })
  })
})

describe('column privileges', () => {
  it('anon reads only the public catalogs', async () => {
    const tables = [
      ...new Set((await readableColumns('anon')).map((c) => c.split('.').slice(0, 2).join('.'))),
    ]
    expect(tables).toEqual(anonReadable)
  })

  it('authenticated reads no secret-like column except the listed ones', async () => {
    const secretish = (await readableColumns('authenticated')).filter((c) =>
      secretLike.test(c.split('.')[2]!),
    )
    expect(secretish).toEqual(Object.keys(authenticatedSecretLike).sort())
  })

  it('authenticated reads no table in schema private', async () => {
    expect((await readableColumns('authenticated')).filter((c) => c.startsWith('private.'))).toEqual([])
  })
})

describe('the access-token hook', () => {
  it('is executable by Supabase Auth (supabase_auth_admin) where that role exists, and by no API role', async () => {
    const [row] = await db.sql<{ auth_admin: boolean | null; anon: boolean; authenticated: boolean }[]>`
      select case when exists (select 1 from pg_roles where rolname = 'supabase_auth_admin')
                  then has_function_privilege('supabase_auth_admin', 'public.custom_access_token_hook(jsonb)', 'EXECUTE') end as auth_admin,
             has_function_privilege('anon', 'public.custom_access_token_hook(jsonb)', 'EXECUTE') as anon,
             has_function_privilege('authenticated', 'public.custom_access_token_hook(jsonb)', 'EXECUTE') as authenticated`
    expect(row!.auth_admin).not.toBe(false)
    expect(row!.anon).toBe(false)
    expect(row!.authenticated).toBe(false)
  })

  // On the Supabase schema fixture: called as Supabase Auth calls it, by role supabase_auth_admin
  // over its own connection, it puts the user's tenant into the claims.
  it.runIf(process.env.SHARED_TEST_DATABASE_URL)(
    'puts the tenant into the claims when Supabase Auth calls it',
    async () => {
      const email = `hook-${Math.random().toString(36).slice(2, 10)}@example.com`
      const [user] = await db.sql<{ id: string }[]>`
      insert into auth.users (id, email) values (gen_random_uuid(), ${email}) returning id`
      const [tenant] = await db.sql<
        { id: string }[]
      >`insert into public.tenants (name) values ('Hook') returning id`
      await db.sql`insert into public.tenant_members (tenant_id, user_id, role) values (${tenant!.id}, ${user!.id}, 'owner')`
      const url = new URL(process.env.SHARED_TEST_DATABASE_URL!)
      url.username = 'supabase_auth_admin'
      const auth = postgres(url.toString(), { max: 1, onnotice: () => {} })
      try {
        const event = {
          user_id: user!.id,
          claims: { sub: user!.id, role: 'authenticated', app_metadata: {} },
        }
        const [out] = await auth<{ result: { claims: { app_metadata: { tenant_id?: string } } } }[]>`
        select public.custom_access_token_hook(${auth.json(event)}) as result`
        expect(out!.result.claims.app_metadata.tenant_id).toBe(tenant!.id)
      } finally {
        await auth.end()
      }
    },
  )
})
