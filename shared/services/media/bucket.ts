/**
 * The Storage bucket the media library keeps its images in, and the settings a deployment gives it
 * (the migration writes them; docs/deploy.md names them; `npm run deploy:check` reads them back).
 */
export const MEDIA_BUCKET = 'media'

/** The image types the library takes, each recognised from the bytes (image-size), never the name. */
export const mediaContentTypes = [
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'image/avif',
  'image/svg+xml',
] as const
export type MediaContentType = (typeof mediaContentTypes)[number]

/** The bucket's own ceiling; each plan's limit is lower or equal (public.media_plan_limits). */
export const MEDIA_BUCKET_MAX_BYTES = 25 * 1024 * 1024

export const mediaBucketSettings = {
  id: MEDIA_BUCKET,
  public: false,
  file_size_limit: MEDIA_BUCKET_MAX_BYTES,
  allowed_mime_types: [...mediaContentTypes],
} as const
