/** API keys and what they did: the typed calls and the hooks the key pages load them with. */
import { call, platform, type Schema } from '../api.ts'
import { useLoad } from './load.ts'

export type ApiKey = Schema<'ApiKey'>
export type NewApiKey = Schema<'CreateApiKey'>
export type RequestLogEntry = Schema<'RequestLogEntry'>
/** One hour of a key's last 24: requests, and those refused. */
export type Hour = Schema<'KeyRequests'>['hours'][number]
export type RequestLogFilter = { key_id?: string; status?: string; path?: string; cursor?: string }

/** The workspace's keys, newest first (the first 100). */
export const listApiKeys = () => call(platform.GET('/api/api-keys', { params: { query: { limit: 100 } } }))
export const useApiKeys = () => useLoad(listApiKeys)

export const useApiKey = (id: string) =>
  useLoad(() => call(platform.GET('/api/api-keys/{id}', { params: { path: { id } } })), [id])

export const createApiKey = (body: NewApiKey) => call(platform.POST('/api/api-keys', { body }))

export const revokeApiKey = (id: string) =>
  call(platform.POST('/api/api-keys/{id}/revoke', { params: { path: { id } } }))

/** A key's latest requests and its last 24 hours by hour. */
export const useKeyRequests = (id: string) =>
  useLoad(() => call(platform.GET('/api/api-keys/{id}/requests', { params: { path: { id } } })), [id])

/** A page of the request log (50 rows), newest first. */
export const requestLogPage = (filter: RequestLogFilter) =>
  call(platform.GET('/api/request-log', { params: { query: { limit: 50, ...filter } } }))
