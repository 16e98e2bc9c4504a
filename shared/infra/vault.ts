import { fromBase64, randomBytes, toBase64 } from './crypto.ts'
import type { Queryable } from './db.ts'

/**
 * Envelope encryption for stored secrets (credentials, OAuth tokens, MCP auth tokens).
 *
 * Each tenant has a random AES-256 data key; the data key is stored wrapped (AES-256-GCM) by
 * the master key from the environment. Ciphertexts name their data-key version, and data keys
 * name the master-key version that wraps them, so rotating the master key only re-wraps the
 * small data-key table: no ciphertext has to change.
 *
 * Ciphertext text format: `v1:<data key version>:<base64(iv || ciphertext+tag)>`.
 * The additional authenticated data binds each ciphertext to its tenant and purpose, so a
 * ciphertext copied to another tenant or another column fails to decrypt instead of leaking.
 *
 * Data-key reads use the owner connection (the table is in schema `private`, never exposed).
 * Call the vault outside a tenant transaction: the embedded database serialises transactions,
 * so a second connection's query inside one would wait for it forever.
 */

const FORMAT = 'v1'
const IV_BYTES = 12
const encoder = new TextEncoder()
const decoder = new TextDecoder()

export class VaultError extends Error {
  override name = 'VaultError'
}

interface MasterKey {
  version: string
  key: CryptoKey
}

async function parseMasterKeys(spec: string): Promise<MasterKey[]> {
  const entries = spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  if (entries.length === 0) throw new VaultError('VAULT_MASTER_KEYS is empty')
  return Promise.all(
    entries.map(async (entry) => {
      const [version, material] = entry.split(':')
      if (!version || !material) throw new VaultError('VAULT_MASTER_KEYS entries look like "v1:<base64>"')
      const raw = fromBase64(material)
      if (raw.length !== 32) throw new VaultError(`master key ${version} must be 32 bytes`)
      const key = await crypto.subtle.importKey('raw', raw as Uint8Array<ArrayBuffer>, 'AES-GCM', false, [
        'encrypt',
        'decrypt',
      ])
      return { version, key }
    }),
  )
}

async function seal(key: CryptoKey, plaintext: Uint8Array, aad: string): Promise<Uint8Array> {
  const iv = randomBytes(IV_BYTES)
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt(
      { name: 'AES-GCM', iv: iv as Uint8Array<ArrayBuffer>, additionalData: encoder.encode(aad) },
      key,
      plaintext as Uint8Array<ArrayBuffer>,
    ),
  )
  const out = new Uint8Array(IV_BYTES + sealed.length)
  out.set(iv)
  out.set(sealed, IV_BYTES)
  return out
}

async function open(key: CryptoKey, box: Uint8Array, aad: string): Promise<Uint8Array> {
  if (box.length <= IV_BYTES + 16) throw new VaultError('ciphertext too short')
  try {
    return new Uint8Array(
      await crypto.subtle.decrypt(
        {
          name: 'AES-GCM',
          iv: box.subarray(0, IV_BYTES) as Uint8Array<ArrayBuffer>,
          additionalData: encoder.encode(aad),
        },
        key,
        box.subarray(IV_BYTES) as Uint8Array<ArrayBuffer>,
      ),
    )
  } catch {
    // GCM authentication failed: tampered, truncated, or moved to another tenant/purpose.
    throw new VaultError('ciphertext failed authentication')
  }
}

interface DataKeyRow {
  version: number
  wrapped_key: Uint8Array
  master_version: string
}

export class Vault {
  /** Unwrapped data keys by `${tenant}:${version}`; immutable once created, so safe to cache. */
  private readonly dataKeys = new Map<string, Promise<CryptoKey>>()

  private constructor(
    private readonly db: Queryable,
    private readonly masters: MasterKey[],
  ) {}

  static async create(db: Queryable, masterKeys: string): Promise<Vault> {
    return new Vault(db, await parseMasterKeys(masterKeys))
  }

  get currentMasterVersion(): string {
    return this.masters[0]!.version
  }

