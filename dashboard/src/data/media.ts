/** The media library: its images and the storage they take against the plan's quota. */
import { call, platform, type Schema } from '../api.ts'
import { useLoad } from './load.ts'

export type MediaUsage = Schema<'MediaUsage'>

/** GET /v1/content/media-usage: a gauge of the library's bytes, not a monthly count. */
export const useMediaUsage = () => useLoad(() => call(platform.GET('/v1/content/media-usage')))
