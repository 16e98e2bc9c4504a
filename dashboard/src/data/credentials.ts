/** The workspace's credentials (keys of other services), and the plan's usage for the assistant's quota. */
import { call, platform, type Schema } from '../api.ts'
import { useLoad } from './load.ts'

export type Credential = Schema<'Credential'>

export const useCredentials = () =>
  useLoad(() => call(platform.GET('/api/credentials', { params: { query: { limit: 100 } } })))
