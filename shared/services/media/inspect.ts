import { ServiceError } from '@shared/infra/errors.ts'
import { imageSize } from 'image-size'
import { SaxesParser } from 'saxes'
import type { MediaContentType } from './bucket.ts'

/**
 * What an uploaded file is, read from its bytes (image-size recognises each format by its
 * signature and reads the dimensions from the header), never from its name or declared type.
 */
const typeOf: Record<string, MediaContentType> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  avif: 'image/avif',
  svg: 'image/svg+xml',
}

export interface InspectedImage {
  contentType: MediaContentType
  width: number | null
  height: number | null
}

export function inspectImage(bytes: Uint8Array): InspectedImage {
  let found: { type?: string; width?: number; height?: number } | undefined
  try {
    found = imageSize(bytes)
  } catch {
    found = undefined
  }
  const contentType = found?.type ? typeOf[found.type] : undefined
  if (!contentType)
    throw new ServiceError(
      'UNSUPPORTED_MEDIA_TYPE',
      'The file is not a JPEG, PNG, WebP, GIF, AVIF or SVG image (its bytes were checked, not its name)',
    )
  if (contentType === 'image/svg+xml') refuseActiveSvg(bytes)
  else if (!found?.width || !found?.height || !wholeFile(bytes, contentType))
    throw new ServiceError(
      'UNSUPPORTED_MEDIA_TYPE',
      `The file starts like ${contentType} but is not a whole image`,
    )
  return { contentType, width: found?.width || null, height: found?.height || null }
}

const ascii = (bytes: Uint8Array, from: number, length: number) =>
  String.fromCharCode(...bytes.subarray(from, from + length))

/**
 * The signature says what a file claims to be; its end says whether it is one: a PNG's last chunk
 * is IEND, a GIF ends with its trailer (0x3B), a JPEG has its end-of-image marker, a WebP's RIFF
 * size is the file's, an AVIF's ftyp box names an AVIF brand. Text that starts with "GIF89a" or a
 * header padded with zeros is refused here.
 */
function wholeFile(bytes: Uint8Array, type: MediaContentType): boolean {
  const n = bytes.byteLength
  switch (type) {
    case 'image/png':
      return n > 20 && ascii(bytes, n - 8, 4) === 'IEND'
    case 'image/gif':
      return n > 13 && bytes[n - 1] === 0x3b
    case 'image/jpeg': {
      // The EOI marker, allowing trailing bytes some cameras append.
      for (let i = n - 2; i >= Math.max(2, n - 65536); i--)
        if (bytes[i] === 0xff && bytes[i + 1] === 0xd9) return true
      return false
    }
    case 'image/webp':
      return (
        n > 12 &&
        ascii(bytes, 0, 4) === 'RIFF' &&
        new DataView(bytes.buffer, bytes.byteOffset).getUint32(4, true) + 8 === n
      )
    case 'image/avif': {
      if (n < 16 || ascii(bytes, 4, 4) !== 'ftyp') return false
      const size = new DataView(bytes.buffer, bytes.byteOffset).getUint32(0)
      const brands = ascii(bytes, 8, Math.min(size, n) - 8)
      return /avi[fs]/.test(brands) && n > size
    }
    default:
      return true
  }
}

const SVG_ACTIVE_ELEMENTS = new Set([
  'script',
  'foreignobject',
  'iframe',
  'embed',
  'object',
  'handler',
  'listener',
])

/**
 * An SVG is kept only when it is a picture and nothing more: no script or embedded document, no
 * event handler attribute, no link or reference out of the file (only `#fragment` and `data:image/`),
 * no DOCTYPE (entities). It is also always served as an attachment; this refusal is the first line.
 */
function refuseActiveSvg(bytes: Uint8Array): void {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes)
  const refuse = (why: string): never => {
    throw new ServiceError('UNPROCESSABLE', `The SVG was refused: ${why}`)
  }
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) refuse('it declares a DOCTYPE or entities')
  const parser = new SaxesParser({ xmlns: false })
  let failure: string | null = null
  parser.on('error', (err) => {
    failure ??= `it is not well-formed XML (${err.message.slice(0, 120)})`
  })
  parser.on('opentag', (tag) => {
    const name = tag.name.toLowerCase().replace(/^.*:/, '')
    if (SVG_ACTIVE_ELEMENTS.has(name)) failure ??= `it contains a <${name}> element`
    for (const [attr, value] of Object.entries(tag.attributes)) {
      const a = attr.toLowerCase().replace(/^.*:/, '')
      const v = String(value).trim().toLowerCase()
      if (a.startsWith('on')) failure ??= `it has an event handler (${attr})`
      if ((a === 'href' || a === 'src') && v !== '' && !v.startsWith('#') && !v.startsWith('data:image/'))
        failure ??= `it links outside the file (${attr})`
      if (a === 'style' && /url\s*\(|expression\s*\(|javascript:/.test(v))
        failure ??= 'it has a style that loads or runs something'
    }
  })
  parser.on('text', (t) => {
    if (/javascript:/i.test(t)) failure ??= 'it contains a javascript: address'
  })
  try {
    parser.write(text).close()
  } catch {
    failure ??= 'it is not well-formed XML'
  }
  if (failure) refuse(failure)
}

/** A file name kept for display and in the object's path: letters, digits, dot, dash, underscore. */
export function safeFileName(name: string, contentType: MediaContentType): string {
  const ext = {
    'image/jpeg': 'jpg',
    'image/png': 'png',
    'image/webp': 'webp',
    'image/gif': 'gif',
    'image/avif': 'avif',
    'image/svg+xml': 'svg',
  }[contentType]
  const base = name
    .replace(/\.[A-Za-z0-9]{1,5}$/, '')
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .replace(/\.{2,}/g, '.')
    .slice(0, 100)
  return `${base || 'image'}.${ext}`
}
