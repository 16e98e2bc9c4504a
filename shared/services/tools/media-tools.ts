import type { ServiceContext } from '@shared/infra/deps.ts'
import { z } from 'zod'
import { updateArticle } from '../content/articles.ts'
import { getMedia, listMedia } from '../media/library.ts'

/**
 * The media library for the assistant and the tool server: list it, and make one of its images
 * an article's feature image. No upload: a model never puts bytes into the library (an editor
 * uploads, in the dashboard or through the API).
 */

export const listMediaParams = z
  .object({
    q: z.string().trim().max(200).optional().describe('Words to find in file names, alt texts and captions'),
    limit: z.number().int().min(1).max(50).default(20),
  })
  .strict()

export const setFeatureImageParams = z
  .object({
    article_id: z.uuid(),
    media_id: z.uuid().describe('An image of the media library (platform:list_media)'),
    alt: z.string().trim().max(500).optional().describe("The image's alt text here (default: the library's)"),
  })
  .strict()

/** The library's images without their signed URLs: a model needs what they show, not the bytes. */
export async function listMediaForTool(ctx: ServiceContext, p: z.infer<typeof listMediaParams>) {
  const page = await listMedia(ctx, { limit: p.limit, after: null, q: p.q })
  return {
    items: page.data.map((m) => ({
      id: m.id,
      reference: m.reference,
      file_name: m.file_name,
      alt_text: m.alt_text,
      caption: m.caption,
      width: m.width,
      height: m.height,
      content_type: m.content_type,
      created_at: m.created_at,
    })),
    has_more: page.next_cursor !== null,
  }
}

/**
 * The image is read first as the caller (row-level security: another tenant's id is 404, never
 * written), then the article takes its reference as it would any feature image (a revision, the
 * events), through the one update path.
 */
export async function setFeatureImage(ctx: ServiceContext, p: z.infer<typeof setFeatureImageParams>) {
  const media = await getMedia(ctx, p.media_id)
  const alt = p.alt ?? media.alt_text
  return updateArticle(ctx, p.article_id, { feature_image: { url: media.reference, alt } })
}
