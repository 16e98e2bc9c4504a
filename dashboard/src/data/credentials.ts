/** The workspace's credentials (keys of other services), and the plan's usage for the assistant's quota. */
import { call, platform, type Schema } from '../api.ts'
import { useLoad } from './load.ts'

export const useCredentials = () =>
  useLoad(() => call(platform.GET('/api/credentials', { params: { query: { limit: 100 } } })))

export type Provider = Schema<'Provider'>

export const useProviders = () => useLoad(() => call(platform.GET('/api/providers')))
/** The credentials (the first 100), of one environment when given. */
export const useCredentialList = (environment: string) =>
  useLoad(
    () =>
      call(
        platform.GET('/api/credentials', {
          params: { query: { limit: 100, ...(environment && { environment: environment as Environment }) } },
        }),
      ),
    [environment],
  )
export type Environment = Schema<'CreateCredential'>['environment']
export const createCredential = (body: Schema<'CreateCredential'>) =>
  call(platform.POST('/api/credentials', { body }))
export const rotateCredential = (id: string, body: Schema<'RotateCredential'>) =>
  call(platform.POST('/api/credentials/{id}/rotate', { params: { path: { id } }, body }))
export const deleteCredential = (id: string) =>
  call(platform.DELETE('/api/credentials/{id}', { params: { path: { id } } }))
/** Name, scopes, expiry or base URL (an OpenAI-compatible credential's model endpoint; null: the platform's). */
export const updateCredential = (id: string, body: Schema<'UpdateCredential'>) =>
  call(platform.PATCH('/api/credentials/{id}', { params: { path: { id } }, body }))
export type Credential = Schema<'Credential'>
