import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CreateCredentialResponse } from '../functions/credentials/routes/credentials/create.ts'
import type { GetCredentialResponse } from '../functions/credentials/routes/credentials/get.ts'
import type { ListCredentialsResponse } from '../functions/credentials/routes/credentials/list.ts'
import type { RotateCredentialResponse } from '../functions/credentials/routes/credentials/rotate.ts'
import type { ListProvidersResponse } from '../functions/credentials/routes/providers/list.ts'
import type { ListCredentialUsageResponse } from '../functions/credentials/routes/usage/list.ts'
import { randomBase62 } from '../shared/infra/crypto.ts'
import { keyHint, SHORT_SECRET_HINT } from '../shared/services/credentials/key-hint.ts'
import { MAX_SECRET_LENGTH, providerCategories } from '../shared/services/credentials/schema.ts'
import { CredentialUnavailableError, useCredential } from '../shared/services/credentials/use-credential.ts'
import {
  addMember,
  startTestPlatform,
  TestClock,
  type TestPlatform,
  type TestTenant,
} from './support/platform.ts'

let tp: TestPlatform
let a: TestTenant
let b: TestTenant
const clock = new TestClock()
let providers: { id: string; slug: string; name: string; category: string; icon_url: string }[]
const providerId = (slug: string) => providers.find((p) => p.slug === slug)!.id

beforeAll(async () => {
  tp = await startTestPlatform({ clock })
  a = await tp.createTenant()
  b = await tp.createTenant()
  providers = (await tp.json<ListProvidersResponse>('/api/providers', { token: a.token })).body.data
})
afterAll(() => tp.close())

const newSecret = () => `sk${randomBase62(40)}`
let n = 0
const body = (extra: Record<string, unknown> = {}) => ({
  provider_id: providerId('openai'),
  name: `key ${++n}`,
  environment: 'production',
  credential: newSecret(),
  scopes: ['inference'],
  ...extra,
})
const deps = () => tp.instances[0]!.platform.deps
const countCredentials = async () =>
  (await tp.db.sql`select count(*)::int as n from public.credentials`)[0]!.n as number

