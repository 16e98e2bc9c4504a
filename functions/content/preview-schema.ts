import { z } from '@hono/zod-openapi'
import { PREVIEW_DEFAULT_DAYS, PREVIEW_MAX_DAYS } from '@shared/services/content/previews.ts'

/** The article and one of its preview links. */
export const previewParams = z.object({
  id: z.uuid().openapi({ param: { name: 'id', in: 'path' } }),
  preview_id: z.uuid().openapi({ param: { name: 'preview_id', in: 'path' } }),
})

export const createPreviewSchema = z
  .object({
    expires_in_days: z
      .number()
      .int()
      .min(1)
      .max(PREVIEW_MAX_DAYS)
      .optional()
      .openapi({
        description: `Days the link works (default ${PREVIEW_DEFAULT_DAYS}, at most ${PREVIEW_MAX_DAYS})`,
      }),
  })
  .strict()
  .openapi('CreatePreviewLink', { example: { expires_in_days: 7 } })

export const previewLinkSchema = z
  .object({
    object: z.literal('preview_link'),
    id: z.uuid(),
    article_id: z.uuid(),
    token_prefix: z.string().openapi({ description: 'The first characters of the token, for display' }),
    status: z.enum(['active', 'expired', 'revoked']),
    created_by: z.uuid().nullable(),
    created_at: z.string(),
    expires_at: z.string(),
    revoked_at: z.string().nullable(),
  })
  .openapi('PreviewLink')

export const createdPreviewLinkSchema = previewLinkSchema
  .extend({
    token: z.string().openapi({ description: 'The link’s token (prv_…): shown once, stored only as a hash' }),
    url: z.string().openapi({ description: 'GET it without a key: the article as the link shows it' }),
  })
  .openapi('CreatedPreviewLink')
