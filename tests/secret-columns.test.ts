import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RequestClaims, withTenant } from '../shared/infra/db.ts'
import { startTestPlatform, type TestPlatform, type TestTenant } from './support/platform.ts'

// A member signed in to the Data API (PostgREST runs their queries as role
// `authenticated` with their claims, as withTenant does) must not read any hash or ciphertext,
// and anon must not read them either. Checked over SQL, under the same roles PostgREST uses.

const hidden: [table: string, column: string][] = [
  ['public.api_keys', 'key_hash'],
  ['public.invitations', 'token_hash'],
  ['public.article_previews', 'token_hash'],
  ['public.webhook_subscriptions', 'secret_ciphertext'],
  ['public.webhook_subscriptions', 'previous_secret_ciphertext'],
  ['public.credentials', 'secret_ciphertext'],
  ['public.integration_connections', 'access_token_encrypted'],
  ['public.integration_connections', 'refresh_token_encrypted'],
  ['public.integration_connections', 'mcp_auth_token_encrypted'],
  ['public.integration_connections', 'mcp_oauth_client_secret_encrypted'],
  ['private.oauth_states', 'mcp_flow_encrypted'],
  ['private.oauth_states', 'code_verifier_encrypted'],
  ['private.oauth_states', 'state_hash'],
  ['private.tenant_data_keys', '*'],
]

// What the dashboard lists stays readable to members.
const visible: [table: string, columns: string][] = [
  ['public.api_keys', 'id, name, key_prefix, scopes, environment, last_used_at, revoked_at, created_at'],
  ['public.invitations', 'id, email, role, expires_at, accepted_at, revoked_at'],
  ['public.article_previews', 'id, article_id, token_prefix, expires_at, revoked_at'],
  ['public.webhook_subscriptions', 'id, url, events, status, previous_secret_expires_at'],
  ['public.credentials', 'id, name, key_hint, expires_at'],
  ['public.integration_connections', 'id, display_name, status, scopes'],
]

let tp: TestPlatform
let owner: TestTenant
let member: TestTenant

beforeAll(async () => {
  tp = await startTestPlatform()
  owner = await tp.createTenant()
  const other = await tp.createTenant()
  await tp.db.sql`
    insert into public.tenant_members (tenant_id, user_id, role) values (${owner.tenantId}, ${other.userId}, 'member')`
  member = { ...other, tenantId: owner.tenantId }
  const key = await tp.json('/api/api-keys', {
    token: owner.token,
    body: { name: 'k', environment: 'production', scopes: ['content:read'], rate_limit_per_minute: 10 },
  })
  expect(key.status).toBe(201)
  const inv = await tp.json('/api/invitations', {
    token: owner.token,
    body: { email: 'invitee@example.com', role: 'member' },
  })
  expect(inv.status).toBe(201)
  await tp.db.sql`
    insert into public.webhook_subscriptions (tenant_id, url, events, secret_ciphertext, previous_secret_ciphertext)
    values (${owner.tenantId}, 'https://example.com/hook', '{api_key.created}', 'v1:1:c2VjcmV0', 'v1:1:b2xk')`
})
afterAll(() => tp.close())

const claimsOf = (t: TestTenant): RequestClaims => ({
  sub: t.userId,
  role: 'authenticated',
  app_metadata: { tenant_id: t.tenantId },
})

async function asMember(t: TestTenant, query: string): Promise<unknown[]> {
  return withTenant(tp.db.sql, claimsOf(t), (tx) => tx.unsafe(query))
}

async function asAnon(query: string): Promise<unknown[]> {
  return (await tp.db.sql.begin(async (tx) => {
    await tx`set local role anon`
    return tx.unsafe(query)
  })) as unknown[]
}

const refused = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => null,
    (e: unknown) => e as { code?: string },
  )
  expect(err, 'the query was answered').not.toBeNull()
  expect(err!.code).toBe('42501') // insufficient_privilege
}

describe('secret columns', () => {
  it('the owner connection has a value in each hidden column that rows exist for (the test reads real data)', async () => {
    const [k] = await tp.db
      .sql`select count(*)::int as n from public.api_keys where tenant_id = ${owner.tenantId} and key_hash <> ''`
    const [i] = await tp.db
      .sql`select count(*)::int as n from public.invitations where tenant_id = ${owner.tenantId} and token_hash <> ''`
    const [w] = await tp.db
      .sql`select count(*)::int as n from public.webhook_subscriptions where tenant_id = ${owner.tenantId} and previous_secret_ciphertext <> ''`
    expect([k!.n, i!.n, w!.n]).toEqual([1, 1, 1])
  })

  for (const [table, column] of hidden) {
    it(`${table}.${column} is refused to a member, to the owner and to anon`, async () => {
      const q = `select ${column} from ${table}`
      await refused(asMember(member, q))
      await refused(asMember(owner, q))
      await refused(asAnon(q))
      if (column !== '*') {
        // Not even through a filter or an ordering, which would leak it a bit at a time.
        await refused(asMember(owner, `select 1 from ${table} where ${column} like 'v1:%'`))
        await refused(asMember(owner, `select * from ${table}`))
      }
    })
  }

  for (const [table, columns] of visible) {
    it(`${table} still shows the dashboard's columns to members, and nothing to anon`, async () => {
      await asMember(member, `select ${columns} from ${table}`)
      await refused(asAnon(`select ${columns} from ${table}`))
    })
  }

  it("the member still sees the tenant's key, invitation and webhook rows without their secrets", async () => {
    const keys = await asMember(member, 'select id from public.api_keys')
    const invs = await asMember(member, 'select id from public.invitations')
    const hooks = await asMember(member, 'select id from public.webhook_subscriptions')
    expect([keys.length, invs.length, hooks.length]).toEqual([1, 1, 1])
  })
})