describe('provider catalog', () => {
  it('lists the 52 providers of the spec and Awin (sync-affiliate) across its 14 categories, each with a stable id, slug, name and icon_url', async () => {
    expect(providers).toHaveLength(53)
    expect(new Set(providers.map((p) => p.category))).toEqual(new Set(providerCategories))
    expect(new Set(providers.map((p) => p.slug)).size).toBe(53)
    for (const p of providers) {
      expect(p.id).toMatch(/^[0-9a-f-]{36}$/)
      expect(p.icon_url).toMatch(/^https:\/\//)
      expect(p.name.length).toBeGreaterThan(0)
    }
    // Stable ids: fixed by the migration, the same in every deployment.
    expect(providerId('openai')).toBe('bc152fb4-8e13-4148-bfdc-1734d3f3c667')
    const slugsOf = (cat: string) => providers.filter((p) => p.category === cat).map((p) => p.slug)
    expect(slugsOf('AI')).toEqual(expect.arrayContaining(['openai', 'anthropic', 'google-gemini', 'mistral']))
    expect(slugsOf('Scraping')).toContain('apify')
    expect(slugsOf('Affiliate')).toContain('amazon-associates')
  })

  it('filters by category, refuses an unknown one, and is open to the anon key but not to nobody', async () => {
    const ai = await tp.json('/api/providers?category=AI', { token: a.token })
    expect(ai.status).toBe(200)
    expect(ai.body.data.length).toBeGreaterThan(0)
    expect(ai.body.data.every((p: { category: string }) => p.category === 'AI')).toBe(true)
    const bad = await tp.json('/api/providers?category=Crypto', { token: a.token })
    expect(bad.status).toBe(400)
    expect(bad.body.details[0].field).toBe('category')
    expect((await tp.json('/api/providers', { headers: { apikey: tp.anonKey } })).status).toBe(200)
    expect((await tp.json('/api/providers')).status).toBe(401)
    // The function path serves the same.
    expect(
      (await tp.json('/functions/v1/credentials/providers?category=Email', { token: a.token })).body.data,
    ).toHaveLength(4)
  })
})

describe('POST /api/credentials', () => {
  it('stores a credential and answers with the spec fields; the secret is never returned', async () => {
    const input = body({ name: 'Main OpenAI' })
    const res = await tp.json<CreateCredentialResponse>('/api/credentials', { token: a.token, body: input })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      name: 'Main OpenAI',
      environment: 'production',
      key_hint: `...${input.credential.slice(-6)}`,
      provider: { name: 'OpenAI', icon_url: 'https://openai.com/favicon.ico' },
      scopes: ['inference'],
      status: 'active',
      last_used_at: null,
      expires_at: null,
    })
    expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/)
    expect(JSON.stringify(res.body)).not.toContain(input.credential)
    const got = await tp.json<GetCredentialResponse>(`/api/credentials/${res.body.id}`, { token: a.token })
    expect(got.body).toEqual(res.body)
    expect(JSON.stringify(got.body)).not.toContain(input.credential.slice(0, 20))
  })

  it.each(['development', 'staging', 'production'])('accepts the environment %s', async (environment) => {
    expect((await tp.json('/api/credentials', { token: a.token, body: body({ environment }) })).status).toBe(
      201,
    )
  })

  const tooLong = 'x'.repeat(MAX_SECRET_LENGTH + 1)
  it.each([
    ['unknown environment', { environment: 'prod' }, 'environment'],
    ['empty secret', { credential: '' }, 'credential'],
    ['whitespace secret', { credential: '   ' }, 'credential'],
    ['secret over the size limit', { credential: tooLong }, 'credential'],
    ['secret that is not a string', { credential: 12345 }, 'credential'],
    ['unknown field', { secret: 'abc' }, '(body)'],
    ['provider_id that is not a uuid', { provider_id: 'openai' }, 'provider_id'],
    ['missing name', { name: undefined }, 'name'],
    ['name over 100 characters', { name: 'n'.repeat(101) }, 'name'],
    ['name with a line break', { name: 'a\nb' }, 'name'],
    ['too many scopes', { scopes: Array.from({ length: 21 }, (_, i) => `s${i}`) }, 'scopes'],
    ['repeated scopes', { scopes: ['a', 'a'] }, 'scopes'],
    ['past expires_at', { expires_at: '2020-01-01T00:00:00Z' }, 'expires_at'],
    ['malformed expires_at', { expires_at: 'next week' }, 'expires_at'],
  ] as [string, Record<string, unknown>, string][])(
    'refuses %s with 400 VALIDATION_ERROR and stores nothing',
    async (_case, extra, field) => {
      const before = await countCredentials()
      const res = await tp.json('/api/credentials', { token: a.token, body: body(extra) })
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({ error: 'Bad Request', code: 'VALIDATION_ERROR' })
      expect(res.body.details.map((d: { field: string }) => d.field)).toContain(field)
      expect(await countCredentials()).toBe(before)
      if (typeof extra.credential === 'string' && extra.credential.trim()) {
        expect(JSON.stringify(res.body)).not.toContain(extra.credential.slice(0, 50))
      }
    },
  )

  it('refuses an unknown provider_id with 400 and stores nothing', async () => {
    const before = await countCredentials()
    const input = body({ provider_id: '00000000-0000-4000-8000-000000000000' })
    const res = await tp.json('/api/credentials', { token: a.token, body: input })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ error: 'Bad Request', code: 'VALIDATION_ERROR' })
    expect(res.body.details[0].field).toBe('provider_id')
    expect(JSON.stringify(res.body)).not.toContain(input.credential)
    expect(await countCredentials()).toBe(before)
  })

  it('refuses malformed JSON with 400', async () => {
    const res = await tp.json('/api/credentials', {
      token: a.token,
      body: '{"name":',
      headers: { 'content-type': 'application/json' },
    })
    expect(res.status).toBe(400)
    expect(res.body.code).toBe('VALIDATION_ERROR')
  })

  it('refuses a duplicate name within tenant, provider and environment with 409; other combinations are fine', async () => {
    const first = body({ name: 'Shared name' })
    expect((await tp.json('/api/credentials', { token: a.token, body: first })).status).toBe(201)
    const before = await countCredentials()
    const dup = await tp.json('/api/credentials', { token: a.token, body: body({ name: 'shared NAME' }) })
    expect(dup.status).toBe(409)
    expect(dup.body).toMatchObject({ error: 'Conflict', code: 'CONFLICT' })
    expect(await countCredentials()).toBe(before)
    for (const other of [
      { token: a.token, extra: { name: 'Shared name', environment: 'staging' } },
      { token: a.token, extra: { name: 'Shared name', provider_id: providerId('anthropic') } },
      { token: b.token, extra: { name: 'Shared name' } },
    ]) {
      expect(
        (await tp.json('/api/credentials', { token: other.token, body: body(other.extra) })).status,
      ).toBe(201)
    }
  })

  it('lets members read but only owners and admins write', async () => {
    const t = await tp.createTenant()
    const member = await addMember(tp, t.tenantId, 'member')
    const admin = await addMember(tp, t.tenantId, 'admin')
    const denied = await tp.json('/api/credentials', { token: member.token, body: body() })
    expect(denied.status).toBe(403)
    expect(denied.body.code).toBe('INSUFFICIENT_PERMISSIONS')
    const created = await tp.json('/api/credentials', { token: admin.token, body: body() })
    expect(created.status).toBe(201)
    const id = created.body.id
    expect((await tp.json(`/api/credentials/${id}`, { token: member.token })).status).toBe(200)
    expect(
      (await tp.json(`/api/credentials/${id}`, { token: member.token, method: 'PATCH', body: { name: 'x' } }))
        .status,
    ).toBe(403)
    expect(
      (
        await tp.json(`/api/credentials/${id}/rotate`, {
          token: member.token,
          body: { credential: newSecret() },
        })
      ).status,
    ).toBe(403)
    expect((await tp.json(`/api/credentials/${id}`, { token: member.token, method: 'DELETE' })).status).toBe(
      403,
    )
  })

  it('takes no API key and no anon or service key as a credential for the vault API', async () => {
    const key = await tp.json('/api/api-keys', {
      token: a.token,
      body: { name: 'k', environment: 'production', scopes: ['users:write'], rate_limit_per_minute: 60 },
    })
    for (const headers of [
      { authorization: `Bearer ${key.body.key}` } as Record<string, string>,
      { apikey: tp.anonKey },
      { apikey: tp.serviceRoleKey },
    ]) {
      const res = await tp.json('/api/credentials', { headers })
      expect(res.status).toBe(401)
      expect(res.body.code).toBe('AUTH_REQUIRED')
    }
  })
})

