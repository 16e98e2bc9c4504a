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
    // The hot tables' policies (sites, articles) call it as the requesting user.
    'private.request_tenant_id',
    // The restrictive policies for published-only keys (articles, revisions, tags, redirects).
    'private.request_published_only',
    // The contributor's restrictive write policies (articles, revisions, tags, sites): the
    // caller's role in the tenant the request acts for (definer: it reads tenant_members).
    'private.request_role',
    'private.request_not_contributor',
    // The contributor's restrictive policy on articles: a live article's old slug is reserved
    // (definer: a policy on articles cannot read articles).
    'private.slug_reserved_for_other',
    // Article reads show authors by name (definer: auth.users is not readable by API roles).
    'private.author_names',
    // Pure functions the fill_slug trigger runs as the inserting role.
    'private.slug_from_text',
    'private.unique_slug',
    'private.set_active_tenant',
    'private.tenant_member_list',
  ],
}

/**
 * Tables anon may read any column of (the public catalogs: a plan's quotas and its media limits,
 * products, providers); nothing else.
 */
const anonReadable = ['public.media_plan_limits', 'public.plan_quotas', 'public.products', 'public.providers']

/**
 * Secret material authenticated must never read. Columns named like a secret (hash, token,
 * ciphertext, encrypted, lease) are refused unless listed in `authenticatedSecretLike` with why.
 */
