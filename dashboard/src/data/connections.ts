/** The workspace's connections to integrations and MCP servers. */
import { call, platform, type Schema } from '../api.ts'
import { useLoad } from './load.ts'

export type Connection = Schema<'Connection'>

export const useConnections = () => useLoad(() => call(platform.GET('/api/connections')))

export type Integration = Schema<'Integration'>
export type Tool = Schema<'IntegrationTool'>
type Stats = Schema<'IntegrationStats'>
export type Period = Stats['period']

export const useCatalog = () => useLoad(() => call(platform.GET('/api/integrations')))
export const useConnection = (id: string) =>
  useLoad(() => call(platform.GET('/api/connections/{id}', { params: { path: { id } } })), [id])
export const usePermissions = (id: string) =>
  useLoad(() => call(platform.GET('/api/connections/{id}/permissions', { params: { path: { id } } })), [id])
/** Where to send the user to connect an integration with OAuth. */
export const authorizeUrl = (slug: string) =>
  call(platform.GET('/api/integrations/{slug}/authorize', { params: { path: { slug } } }))
export const connectMcpServer = (body: Schema<'ConnectMcpServer'>) =>
  call(platform.POST('/api/integrations/connect', { body }))
export const integrationStats = (id: string, period: Period) =>
  call(platform.GET('/api/integrations/{id}/stats', { params: { path: { id }, query: { period } } }))
export const discoverTools = (id: string) =>
  call(platform.POST('/api/connections/{id}/discover', { params: { path: { id } } }))
export const deleteConnection = (id: string) =>
  call(platform.DELETE('/api/connections/{id}', { params: { path: { id } } }))
export const renameConnection = (id: string, display_name: string) =>
  call(platform.PATCH('/api/connections/{id}', { params: { path: { id } }, body: { display_name } }))
export const setPermission = (id: string, body: Schema<'SetToolPermission'>) =>
  call(platform.POST('/api/connections/{id}/permissions', { params: { path: { id } }, body }))
