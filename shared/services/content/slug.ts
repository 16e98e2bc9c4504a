import anyAscii from 'any-ascii'

/** Slugs of sites, articles and tags: lower-case ASCII words joined by hyphens. */

export const MAX_SLUG = 120
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

/**
 * A slug made from a title or name: transliterated to ASCII (any-ascii: "Straße" → "strasse",
 * "Привет" → "privet"), lower-cased, every run of other characters a hyphen, at most MAX_SLUG
 * characters without a trailing hyphen. `fallback` when nothing is left (a title of emoji).
 */
export function slugify(text: string, fallback: string): string {
  const slug = anyAscii(text)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_SLUG)
    .replace(/-+$/, '')
  return slug || fallback
}

/** `base`, or `base-2`, `base-3`, ... : the first not in `taken`, within MAX_SLUG. */
export function numberedSlug(base: string, n: number): string {
  if (n <= 1) return base
  const suffix = `-${n}`
  return `${base.slice(0, MAX_SLUG - suffix.length).replace(/-+$/, '')}${suffix}`
}