describe('key_hint', () => {
  it("is '...' and the last 6 characters for any secret longer than 6, and a fixed mask for 6 or fewer", () => {
    for (let len = 7; len <= 200; len++) {
      const s = randomBase62(len)
      expect(keyHint(s)).toBe(`...${s.slice(-6)}`)
    }
    expect(keyHint('abcdefg')).toBe('...bcdefg')
    for (const short of ['a', 'ab', 'abcde', 'abcdef', ' x ']) expect(keyHint(short)).toBe(SHORT_SECRET_HINT)
    expect(SHORT_SECRET_HINT).toBe('...******')
    // Characters are code points: an emoji is one character, never half of one.
    expect(keyHint('secret-🔑🔑🔑🔑🔑🔑')).toBe('...🔑🔑🔑🔑🔑🔑')
    expect(keyHint(`x${'é'.repeat(10)}`)).toBe('...éééééé')
  })

  it('is what the API stores and shows, for long, 7-character, 6-character and 1-character secrets', async () => {
    for (const [secret, hint] of [
      [`pk${'Z'.repeat(5000)}Ab3XyZ`, '...Ab3XyZ'],
      ['k123456', '...123456'],
      ['123456', '...******'],
      ['Q', '...******'],
    ]) {
      const res = await tp.json('/api/credentials', { token: a.token, body: body({ credential: secret }) })
      expect(res.status).toBe(201)
      expect(res.body.key_hint).toBe(hint)
      const [row] = await tp.db.sql`select key_hint from public.credentials where id = ${res.body.id}`
      expect(row!.key_hint).toBe(hint)
    }
  })
})