  async encrypt(tenantId: string, plaintext: string, purpose: string): Promise<string> {
    const { version, key } = await this.currentDataKey(tenantId)
    const box = await seal(key, encoder.encode(plaintext), `${tenantId}|${purpose}`)
    return `${FORMAT}:${version}:${toBase64(box)}`
  }

  async decrypt(tenantId: string, ciphertext: string, purpose: string): Promise<string> {
    const [format, versionText, body] = ciphertext.split(':')
    const version = Number(versionText)
    if (format !== FORMAT || !Number.isInteger(version) || !body)
      throw new VaultError('unrecognised ciphertext')
    let box: Uint8Array
    try {
      box = fromBase64(body)
    } catch {
      throw new VaultError('unrecognised ciphertext')
    }
    const key = await this.dataKey(tenantId, version)
    return decoder.decode(await open(key, box, `${tenantId}|${purpose}`))
  }

  /** Master-key rotation: re-wraps every data key not yet under the newest master key. */
  async rewrapDataKeys(): Promise<{ rewrapped: number }> {
    const current = this.masters[0]!
    const rows = await this.db<(DataKeyRow & { tenant_id: string })[]>`
      select tenant_id, version, wrapped_key, master_version from private.tenant_data_keys
      where master_version <> ${current.version}`
    for (const row of rows) {
      const raw = await this.unwrap(row.tenant_id, row)
      const wrapped = await seal(current.key, raw, `datakey|${row.tenant_id}|${row.version}`)
      await this.db`
        update private.tenant_data_keys set wrapped_key = ${wrapped}, master_version = ${current.version}, rewrapped_at = now()
        where tenant_id = ${row.tenant_id} and version = ${row.version} and master_version = ${row.master_version}`
    }
    return { rewrapped: rows.length }
  }

  private async currentDataKey(tenantId: string): Promise<{ version: number; key: CryptoKey }> {
    // Version 1 is the only data-key version created today; the column leaves room to rotate.
    const version = 1
    return { version, key: await this.dataKey(tenantId, version, true) }
  }

  private dataKey(tenantId: string, version: number, createIfMissing = false): Promise<CryptoKey> {
    const cacheKey = `${tenantId}:${version}`
    let pending = this.dataKeys.get(cacheKey)
    if (!pending) {
      pending = this.loadDataKey(tenantId, version, createIfMissing)
      this.dataKeys.set(cacheKey, pending)
      pending.catch(() => this.dataKeys.delete(cacheKey))
    }
    return pending
  }

  private async loadDataKey(tenantId: string, version: number, createIfMissing: boolean): Promise<CryptoKey> {
    let [row] = await this.db<DataKeyRow[]>`
      select version, wrapped_key, master_version from private.tenant_data_keys
      where tenant_id = ${tenantId} and version = ${version}`
    if (!row && createIfMissing) {
      const master = this.masters[0]!
      const wrapped = await seal(master.key, randomBytes(32), `datakey|${tenantId}|${version}`)
      // Several instances may race to create the key: the first insert wins, all read it back.
      await this.db`
        insert into private.tenant_data_keys (tenant_id, version, wrapped_key, master_version)
        values (${tenantId}, ${version}, ${wrapped}, ${master.version})
        on conflict (tenant_id, version) do nothing`
      ;[row] = await this.db<DataKeyRow[]>`
        select version, wrapped_key, master_version from private.tenant_data_keys
        where tenant_id = ${tenantId} and version = ${version}`
    }
    if (!row) throw new VaultError('no data key for this tenant')
    const raw = await this.unwrap(tenantId, row)
    return crypto.subtle.importKey('raw', raw as Uint8Array<ArrayBuffer>, 'AES-GCM', false, [
      'encrypt',
      'decrypt',
    ])
  }

  private async unwrap(tenantId: string, row: DataKeyRow): Promise<Uint8Array> {
    const master = this.masters.find((m) => m.version === row.master_version)
    if (!master) throw new VaultError(`master key ${row.master_version} is not configured`)
    return open(master.key, new Uint8Array(row.wrapped_key), `datakey|${tenantId}|${row.version}`)
  }
}
