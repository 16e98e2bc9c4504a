/** Affiliate destinations, their programs, and the products sync-affiliate synced. */
import { type Body, call, platform, type Schema } from '../api.ts'
import { useLoad } from './load.ts'

export type Destination = Schema<'AffiliateDestination'>
export type Program = Schema<'AffiliateProgram'>
export type NewProgram = Body<'/api/affiliate/destinations/{id}/programs', 'post'>
export type NewDestination = Body<'/api/affiliate/destinations', 'post'>

export const useDestinations = () =>
  useLoad(() => call(platform.GET('/api/affiliate/destinations', { params: { query: { limit: 100 } } })))
/** A destination's latest products; read again after each run (`lastRun`). */
export const useProducts = (destination_id: string, lastRun: string | null) =>
  useLoad(
    () => call(platform.GET('/v1/products', { params: { query: { destination_id, limit: 10 } } })),
    [destination_id, lastRun],
  )
export const createDestination = (body: NewDestination) =>
  call(platform.POST('/api/affiliate/destinations', { body }))
export const setDestinationEnabled = (id: string, enabled: boolean) =>
  call(platform.PATCH('/api/affiliate/destinations/{id}', { params: { path: { id } }, body: { enabled } }))
export const deleteDestination = (id: string) =>
  call(platform.DELETE('/api/affiliate/destinations/{id}', { params: { path: { id } } }))
export const addProgram = (id: string, body: NewProgram) =>
  call(platform.POST('/api/affiliate/destinations/{id}/programs', { params: { path: { id } }, body }))
export const removeProgram = (id: string, program_id: string) =>
  call(
    platform.DELETE('/api/affiliate/destinations/{id}/programs/{program_id}', {
      params: { path: { id, program_id } },
    }),
  )
/** Asks sync-affiliate to sync the destination now (a job). */
export const syncNow = (destination_id: string) =>
  call(platform.POST('/api/affiliate', { body: { destination_id } }))
