/** MCP clients: a client's authorization request (the consent page) and the clients connected. */
import { call, platform, type Schema } from '../api.ts'
import { useLoad } from './load.ts'

export const useAuthorizationRequest = (id: string) =>
  useLoad(() => call(platform.GET('/mcp/oauth/requests/{id}', { params: { path: { id } } })), [id])
export const decideAuthorization = (id: string, approve: boolean, toolSearch = false) =>
  call(
    platform.POST('/mcp/oauth/requests/{id}/decision', {
      params: { path: { id } },
      body: { approve, ...(approve && toolSearch && { tool_listing: 'search' as const }) },
    }),
  )
export const useMcpClients = () => useLoad(() => call(platform.GET('/api/mcp-clients')))
export const revokeMcpClient = (id: string) =>
  call(platform.DELETE('/api/mcp-clients/{id}', { params: { path: { id } } }))
