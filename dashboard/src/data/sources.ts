/** Sources (feeds, social profiles) scraped by scrape-social, and the items they collected. */
import { call, platform, type Schema } from '../api.ts'
import { useLoad } from './load.ts'

export type Source = Schema<'Source'>
export type NewSource = Schema<'CreateSource'>

export const useSources = () =>
  useLoad(() => call(platform.GET('/api/sources', { params: { query: { limit: 100 } } })))
export const useSourceItems = (id: string) =>
  useLoad(
    () => call(platform.GET('/api/sources/{id}/items', { params: { path: { id }, query: { limit: 10 } } })),
    [id],
  )
export const createSource = (body: NewSource) => call(platform.POST('/api/sources', { body }))
export const setSourceEnabled = (id: string, enabled: boolean) =>
  call(platform.PATCH('/api/sources/{id}', { params: { path: { id } }, body: { enabled } }))
export const deleteSource = (id: string) =>
  call(platform.DELETE('/api/sources/{id}', { params: { path: { id } } }))
/** Asks scrape-social to scrape the source now (a job). */
export const scrapeNow = (source_id: string) =>
  call(platform.POST('/functions/v1/scrape-social', { body: { source_id } }))
