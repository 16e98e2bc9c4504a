import sharp from 'sharp'
import { z } from 'zod'

/**
 * Image transformations as Supabase's /render/image endpoints take them (width, height, resize,
 * quality, format), done locally with sharp. As on Supabase, a client that accepts WebP gets WebP
 * unless it asked for format=origin; an image is never enlarged; SVG is returned as it is.
 */
export const transformQuery = z.object({
  width: z.coerce.number().int().min(1).max(2500).optional(),
  height: z.coerce.number().int().min(1).max(2500).optional(),
  resize: z.enum(['cover', 'contain', 'fill']).default('cover'),
  quality: z.coerce.number().int().min(20).max(100).default(80),
  format: z.enum(['origin', 'avif', 'webp']).optional(),
})
export type Transform = z.infer<typeof transformQuery>

const rasterTypes = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif'])

export async function renderImage(
  bytes: Uint8Array,
  contentType: string,
  transform: Transform,
  accept: string,
): Promise<{ bytes: Uint8Array; contentType: string }> {
  if (!rasterTypes.has(contentType)) return { bytes, contentType }
  let image = sharp(bytes, { animated: false }).rotate()
  if (transform.width || transform.height) {
    image = image.resize({
      width: transform.width,
      height: transform.height,
      fit: transform.resize,
      withoutEnlargement: true,
    })
  }
  const format =
    transform.format === 'avif' || transform.format === 'webp'
      ? transform.format
      : transform.format !== 'origin' && accept.includes('image/webp')
        ? 'webp'
        : null
  if (format === 'webp') image = image.webp({ quality: transform.quality })
  else if (format === 'avif') image = image.avif({ quality: transform.quality })
  else if (contentType === 'image/jpeg') image = image.jpeg({ quality: transform.quality })
  else if (contentType === 'image/png') image = image.png()
  else if (contentType === 'image/webp') image = image.webp({ quality: transform.quality })
  else if (contentType === 'image/avif') image = image.avif({ quality: transform.quality })
  else image = image.png()
  const out = await image.toBuffer({ resolveWithObject: true })
  return {
    bytes: new Uint8Array(out.data),
    contentType: `image/${out.info.format === 'heif' ? 'avif' : out.info.format}`,
  }
}