const secretLike = /(hash|token|ciphertext|encrypted|lease|secret)/
// Key and token hashes and secret ciphertexts are hidden from members by column grants
// (tests/secret-columns.test.ts); what remains are names that only look secret.
const authenticatedSecretLike: Record<string, string> = {
  'public.webhook_subscriptions.previous_secret_expires_at': 'a date',
  'public.article_previews.token_prefix':
    "a preview token's first 8 characters, for display (as api_keys.key_prefix)",
  'public.commerce_stores.secret_updated_at': 'a date',
  'public.jobs.lease_until': 'a date',
  'public.source_push_subscriptions.lease_seconds': 'the lease a WebSub hub granted (a duration)',
  'public.source_push_subscriptions.lease_expires_at': 'a date',
  'public.integration_connections.token_expires_at': 'a date',
  'public.webhook_deliveries.lease_id': "a dispatcher's claim id",
  'public.jobs.lease_id': "a worker's claim id (members only read jobs; no write grant)",
  'public.notifications.lease_id': "a sender's claim id (members only read notifications; no write grant)",
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

  it('no security-definer function in any schema is executable through PUBLIC', async () => {
    // A definer function runs with its owner's rights: whoever may call it must be named in a grant
    // of its own, never reach it through PUBLIC's default (which every role, anon included, holds).
    const publicDefiners = async (q: postgres.Sql | postgres.TransactionSql) =>
      (
        await q<{ fn: string }[]>`
          select p.oid::regprocedure::text as fn
          from pg_proc p join pg_namespace n on n.oid = p.pronamespace
          where p.prosecdef and n.nspname not in ('pg_catalog', 'information_schema')
            and exists (select 1 from aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) a
                        where a.grantee = 0 and a.privilege_type = 'EXECUTE')
          order by 1`
      ).map((r) => r.fn)
    expect(await publicDefiners(db.sql)).toEqual([])
    // The check bites: a definer function granted to PUBLIC, in any schema, is named.
    await db.sql.begin(async (tx) => {
      await tx`create function public.definer_probe() returns int language sql security definer set search_path = '' as 'select 1'`
      await tx`grant execute on function public.definer_probe() to public`
      expect(await publicDefiners(tx)).toEqual(['definer_probe()'])
      await tx`rollback and chain`
    })
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

/**
 * Security-definer functions run with the owner's rights, so each must check its caller itself
 * and refuse when it cannot tell who that is. Every such function an API role may execute is
 * called here as `authenticated` by callers who are no member of the seeded tenant: claims without
 * a sub, no claims at all, and a signed-in user of another tenant. Each must refuse (42501) or
 * answer as for nobody, and write nothing. A new definer function fails the first test until a
 * probe is added here.
 */
describe('security-definer functions fail closed', () => {
  const tenant = '00000000-0000-4000-8000-0000000000f1'
  const member = '00000000-0000-4000-8000-0000000000f2'
  const outsider = '00000000-0000-4000-8000-0000000000f3'
  // The member is invited to a second tenant: only the invited user may accept (the probe's
  // callers are not that user, except the member's own published-only key, which must not).
  const otherTenant = '00000000-0000-4000-8000-0000000000f4'
  const inviteHash = 'f'.repeat(64)
  const now = new Date('2026-11-27T00:00:00Z')

  type Probe = (tx: postgres.TransactionSql) => Promise<unknown>
  /** What each function answers a caller it cannot place: `refused` for an error 42501. */
  const probes: Record<string, { call: Probe; expected: unknown; onlyWithoutUser?: true }> = {
    'private.record_event': {
      call: (tx) =>
        tx`select private.record_event('evt_failclosedprobe', ${tenant}, 'content.published', '{}'::jsonb, ${now})`,
      expected: 'refused',
    },
    'private.enqueue_job': {
      call: (tx) =>
        tx`select id from private.enqueue_job(${tenant}, 'probe', '{}'::jsonb, 1, ${now}, ${now})`,
      expected: 'refused',
    },
    // Any signed-in user may create a tenant (sign-up does); without a user, nobody may.
    'private.create_tenant': {
      call: (tx) => tx`select private.create_tenant('Probe', 'free')`,
      expected: 'refused',
      onlyWithoutUser: true,
    },
    'private.has_tenant_role': {
      call: async (tx) => (await tx`select private.has_tenant_role(${tenant}, array['owner']) as v`)[0]!.v,
      expected: false,
    },
    'private.user_tenant_ids': {
      call: async (tx) => (await tx`select * from private.user_tenant_ids() t where t = ${tenant}`).length,
      expected: 0,
    },
    // The tenant only while the claims' user is a member of it; the outsider's claims name the
    // seeded tenant, and so does the setting here: both are ignored without the membership.
    'private.request_tenant_id': {
      call: async (tx) => {
        await tx`select set_config('request.tenant_id', ${tenant}, true)`
        return (await tx`select private.request_tenant_id() as v`)[0]!.v
      },
      expected: null,
    },
    // A role only in the tenant the request acts for, which needs the membership: none here.
    'private.request_role': {
      call: async (tx) => {
        await tx`select set_config('request.tenant_id', ${tenant}, true)`
        return (await tx`select private.request_role() as v`)[0]!.v
      },
      expected: null,
    },
    // A contributor only by a membership in the tenant the request acts for: without one, the
    // answer is "not a contributor", as request_role's null said (the tenant policies refuse the write).
    'private.request_not_contributor': {
      call: async (tx) => {
        await tx`select set_config('request.tenant_id', ${tenant}, true)`
        return (await tx`select private.request_not_contributor() as v`)[0]!.v
      },
      expected: true,
    },
    // Names only of members of the tenant the transaction acts for: none for a non-member.
    'private.author_names': {
      call: async (tx) => {
        await tx`select set_config('request.tenant_id', ${tenant}, true)`
        return (await tx`select * from private.author_names(array[${member}]::uuid[])`).length
      },
      expected: 0,
    },
    // Without a tenant the request acts for, every slug counts as reserved (the policy refuses).
    'private.slug_reserved_for_other': {
      call: async (tx) => {
        await tx`select set_config('request.tenant_id', ${tenant}, true)`
        return (await tx`select private.slug_reserved_for_other(${tenant}, 'any', ${member}) as v`)[0]!.v
      },
      expected: true,
    },
    'private.set_active_tenant': {
      call: async (tx) => (await tx`select private.set_active_tenant(${tenant}) as v`)[0]!.v,
      expected: false,
    },
    'private.tenant_member_list': {
      call: async (tx) => (await tx`select * from private.tenant_member_list(${tenant})`).length,
      expected: 0,
    },
    'private.is_member_email': {
      call: async (tx) =>
        (await tx`select private.is_member_email(${tenant}, 'failclosed-member@example.com') as v`)[0]!.v,
      expected: false,
    },
    'private.accept_invitation': {
      call: async (tx) =>
        (await tx`select outcome from private.accept_invitation(${inviteHash}, ${now})`)[0]!.outcome,
      expected: 'wrong_user',
    },
    // Answers whoever holds the invitation's token (its hash is the argument): the token is the
    // credential, and the answer says only what the link invites to. No token, no answer.
    'private.preview_invitation': {
      call: async (tx) => (await tx`select * from private.preview_invitation(${'0'.repeat(64)})`).length,
      expected: 0,
    },
  }

  const callers: Record<string, Record<string, unknown> | null> = {
    'claims without a sub': { role: 'authenticated', app_metadata: { tenant_id: tenant } },
    'no claims at all': null,
    'a user of another tenant': { sub: outsider, role: 'authenticated', app_metadata: { tenant_id: tenant } },
  }

  beforeAll(async () => {
    await db.sql`insert into auth.users (id, email) values (${member}, 'failclosed-member@example.com'),
                                                          (${outsider}, 'failclosed-outsider@example.com')`
    await db.sql`insert into public.tenants (id, name) values (${tenant}, 'Fail closed')`
    await db.sql`insert into public.tenant_members (tenant_id, user_id, role) values (${tenant}, ${member}, 'owner')`
    await db.sql`insert into public.tenants (id, name) values (${otherTenant}, 'Fail closed, the other')`
    await db.sql`insert into public.invitations (tenant_id, email, role, token_hash, expires_at)
                 values (${otherTenant}, 'failclosed-member@example.com', 'admin', ${inviteHash}, ${new Date('2027-01-01')})`
  })

  /** What the tenant has: the rows a definer function could have written for it. */
  const written = async () => {
    const [row] = await db.sql<
      { events: number; jobs: number; members: number; tenants: number; active: number }[]
    >`
      select (select count(*)::int from public.event_outbox where tenant_id = ${tenant}) as events,
             (select count(*)::int from public.jobs where tenant_id = ${tenant}) as jobs,
             (select count(*)::int from public.tenant_members where tenant_id in (${tenant}, ${otherTenant})) as members,
             (select count(*)::int from public.tenants where name = 'Probe') as tenants,
             (select count(*)::int from private.user_active_tenant where tenant_id = ${tenant}) as active`
    return row
  }

  it('every definer function an API role may execute has a probe', async () => {
    const rows = await db.sql<{ fn: string }[]>`
      select distinct n.nspname || '.' || p.proname as fn
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where p.prosecdef and n.nspname in ('public', 'private')
        and (has_function_privilege('authenticated', p.oid, 'EXECUTE') or has_function_privilege('anon', p.oid, 'EXECUTE'))
      order by 1`
    expect(rows.map((r) => r.fn)).toEqual(Object.keys(probes).sort())
  })

  for (const [who, claims] of Object.entries(callers)) {
    const applicable = Object.keys(probes).filter((fn) => !(claims?.sub && probes[fn]!.onlyWithoutUser))
    it.each(applicable)(`%s refuses ${who}`, async (fn) => {
      const before = await written()
      const { call, expected } = probes[fn]!
      const outcome = await db.sql
        .begin(async (tx) => {
          await tx`select set_config('role', 'authenticated', true),
                          set_config('request.jwt.claims', ${claims ? JSON.stringify(claims) : ''}, true)`
          return call(tx)
        })
        .catch((err: { code?: string }) => (err.code === '42501' ? 'refused' : Promise.reject(err)))
      expect(outcome).toEqual(expected)
      expect(await written()).toEqual(before)
    })
  }

  /**
   * A published-only key's claims carry its creator's sub (ADR 0029): a definer function that
   * trusts auth.uid() alone would act as that member. Called under the member's own published-only
   * claims, each must refuse or answer as for nobody, exactly as for the callers above, unless it is
   * listed here with the reason the published reads need its answer.
   */
  const answersPublishedOnly: Record<string, string> = {
    'private.request_tenant_id':
      "the published reads' policies compare tenant_id with it; what the claim sees is held by the restrictive policies",
    'private.author_names': 'a published article shows its author by name',
    'private.slug_reserved_for_other':
      'called only by a write policy on articles, which the restrictive published-only policy refuses first',
    'private.preview_invitation': 'reads no caller: the invitation token (its hash) is the credential',
  }
  const publishedOnlyClaims = {
    sub: member,
    role: 'authenticated',
    published_only: true,
    app_metadata: { tenant_id: tenant },
  }

  it('the published-only allow-list names only definer functions with a probe', () => {
    expect(Object.keys(answersPublishedOnly).filter((fn) => !(fn in probes))).toEqual([])
  })

  it.each(Object.keys(probes).filter((fn) => !(fn in answersPublishedOnly)))(
    '%s refuses a member’s published-only key',
    async (fn) => {
      const before = await written()
      const { call, expected } = probes[fn]!
      const outcome = await db.sql
        .begin(async (tx) => {
          await tx`select set_config('role', 'authenticated', true),
                          set_config('request.jwt.claims', ${JSON.stringify(publishedOnlyClaims)}, true)`
          return call(tx)
        })
        .catch((err: { code?: string }) => (err.code === '42501' ? 'refused' : Promise.reject(err)))
      expect([expected, 'refused']).toContainEqual(outcome)
      expect(await written()).toEqual(before)
    },
  )

  it('the platform’s own service connection (no API role, no claims) still writes events and jobs', async () => {
    await db.sql.begin(async (tx) => {
      await tx`select private.record_event('evt_failclosedservice', ${tenant}, 'content.published', '{}'::jsonb, ${now})`
      await tx`select id from private.enqueue_job(${tenant}, 'probe', '{}'::jsonb, 1, ${now}, ${now})`
    })
    expect(await written()).toMatchObject({ events: 1, jobs: 1 })
    // And a member, as withTenant calls them.
    await db.sql.begin(async (tx) => {
      await tx`select set_config('role', 'authenticated', true),
                      set_config('request.jwt.claims', ${JSON.stringify({ sub: member, role: 'authenticated' })}, true)`
      await tx`select private.record_event('evt_failclosedmember', ${tenant}, 'content.published', '{}'::jsonb, ${now})`
    })
    expect(await written()).toMatchObject({ events: 2 })
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
