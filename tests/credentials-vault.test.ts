import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { functionEnvironment } from '../local-platform/local-env.ts'
import { createPlatform, type Platform } from '../local-platform/server.ts'
import { fromBase64, randomBase62, toBase64 } from '../shared/infra/crypto.ts'
import { VaultError } from '../shared/infra/vault.ts'
import {
  credentialPurpose,
  type UseCredentialRequest,
  useCredential,
} from '../shared/services/credentials/use-credential.ts'
import { startTestPlatform, type TestPlatform, type TestTenant } from './support/platform.ts'

const run = promisify(execFile)

// Every log line the platform writes during this file (LOG_LEVEL=debug), to check for secrets.
const logLines: string[] = []
let tp: TestPlatform
let a: TestTenant
let b: TestTenant
let providers: Record<string, string>
/** Every secret this file ever sends, current or rotated away. */
const secrets: string[] = []
/** Every response body this file receives from the vault API. */
const responses: string[] = []
/** The master keys after the rotation test: "v2:<new>,v1:<old>". */
let rotatedKeys = ''

beforeAll(async () => {
  for (const method of ['log', 'error', 'warn', 'info'] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      logLines.push(args.map(String).join(' '))
    })
  }
  tp = await startTestPlatform({ env: { LOG_LEVEL: 'debug' } })
  a = await tp.createTenant()
  b = await tp.createTenant()
  const list = (await tp.json('/api/providers', { token: a.token })).body.data as {
    id: string
    slug: string
  }[]
  providers = Object.fromEntries(list.map((p) => [p.slug, p.id]))
})
afterAll(async () => {
  await tp.close()
  vi.restoreAllMocks()
})

async function call(path: string, opts: Parameters<TestPlatform['json']>[1]) {
  const res = await tp.json(path, opts)
  responses.push(JSON.stringify(res.body ?? null))
  return res
}

async function create(t: TestTenant, slug: string, secret: string, extra: Record<string, unknown> = {}) {
  secrets.push(secret)
  const res = await call('/api/credentials', {
    token: t.token,
    body: {
      provider_id: providers[slug],
      name: `${slug}-${randomBase62(6)}`,
      environment: 'production',
      credential: secret,
      scopes: [],
      ...extra,
    },
  })
  return res
}

const useReq = (t: TestTenant, provider: string, name?: string): UseCredentialRequest => ({
  tenantId: t.tenantId,
  provider,
  environment: 'production',
  callerKind: 'server_function',
  functionName: 'vault-test',
  ...(name && { name }),
})

/**
 * Every column of a text-like, JSON, array or bytea type in every table of every non-system
 * schema, searched for each secret (as text, and as base64 in case something encoded it).
 */
async function findPlaintext(needles: string[]): Promise<string[]> {
  const columns = await tp.db.sql<{ schema: string; table: string; column: string; type: string }[]>`
    select n.nspname as schema, c.relname as table, a.attname as column, t.typname as type
    from pg_attribute a
    join pg_class c on c.oid = a.attrelid
    join pg_namespace n on n.oid = c.relnamespace
    join pg_type t on t.oid = a.atttypid
    where c.relkind in ('r', 'p', 'm') and a.attnum > 0 and not a.attisdropped
      and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_%'
      and t.typname in ('text', 'varchar', 'bpchar', 'name', 'json', 'jsonb', 'bytea', 'xml',
                        '_text', '_varchar', '_json', '_jsonb', 'citext')`
  expect(columns.length).toBeGreaterThan(20)
  const tables = new Set(columns.map((c) => `${c.schema}.${c.table}`))
  for (const must of [
    'public.credentials',
    'public.credential_usage',
    'public.notifications',
    'public.event_outbox',
    'private.tenant_data_keys',
  ]) {
    expect(tables.has(must), must).toBe(true)
  }
  const patterns = needles.flatMap((s) => [`%${s}%`, `%${Buffer.from(s).toString('base64').slice(0, -4)}%`])
  const found: string[] = []
  for (const col of columns) {
    const ident = `"${col.column.replace(/"/g, '""')}"`
    const expr = col.type === 'bytea' ? `encode(${ident}, 'escape')` : `${ident}::text`
    const [hit] = await tp.db.sql.unsafe(
      `select count(*)::int as n from "${col.schema}"."${col.table}" where ${expr} like any ($1::text[])`,
      [patterns],
    )
    if (hit!.n > 0) found.push(`${col.schema}.${col.table}.${col.column}`)
  }
  return found
}