describe('list, read, update, rotate, delete', () => {
  it('lists with filters by provider and environment, newest first, with cursor pagination', async () => {
    const t = await tp.createTenant()
    const made: string[] = []
    for (const [slug, environment] of [
      ['openai', 'production'],
      ['openai', 'staging'],
      ['stripe', 'production'],
      ['openai', 'production'],
    ]) {
      clock.advance(1000)
      const res = await tp.json('/api/credentials', {
        token: t.token,
        body: body({ provider_id: providerId(slug!), environment }),
      })
      made.push(res.body.id)
    }
    const all = await tp.json<ListCredentialsResponse>('/api/credentials', { token: t.token })
    expect(all.body.data.map((c) => c.id)).toEqual([...made].reverse())
    const openaiProd = await tp.json(
      `/api/credentials?provider_id=${providerId('openai')}&environment=production`,
      { token: t.token },
    )
    expect(openaiProd.body.data.map((c: { id: string }) => c.id)).toEqual([made[3], made[0]])
    const stripe = await tp.json(`/api/credentials?provider_id=${providerId('stripe')}`, { token: t.token })
    expect(stripe.body.data.map((c: { id: string }) => c.id)).toEqual([made[2]])
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const page: { body: { data: { id: string }[]; next_cursor: string | null } } = await tp.json(
        `/api/credentials?limit=3${cursor ? `&cursor=${cursor}` : ''}`,
        { token: t.token },
      )
      seen.push(...page.body.data.map((c) => c.id))
      cursor = page.body.next_cursor
    } while (cursor)
    expect(seen).toEqual([...made].reverse())
    expect((await tp.json('/api/credentials?environment=qa', { token: t.token })).status).toBe(400)
    expect((await tp.json('/api/credentials?provider_id=nope', { token: t.token })).status).toBe(400)
    expect((await tp.json('/api/credentials?limit=0', { token: t.token })).status).toBe(400)
  })

  it('updates name, scopes and expires_at; shows status active, expiring and expired', async () => {
    const created = (await tp.json('/api/credentials', { token: a.token, body: body() })).body
    const id = created.id
    const in30d = new Date(clock.now().getTime() + 30 * 86_400_000).toISOString()
    let res = await tp.json(`/api/credentials/${id}`, {
      token: a.token,
      method: 'PATCH',
      body: { name: 'Renamed', scopes: ['a', 'b'], expires_at: in30d },
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      name: 'Renamed',
      scopes: ['a', 'b'],
      expires_at: in30d,
      status: 'active',
      key_hint: created.key_hint,
    })
    const in3d = new Date(clock.now().getTime() + 3 * 86_400_000).toISOString()
    res = await tp.json(`/api/credentials/${id}`, {
      token: a.token,
      method: 'PATCH',
      body: { expires_at: in3d },
    })
    expect(res.body.status).toBe('expiring')
    clock.advance(4 * 86_400_000)
    expect((await tp.json(`/api/credentials/${id}`, { token: a.token })).body.status).toBe('expired')
    res = await tp.json(`/api/credentials/${id}`, {
      token: a.token,
      method: 'PATCH',
      body: { expires_at: null },
    })
    expect(res.body).toMatchObject({ expires_at: null, status: 'active' })
  })

  it.each([
    ['empty body', {}],
    ['unknown field', { name: 'x', credential: 'sneaky' }],
    ['past expiry', { expires_at: '2020-01-01T00:00:00Z' }],
    ['empty name', { name: '' }],
  ])('refuses an update with %s and changes nothing', async (_case, patch) => {
    const created = (await tp.json('/api/credentials', { token: a.token, body: body() })).body
    const res = await tp.json(`/api/credentials/${created.id}`, {
      token: a.token,
      method: 'PATCH',
      body: patch,
    })
    expect(res.status).toBe(400)
    expect(res.body.code).toBe('VALIDATION_ERROR')
    expect((await tp.json(`/api/credentials/${created.id}`, { token: a.token })).body).toEqual(created)
  })

  it('refuses a rename onto an existing name with 409', async () => {
    const one = (await tp.json('/api/credentials', { token: a.token, body: body({ name: 'taken-1' }) })).body
    await tp.json('/api/credentials', { token: a.token, body: body({ name: 'taken-2' }) })
    const res = await tp.json(`/api/credentials/${one.id}`, {
      token: a.token,
      method: 'PATCH',
      body: { name: 'taken-2' },
    })
    expect(res.status).toBe(409)
    expect((await tp.json(`/api/credentials/${one.id}`, { token: a.token })).body.name).toBe('taken-1')
  })

  it('rotates: a new hint, the old ciphertext gone, server code gets the new secret', async () => {
    const oldSecret = newSecret()
    const created = (
      await tp.json('/api/credentials', {
        token: a.token,
        body: body({ credential: oldSecret, provider_id: providerId('mistral') }),
      })
    ).body
    const [before] = await tp.db
      .sql`select secret_ciphertext from public.credentials where id = ${created.id}`
    const newer = newSecret()
    const res = await tp.json<RotateCredentialResponse>(`/api/credentials/${created.id}/rotate`, {
      token: a.token,
      body: { credential: newer },
    })
    expect(res.status).toBe(200)
    expect(res.body.key_hint).toBe(`...${newer.slice(-6)}`)
    expect(res.body.rotated_at).not.toBeNull()
    expect(JSON.stringify(res.body)).not.toContain(newer)
    const [after] = await tp.db.sql`select secret_ciphertext from public.credentials where id = ${created.id}`
    expect(after!.secret_ciphertext).not.toBe(before!.secret_ciphertext)
    const [still] = await tp.db.sql`
      select count(*)::int as n from public.credentials where secret_ciphertext = ${before!.secret_ciphertext}`
    expect(still!.n).toBe(0)
    const used = await useCredential(deps(), {
      tenantId: a.tenantId,
      provider: 'mistral',
      environment: 'production',
      callerKind: 'server_function',
      functionName: 'test',
      name: created.name,
    })
    expect(used.secret).toBe(newer)
    const bad = await tp.json(`/api/credentials/${created.id}/rotate`, {
      token: a.token,
      body: { credential: '' },
    })
    expect(bad.status).toBe(400)
    expect((await tp.json(`/api/credentials/${created.id}`, { token: a.token })).body.key_hint).toBe(
      `...${newer.slice(-6)}`,
    )
  })

  it('deletes a credential and its usage records; it is gone for the API and for server code', async () => {
    const created = (
      await tp.json('/api/credentials', { token: a.token, body: body({ provider_id: providerId('cohere') }) })
    ).body
    await useCredential(deps(), {
      tenantId: a.tenantId,
      provider: 'cohere',
      environment: 'production',
      callerKind: 'assistant',
      functionName: 'assistant',
    })
    const res = await tp.request(`/api/credentials/${created.id}`, { token: a.token, method: 'DELETE' })
    expect(res.status).toBe(204)
    expect((await tp.json(`/api/credentials/${created.id}`, { token: a.token })).status).toBe(404)
    expect(
      (await tp.json(`/api/credentials/${created.id}`, { token: a.token, method: 'DELETE' })).status,
    ).toBe(404)
    const [usage] = await tp.db
      .sql`select count(*)::int as n from public.credential_usage where credential_id = ${created.id}`
    expect(usage!.n).toBe(0)
    await expect(
      useCredential(deps(), {
        tenantId: a.tenantId,
        provider: 'cohere',
        environment: 'production',
        callerKind: 'assistant',
        functionName: 'assistant',
      }),
    ).rejects.toMatchObject({ reason: 'not_found' })
  })
})

