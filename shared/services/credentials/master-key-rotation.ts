import type { Sql } from '@shared/infra/db.ts'
import { Vault, VaultError } from '@shared/infra/vault.ts'
import { credentialPurpose } from './use-credential.ts'

export interface MasterKeyRotationReport {
  /** The master-key version every data key is now wrapped by. */
  masterVersion: string
  rewrapped: number
  /** Data keys still wrapped by an older master key (a concurrent writer on old config). */
  dataKeysNotRewrapped: number
  credentialsVerified: number
  /** Credentials that did not decrypt under the newest master key alone (ids only). */
  credentialsFailed: { id: string; tenant_id: string }[]
}

/**
 * Master-key rotation: re-wraps every tenant data key under the newest master key of
 * `masterKeys` ("v2:<new>,v1:<old>", newest first), then proves that every credential decrypts
 * with the newest key alone, so the old one can be retired. Ciphertexts are not touched: they
 * name their data-key version, and only the wrapping of data keys changes. Safe to run again.
 */
export async function rotateMasterKey(sql: Sql, masterKeys: string): Promise<MasterKeyRotationReport> {
  const vault = await Vault.create(sql, masterKeys)
  const { rewrapped } = await vault.rewrapDataKeys()
  const newest = masterKeys.split(',')[0]!.trim()
  const newestOnly = await Vault.create(sql, newest)
  const masterVersion = newestOnly.currentMasterVersion

  const [left] = await sql<{ n: number }[]>`
    select count(*)::int as n from private.tenant_data_keys where master_version <> ${masterVersion}`
  let credentialsVerified = 0
  const credentialsFailed: MasterKeyRotationReport['credentialsFailed'] = []
  // Batches by id (keyset) keep memory flat on large tables.
  let after = '00000000-0000-0000-0000-000000000000'
  for (;;) {
    const batch = await sql<{ id: string; tenant_id: string; secret_ciphertext: string }[]>`
      select id, tenant_id, secret_ciphertext from public.credentials where id > ${after} order by id limit 500`
    if (batch.length === 0) break
    for (const row of batch) {
      try {
        await newestOnly.decrypt(row.tenant_id, row.secret_ciphertext, credentialPurpose(row.id))
        credentialsVerified++
      } catch (err) {
        if (!(err instanceof VaultError)) throw err
        credentialsFailed.push({ id: row.id, tenant_id: row.tenant_id })
      }
    }
    after = batch[batch.length - 1]!.id
  }
  return { masterVersion, rewrapped, dataKeysNotRewrapped: left!.n, credentialsVerified, credentialsFailed }
}