describe('no plaintext anywhere', () => {
  it('the scan finds a secret planted in a text, a jsonb or a bytea column, plain or base64', async () => {
    const canary = `canary${randomBase62(30)}`
    const [n] = await tp.db.sql`
      insert into public.notifications (tenant_id, kind, recipient, subject, body)
      values (${a.tenantId}, 'test', 'x@example.com', 'subject', ${`see ${canary}.`}) returning id`
    expect(await findPlaintext([canary])).toEqual(['public.notifications.body'])
    await tp.db.sql`delete from public.notifications where id = ${n!.id}`
    await tp.db
      .sql`insert into public.event_outbox (id, tenant_id, type, data) values ('evt_canary', ${a.tenantId}, 'tenant.updated', ${tp.db.sql.json({ k: Buffer.from(canary).toString('base64') })})`
    expect(await findPlaintext([canary])).toEqual(['public.event_outbox.data'])
    await tp.db.sql`delete from public.event_outbox where id = 'evt_canary'`
    await tp.db
      .sql`insert into private.tenant_data_keys (tenant_id, version, wrapped_key, master_version) values (${a.tenantId}, 99, ${Buffer.from(`x${canary}x`)}, 'v0')`
    expect(await findPlaintext([canary])).toEqual(['private.tenant_data_keys.wrapped_key'])
    await tp.db.sql`delete from private.tenant_data_keys where version = 99`
    expect(await findPlaintext([canary])).toEqual([])
  })

  it('no table, log line, error message or response holds a secret after create, rotate, use, alerts and failures', async () => {
    const made: { t: TestTenant; slug: string; id: string; name: string }[] = []
    const cases: [TestTenant, string, string][] = [
      [a, 'openai', `sk-proj-${randomBase62(48)}`],
      [a, 'anthropic', `sk-ant-${randomBase62(90)}`],
      [a, 'stripe', `rk_live_${randomBase62(99)}`],
      [a, 'aws', randomBase62(7)],
      [a, 'github', randomBase62(6)],
      [
        a,
        'google-cloud',
        JSON.stringify({
          type: 'service_account',
          private_key: `-----BEGIN PRIVATE KEY-----\n${randomBase62(1600)}\n-----END PRIVATE KEY-----\n`,
        }),
      ],
      [b, 'openai', `sk-proj-${randomBase62(48)}`],
      [b, 'apify', `apify_api_${randomBase62(36)}`],
    ]
    for (const [t, slug, secret] of cases) {
      const res = await create(t, slug, secret, {
        expires_at: new Date(Date.now() + 3 * 86_400_000).toISOString(),
      })
      expect(res.status).toBe(201)
      made.push({ t, slug, id: res.body.id, name: res.body.name })
    }
    // Rotate some (the old secrets must be gone too).
    for (const m of made.slice(0, 3)) {
      const next = `rotated-${randomBase62(40)}`
      secrets.push(next)
      expect(
        (await call(`/api/credentials/${m.id}/rotate`, { token: m.t.token, body: { credential: next } }))
          .status,
      ).toBe(200)
    }
    // Use every one of them server-side.
    for (const m of made) {
      const used = await useCredential(tp.instances[0]!.platform.deps, useReq(m.t, m.slug, m.name))
      expect(secrets).toContain(used.secret)
    }
    // Failures that carry a secret: unknown provider, duplicate, unknown field, too long, rotate of another tenant's.
    const failing = [
      {
        provider_id: '00000000-0000-4000-8000-000000000000',
        name: 'x',
        environment: 'production',
        credential: `fail-${randomBase62(30)}`,
        scopes: [],
      },
      {
        provider_id: providers.openai,
        name: made[0]!.name,
        environment: 'production',
        credential: `dup-${randomBase62(30)}`,
        scopes: [],
      },
      {
        provider_id: providers.openai,
        name: 'y',
        environment: 'production',
        credential: `extra-${randomBase62(30)}`,
        scopes: [],
        token: 'abc',
      },
      {
        provider_id: providers.openai,
        name: 'z',
        environment: 'qa',
        credential: `env-${randomBase62(30)}`,
        scopes: [],
      },
    ]
    for (const f of failing) {
      secrets.push(f.credential)
      const res = await call('/api/credentials', { token: a.token, body: f })
      expect(res.status).toBeGreaterThanOrEqual(400)
    }
    const stolen = `steal-${randomBase62(30)}`
    secrets.push(stolen)
    expect(
      (await call(`/api/credentials/${made[0]!.id}/rotate`, { token: b.token, body: { credential: stolen } }))
        .status,
    ).toBe(404)
    // Expiry alerts mention the credentials (name, hint), never their secrets.
    const job = await tp.instances[0]!.platform.runJob('credentials/jobs/expiry-alerts')
    expect(job.status).toBe(200)
    expect((await job.json()).notified).toBeGreaterThan(0)
    // Reads of every kind.
    for (const t of [a, b]) await call('/api/credentials?limit=100', { token: t.token })
    for (const m of made) {
      await call(`/api/credentials/${m.id}`, { token: m.t.token })
      await call(`/api/credentials/${m.id}/usage`, { token: m.t.token })
    }

    expect(await findPlaintext(secrets)).toEqual([])
    // The 6-character secret is masked in its hint; the 7-character one shows 6 of 7 by the spec's rule.
    const [masked] = await tp.db.sql`select key_hint from public.credentials where id = ${made[4]!.id}`
    expect(masked!.key_hint).toBe('...******')
    for (const s of secrets) {
      for (const body of responses) expect(body.includes(s), 'a response carries a secret').toBe(false)
      for (const line of logLines) expect(line.includes(s), 'a log line carries a secret').toBe(false)
    }
    expect(logLines.some((l) => l.includes('"fn":"credentials"'))).toBe(true)
  })
})