describe('server-side use', () => {
  it('returns the secret to server code, records last_used_at and a usage record the tenant can read', async () => {
    const secret = newSecret()
    const created = (
      await tp.json('/api/credentials', {
        token: a.token,
        body: body({ credential: secret, provider_id: providerId('anthropic'), environment: 'staging' }),
      })
    ).body
    clock.advance(1000)
    const first = await useCredential(deps(), {
      tenantId: a.tenantId,
      provider: 'anthropic',
      environment: 'staging',
      callerKind: 'assistant',
      functionName: 'assistant-inference',
    })
    expect(first).toMatchObject({ id: created.id, secret, provider: 'anthropic', environment: 'staging' })
    clock.advance(1000)
    // By provider id as well as by slug.
    await useCredential(deps(), {
      tenantId: a.tenantId,
      provider: providerId('anthropic'),
      environment: 'staging',
      callerKind: 'automation',
      functionName: 'generate-article',
    })
    const got = await tp.json(`/api/credentials/${created.id}`, { token: a.token })
    expect(got.body.last_used_at).toBe(clock.now().toISOString())
    const usage = await tp.json<ListCredentialUsageResponse>(`/api/credentials/${created.id}/usage`, {
      token: a.token,
    })
    expect(usage.status).toBe(200)
    expect(
      usage.body.data.map((u: { caller_kind: string; function_name: string }) => [
        u.caller_kind,
        u.function_name,
      ]),
    ).toEqual([
      ['automation', 'generate-article'],
      ['assistant', 'assistant-inference'],
    ])
    const page = await tp.json(`/api/credentials/${created.id}/usage?limit=1`, { token: a.token })
    expect(page.body.data).toHaveLength(1)
    const next = await tp.json(
      `/api/credentials/${created.id}/usage?limit=1&cursor=${page.body.next_cursor}`,
      { token: a.token },
    )
    expect(next.body.data[0].function_name).toBe('assistant-inference')
    // A member may read the history too.
    const member = await addMember(tp, a.tenantId, 'member')
    expect(
      (await tp.json(`/api/credentials/${created.id}/usage`, { token: member.token })).body.data,
    ).toHaveLength(2)
  })

  it('refuses an unknown or expired credential and a malformed request, naming no secret', async () => {
    await expect(
      useCredential(deps(), {
        tenantId: a.tenantId,
        provider: 'paddle',
        environment: 'production',
        callerKind: 'automation',
        functionName: 'x',
      }),
    ).rejects.toBeInstanceOf(CredentialUnavailableError)
    const secret = newSecret()
    const created = (
      await tp.json('/api/credentials', {
        token: a.token,
        body: body({
          credential: secret,
          provider_id: providerId('paddle'),
          expires_at: new Date(clock.now().getTime() + 60_000).toISOString(),
        }),
      })
    ).body
    clock.advance(120_000)
    const err = await useCredential(deps(), {
      tenantId: a.tenantId,
      provider: 'paddle',
      environment: 'production',
      callerKind: 'automation',
      functionName: 'x',
    }).catch((e) => e)
    expect(err).toBeInstanceOf(CredentialUnavailableError)
    expect(err.reason).toBe('expired')
    expect(String(err)).not.toContain(secret)
    expect((await tp.json(`/api/credentials/${created.id}`, { token: a.token })).body.last_used_at).toBeNull()
    await expect(
      useCredential(deps(), {
        tenantId: 'not-a-uuid',
        provider: 'paddle',
        environment: 'production',
        callerKind: 'automation',
        functionName: 'x',
      }),
    ).rejects.toThrow(/tenantId/)
    await expect(
      useCredential(deps(), {
        tenantId: a.tenantId,
        provider: 'paddle',
        environment: 'production',
        // A wrong caller kind on purpose.
        callerKind: 'user' as unknown as 'assistant',
        functionName: 'x',
      }),
    ).rejects.toThrow(/callerKind/)
  })

  it('prefers an unexpired credential, and picks one by name when asked', async () => {
    const t = await tp.createTenant()
    const older = newSecret()
    const newer = newSecret()
    await tp.json('/api/credentials', {
      token: t.token,
      body: body({ name: 'older', credential: older, provider_id: providerId('replicate') }),
    })
    clock.advance(1000)
    await tp.json('/api/credentials', {
      token: t.token,
      body: body({
        name: 'newer',
        credential: newer,
        provider_id: providerId('replicate'),
        expires_at: new Date(clock.now().getTime() + 5000).toISOString(),
      }),
    })
    const req = {
      tenantId: t.tenantId,
      provider: 'replicate',
      environment: 'production' as const,
      callerKind: 'server_function' as const,
      functionName: 'f',
    }
    expect((await useCredential(deps(), req)).secret).toBe(newer)
    expect((await useCredential(deps(), { ...req, name: 'OLDER' })).secret).toBe(older)
    clock.advance(10_000)
    expect((await useCredential(deps(), req)).secret).toBe(older)
  })

  it('has no route that returns a secret: the OpenAPI document names none, and probing finds none', async () => {
    const doc = await tp.json('/functions/v1/credentials/openapi.json')
    const text = JSON.stringify(doc.body)
    expect(Object.keys(doc.body.paths).sort()).toEqual(
      [
        '/',
        '/jobs/expiry-alerts',
        '/jobs/prune-usage',
        '/providers',
        '/{id}',
        '/{id}/rotate',
        '/{id}/usage',
      ].sort(),
    )
    const responseSchemas = Object.entries(doc.body.components.schemas)
      .filter(
        ([name]) => !name.startsWith('Create') && !name.startsWith('Rotate') && !name.startsWith('Update'),
      )
      .map(([, s]) => JSON.stringify(s))
    for (const s of responseSchemas) expect(s).not.toMatch(/"(credential|secret|secret_ciphertext)"/)
    expect(text).not.toContain('secret_ciphertext')
    const created = (await tp.json('/api/credentials', { token: a.token, body: body() })).body
    for (const path of [
      `/api/credentials/${created.id}/secret`,
      `/api/credentials/${created.id}/use`,
      '/api/credentials/use',
    ]) {
      for (const headers of [
        { authorization: `Bearer ${a.token}` } as Record<string, string>,
        { apikey: tp.serviceRoleKey },
      ]) {
        const res = await tp.request(path, { headers, method: 'POST', body: {} })
        // 405: `/use` is a credential id to GET /{id}, which takes no POST.
        expect([400, 401, 404, 405]).toContain(res.status)
      }
    }
  })
})

