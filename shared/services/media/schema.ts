import { z } from '@hono/zod-openapi'
import { pageQuery } from '@shared/infra/pagination.ts'
import { mediaContentTypes } from './bucket.ts'

/** A media item: one image of the tenant's library, its object under the tenant's prefix. */
export const mediaSchema = z
  .object({
    object: z.literal('media'),
    id: z.uuid(),
    reference: z.string().openapi({
      description:
        'How an article names this image: `![alt](media:<id>)` in the body, or the feature image url',
    }),
    file_name: z.string(),
    alt_text: z.string(),
    caption: z.string(),
    width: z.number().int().nullable(),
    height: z.number().int().nullable(),
    bytes: z.number().int(),
    content_type: z.enum(mediaContentTypes),
    uploaded_by: z.uuid().nullable(),
    url: z.string().openapi({ description: 'A signed URL of the original that expires (url_expires_at)' }),
    url_expires_at: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('Media', {
    example: {
      object: 'media',
      id: '6f1c2b9e-1d2a-4b3c-9e8f-7a6b5c4d3e2f',
      reference: 'media:6f1c2b9e-1d2a-4b3c-9e8f-7a6b5c4d3e2f',
      file_name: 'garden.jpg',
      alt_text: 'A garden in spring',
      caption: '',
      width: 1600,
      height: 1067,
      bytes: 245_812,
      content_type: 'image/jpeg',
      uploaded_by: '0b7c1e2d-3f4a-4b5c-8d9e-0f1a2b3c4d5e',
      url: 'https://<ref>.supabase.co/storage/v1/object/sign/media/...?token=...',
      url_expires_at: '2026-12-08T13:00:00.000Z',
      created_at: '2026-12-08T12:00:00.000Z',
      updated_at: '2026-12-08T12:00:00.000Z',
    },
  })

export const mediaListSchema = z
  .object({ data: z.array(mediaSchema), next_cursor: z.string().nullable() })
  .openapi('MediaList')

export const mediaListQuery = pageQuery.extend({
  q: z
    .string()
    .trim()
    .max(200)
    .optional()
    .openapi({ description: 'Words found in the file name, alt text or caption' }),
})

const MAX_ALT_TEXT = 1000
const MAX_CAPTION = 2000

/** The form of an upload: the file, and optionally its alt text and caption. */
export const uploadMediaForm = z
  .object({
    file: z
      .custom<File>((v) => typeof File !== 'undefined' && v instanceof File, 'file must be a file part')
      .openapi({
        type: 'string',
        format: 'binary',
        description: 'The image; its type is read from its bytes',
      }),
    alt_text: z.string().trim().max(MAX_ALT_TEXT).default(''),
    caption: z.string().trim().max(MAX_CAPTION).default(''),
  })
  .strict()

export const updateMediaBody = z
  .object({
    alt_text: z.string().trim().max(MAX_ALT_TEXT).optional(),
    caption: z.string().trim().max(MAX_CAPTION).optional(),
  })
  .strict()
  .refine((b) => b.alt_text !== undefined || b.caption !== undefined, 'give alt_text or caption')
  .openapi({ example: { alt_text: 'A garden in spring', caption: 'The east garden in April' } })

export const mediaUsageSchema = z
  .object({
    object: z.literal('media_usage'),
    plan: z.string(),
    items: z.number().int(),
    used_bytes: z.number().int(),
    quota_bytes: z.number().int(),
    max_file_bytes: z.number().int(),
    percent: z.number(),
  })
  .openapi('MediaUsage')

export type Media = z.infer<typeof mediaSchema>
export type MediaUsage = z.infer<typeof mediaUsageSchema>
