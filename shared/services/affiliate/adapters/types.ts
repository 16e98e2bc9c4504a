import type { FunctionDeps } from '@shared/infra/deps.ts'
import type { FeedEntry } from '../product.ts'
import type { Network } from '../schema.ts'

/** A program as the sync reads it. */
export interface ProgramRow {
  id: string
  tenant_id: string
  destination_id: string
  network: Network
  name: string
  merchant_ids: string[]
  config: Record<string, unknown>
  tracking_id: string | null
  credential_name: string | null
  currency: string | null
  created_at: Date
}

interface AdapterRun {
  deps: Pick<FunctionDeps, 'fetch' | 'config'>
  program: ProgramRow
  /** The vault credential's plaintext; null for a generic feed without one. */
  secret: string | null
}

/** One network: streams the program's catalog as normalised products (or skips with reasons). */
export type Adapter = (run: AdapterRun) => AsyncIterable<FeedEntry>

/** Keeps only the merchants the program names (all when it names none). */
export const merchantAllowed = (program: ProgramRow, merchantId: unknown) =>
  program.merchant_ids.length === 0 || program.merchant_ids.includes(String(merchantId ?? ''))
