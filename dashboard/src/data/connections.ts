/** The workspace's connections to integrations and MCP servers. */
import { call, platform, type Schema } from '../api.ts'
import { useLoad } from './load.ts'

export type Connection = Schema<'Connection'>

export const useConnections = () => useLoad(() => call(platform.GET('/api/connections')))
