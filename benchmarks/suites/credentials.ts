/**
 * Credentials vault: create over HTTP and the server-side read, against raw AES-256-GCM of the
 * same bytes through WebCrypto in the same run (the floor the envelope scheme builds on).
 */

import { randomBase62 } from '@shared/infra/crypto.ts'
import { useCredential } from '@shared/services/credentials/use-credential.ts'
import { startTestPlatform } from '@tests/support/platform.ts'
import { measure, printComparison, printMeasurement } from '../lib.ts'

export default async function (): Promise<void> {
  const tp = await startTestPlatform()
  try {
    // Several tenants, as in real traffic: one user's requests share one rate-limit counter row.
    const tenants = await Promise.all(Array.from({ length: 8 }, () => tp.createTenant()))
    const tenant = tenants[0]!
    const providers = (await tp.json('/api/providers?category=AI', { token: tenant.token })).body.data as {
      id: string
      slug: string
    }[]
    const openai = providers.find((p) => p.slug === 'openai')!.id
    // A typical provider key: ~56 characters.
    const secret = `sk-proj-${randomBase62(48)}`
    const bytes = new TextEncoder().encode(secret)

    const create = await measure(
      'POST /api/credentials (HTTP, encrypt + insert)',
      async (i) => {
        const res = await tp.request('/api/credentials', {
          token: tenants[i % tenants.length]!.token,
          body: {
            provider_id: openai,
            name: `bench ${i} ${randomBase62(6)}`,
            environment: 'production',
            credential: secret,
            scopes: [],
          },
        })
        if (res.status !== 201) throw new Error(`create answered ${res.status}: ${await res.text()}`)
        await res.arrayBuffer()
      },
      { total: 400, concurrency: 8, warmup: 20 },
    )

    // One credential in staging, read the way server functions read it.
    const named = await tp.json('/api/credentials', {
      token: tenant.token,
      body: { provider_id: openai, name: 'read me', environment: 'staging', credential: secret, scopes: [] },
    })
    if (named.status !== 201) throw new Error('setup failed')
    const deps = tp.instances[0]!.platform.deps
    const read = await measure(
      'useCredential (select + decrypt + usage record)',
      async () => {
        const got = await useCredential(deps, {
          tenantId: tenant.tenantId,
          provider: 'openai',
          environment: 'staging',
          callerKind: 'server_function',
          functionName: 'bench',
        })
        if (got.secret !== secret) throw new Error('wrong secret')
      },
      { total: 1000, concurrency: 8 },
    )

    const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, [
      'encrypt',
      'decrypt',
    ])
    const iv = crypto.getRandomValues(new Uint8Array(12))
    const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, bytes)
    const encrypt = await measure(
      'raw AES-256-GCM encrypt (WebCrypto, same bytes)',
      () =>
        crypto.subtle.encrypt(
          { name: 'AES-GCM', iv: crypto.getRandomValues(new Uint8Array(12)) },
          key,
          bytes,
        ),
      { total: 20_000, concurrency: 8 },
    )
    const decrypt = await measure(
      'raw AES-256-GCM decrypt (WebCrypto, same bytes)',
      () => crypto.subtle.decrypt({ name: 'AES-GCM', iv }, key, sealed),
      { total: 20_000, concurrency: 8 },
    )

    // The envelope alone (tenant data key cached after first use): what the vault adds to raw GCM.
    const purpose = 'credential:00000000-0000-4000-8000-000000000000'
    const ciphertext = await deps.vault.encrypt(tenant.tenantId, secret, purpose)
    const vaultEncrypt = await measure(
      'vault.encrypt (envelope, same bytes)',
      () => deps.vault.encrypt(tenant.tenantId, secret, purpose),
      {
        total: 20_000,
        concurrency: 8,
      },
    )
    const vaultDecrypt = await measure(
      'vault.decrypt (envelope, same bytes)',
      () => deps.vault.decrypt(tenant.tenantId, ciphertext, purpose),
      {
        total: 20_000,
        concurrency: 8,
      },
    )

    const times = (base: { perSecond: number }, m: { perSecond: number }) =>
      `${(base.perSecond / m.perSecond).toFixed(1)}x`
    printComparison('credential create vs raw encrypt', create, encrypt)
    printMeasurement(vaultEncrypt)
    console.log(
      `  create costs ${times(encrypt, create)} a raw encrypt; the envelope alone ${times(encrypt, vaultEncrypt)}`,
    )
    printComparison('server-side credential read vs raw decrypt', read, decrypt)
    printMeasurement(vaultDecrypt)
    console.log(
      `  a server-side read costs ${times(decrypt, read)} a raw decrypt; the envelope alone ${times(decrypt, vaultDecrypt)}`,
    )
  } finally {
    await tp.close()
  }
}