describe('tenant isolation', () => {
  it("tenant B cannot list, read, update, rotate, delete, read the usage of, or use tenant A's credentials", async () => {
    const secret = newSecret()
    const created = (
      await tp.json('/api/credentials', {
        token: a.token,
        body: body({ credential: secret, provider_id: providerId('stripe') }),
      })
    ).body
    const id = created.id
    const list = await tp.json('/api/credentials?limit=100', { token: b.token })
    expect(list.body.data.map((c: { id: string }) => c.id)).not.toContain(id)
    const attempts = [
      tp.json(`/api/credentials/${id}`, { token: b.token }),
      tp.json(`/api/credentials/${id}`, { token: b.token, method: 'PATCH', body: { name: 'pwned' } }),
      tp.json(`/api/credentials/${id}/rotate`, {
        token: b.token,
        body: { credential: 'attacker-secret-value' },
      }),
      tp.json(`/api/credentials/${id}/usage`, { token: b.token }),
      tp.json(`/api/credentials/${id}`, { token: b.token, method: 'DELETE' }),
    ]
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(404)
      expect(res.body).toMatchObject({ error: 'Not Found', code: 'NOT_FOUND' })
    }
    const after = await tp.json(`/api/credentials/${id}`, { token: a.token })
    expect(after.body).toEqual(created)
    // The server-side entry point refuses a cross-tenant request: B's tenant has no such credential.
    const req = {
      provider: 'stripe',
      environment: 'production' as const,
      callerKind: 'server_function' as const,
      functionName: 'sync-affiliate',
    }
    await expect(useCredential(deps(), { ...req, tenantId: b.tenantId })).rejects.toMatchObject({
      reason: 'not_found',
    })
    await expect(
      useCredential(deps(), { ...req, tenantId: b.tenantId, provider: providerId('stripe') }),
    ).rejects.toMatchObject({ reason: 'not_found' })
    expect((await useCredential(deps(), { ...req, tenantId: a.tenantId })).secret).toBe(secret)
    // A ciphertext moved into another tenant's row does not decrypt there (bound to tenant and row).
    const bCred = (
      await tp.json('/api/credentials', { token: b.token, body: body({ provider_id: providerId('stripe') }) })
    ).body
    await tp.db
      .sql`update public.credentials set secret_ciphertext = (select secret_ciphertext from public.credentials where id = ${id}) where id = ${bCred.id}`
    await expect(useCredential(deps(), { ...req, tenantId: b.tenantId })).rejects.toMatchObject({
      reason: 'undecryptable',
    })
  })
})
