/** The workspace's background jobs, and the names of what they worked on. */
import { call, type paths, platform, type Schema } from '../api.ts'
import { useLoad } from './load.ts'

export type Job = Schema<'Job'>
export type JobStatus = Job['status']
export type JobQuery = NonNullable<paths['/api/jobs']['get']['parameters']['query']>

export const useJobs = (query: JobQuery) =>
  useLoad(
    () => call(platform.GET('/api/jobs', { params: { query: { limit: 50, ...query } } })),
    [query.kind, query.status, query.origin],
  )

/** The lists whose names a job's input may refer to, by the input's key. */
export const namedLists = {
  source_id: () => call(platform.GET('/api/sources', { params: { query: { limit: 100 } } })),
  destination_id: () =>
    call(platform.GET('/api/affiliate/destinations', { params: { query: { limit: 100 } } })),
  item_ids: () => call(platform.GET('/v1/content', { params: { query: { type: 'site', limit: 100 } } })),
}