describe('tamper detection', () => {
  it('refuses a ciphertext with any flipped byte (IV, body or tag), a truncated one, or another key version', async () => {
    const secret = `sk-${randomBase62(40)}`
    const created = (await create(a, 'mistral', secret)).body
    const [row] = await tp.db.sql<
      { secret_ciphertext: string }[]
    >`select secret_ciphertext from public.credentials where id = ${created.id}`
    const original = row!.secret_ciphertext
    const [format, version, body] = original.split(':')
    const box = fromBase64(body!)
    const deps = tp.instances[0]!.platform.deps
    const variants: string[] = []
    for (const at of [0, 11, 12, Math.floor(box.length / 2), box.length - 16, box.length - 1]) {
      const flipped = new Uint8Array(box)
      flipped[at]! ^= 0x01
      variants.push(`${format}:${version}:${toBase64(flipped)}`)
    }
    variants.push(`${format}:${version}:${toBase64(box.subarray(0, box.length - 1))}`)
    variants.push(`${format}:2:${body}`)
    for (const tampered of variants) {
      await tp.db.sql`update public.credentials set secret_ciphertext = ${tampered} where id = ${created.id}`
      const err = await useCredential(deps, useReq(a, 'mistral')).catch((e) => e)
      expect(err?.reason, tampered).toBe('undecryptable')
      expect(String(err)).not.toContain(secret)
      await expect(
        deps.vault.decrypt(a.tenantId, tampered, credentialPurpose(created.id)),
      ).rejects.toBeInstanceOf(VaultError)
    }
    // Bound to the row: the right ciphertext under another credential's id does not decrypt.
    await expect(
      deps.vault.decrypt(a.tenantId, original, credentialPurpose(crypto.randomUUID())),
    ).rejects.toBeInstanceOf(VaultError)
    await tp.db.sql`update public.credentials set secret_ciphertext = ${original} where id = ${created.id}`
    expect((await useCredential(deps, useReq(a, 'mistral'))).secret).toBe(secret)
    // The database refuses anything that is not a vault ciphertext.
    await expect(
      tp.db.sql`update public.credentials set secret_ciphertext = ${secret} where id = ${created.id}`,
    ).rejects.toThrow(/check constraint/)
  })
})

