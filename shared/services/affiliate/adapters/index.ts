import type { Network } from '../schema.ts'
import { amazonAdapter } from './amazon.ts'
import { awinAdapter } from './awin.ts'
import { cjAdapter } from './cj.ts'
import { feedAdapter } from './feed.ts'
import type { Adapter } from './types.ts'

/** One adapter per network. */
export const adapters: Record<Network, Adapter> = {
  awin: awinAdapter,
  cj: cjAdapter,
  amazon: amazonAdapter,
  feed: feedAdapter,
}