describe('master-key rotation', () => {
  it('re-wraps every data key under the new master key; every credential stays readable with the new key alone', async () => {
    const before = await tp.db.sql<
      { id: string; tenant_id: string }[]
    >`select id, tenant_id from public.credentials`
    expect(before.length).toBeGreaterThan(5)
    const tsx = ['--import', 'tsx', 'scripts/rotate-master-key.ts']
    const generated = await run(process.execPath, [...tsx, '--generate', 'v2'], { env: process.env })
    const newKey = generated.stdout.trim()
    expect(newKey).toMatch(/^v2:[A-Za-z0-9+/]{43}=$/)
    const oldKeys = tp.localEnv.masterKeys
    rotatedKeys = `${newKey},${oldKeys}`
    const env = { ...process.env, DATABASE_URL: tp.db.url, VAULT_MASTER_KEYS: rotatedKeys }
    const out = await run(process.execPath, tsx, { env })
    const report = JSON.parse(out.stdout)
    expect(report).toMatchObject({
      masterVersion: 'v2',
      rewrapped: 2,
      dataKeysNotRewrapped: 0,
      credentialsFailed: [],
    })
    expect(report.credentialsVerified).toBe(before.length)
    const keys = await tp.db.sql`select master_version from private.tenant_data_keys`
    expect(keys.map((k) => k.master_version)).toEqual(['v2', 'v2'])
    // Running it again is a no-op.
    expect(JSON.parse((await run(process.execPath, tsx, { env })).stdout)).toMatchObject({
      rewrapped: 0,
      credentialsFailed: [],
    })

    // A platform configured with only the new key reads every credential and stores new ones.
    const platformWith = (masterKeys: string): Promise<Platform> =>
      createPlatform({
        env: {
          ...functionEnvironment(tp.localEnv, tp.db.url),
          VAULT_MASTER_KEYS: masterKeys,
          LOG_LEVEL: 'silent',
        },
        localEnv: tp.localEnv,
      })
    const fresh = await platformWith(newKey)
    const old = await platformWith(oldKeys)
    try {
      const rows = await tp.db.sql<{ id: string; tenant_id: string; name: string; slug: string }[]>`
        select c.id, c.tenant_id, c.name, p.slug from public.credentials c join public.providers p on p.id = c.provider_id`
      for (const r of rows) {
        const used = await useCredential(fresh.deps, {
          ...useReq(r.tenant_id === a.tenantId ? a : b, r.slug, r.name),
        })
        expect(used.id).toBe(r.id)
        // The retired key alone no longer opens the data keys.
        await expect(
          useCredential(old.deps, useReq(r.tenant_id === a.tenantId ? a : b, r.slug, r.name)),
        ).rejects.toMatchObject({
          reason: 'undecryptable',
        })
      }
      const res = await fresh.fetch(
        new Request('http://local/api/credentials', {
          method: 'POST',
          headers: { authorization: `Bearer ${a.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            provider_id: providers.resend,
            name: 'after rotation',
            environment: 'production',
            credential: 're_after_rotation_1',
            scopes: [],
          }),
        }),
      )
      expect(res.status).toBe(201)
      expect((await useCredential(fresh.deps, useReq(a, 'resend'))).secret).toBe('re_after_rotation_1')
    } finally {
      await fresh.close()
      await old.close()
    }
  })

  it('reports (exit status 1, ids only) a credential that no longer decrypts', async () => {
    const created = (await create(b, 'sentry', `sntrys_${randomBase62(40)}`)).body
    const [row] = await tp.db.sql<
      { secret_ciphertext: string }[]
    >`select secret_ciphertext from public.credentials where id = ${created.id}`
    const [f, v, body] = row!.secret_ciphertext.split(':')
    const box = fromBase64(body!)
    box[20]! ^= 0xff
    await tp.db
      .sql`update public.credentials set secret_ciphertext = ${`${f}:${v}:${toBase64(box)}`} where id = ${created.id}`
    expect(rotatedKeys).not.toBe('')
    const err = await run(process.execPath, ['--import', 'tsx', 'scripts/rotate-master-key.ts'], {
      env: { ...process.env, DATABASE_URL: tp.db.url, VAULT_MASTER_KEYS: rotatedKeys },
    }).catch((e) => e)
    expect(err.code).toBe(1)
    const report = JSON.parse(err.stdout)
    expect(report.credentialsFailed).toEqual([{ id: created.id, tenant_id: b.tenantId }])
    expect(err.stdout + err.stderr).not.toContain(rotatedKeys.split(',')[0]!.slice(3))
  })
})
