import { z } from '@hono/zod-openapi'

/**
 * Locales of sites and articles: BCP 47 language tags, kept in their canonical form
 * (Intl.getCanonicalLocales: `en-us` is `en-US`, `zh-hant-tw` is `zh-Hant-TW`) so that equal tags
 * compare equal in SQL. A language subtag of 2 to 8 letters first (no private-use `x-…` tags),
 * at most 35 characters, as the database's check holds them. docs/content.md "Translations".
 */

const MAX_LOCALE = 35
/** Locales one site may name. */
export const MAX_SITE_LOCALES = 50
const LOCALE_SHAPE = /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/

/** The canonical form of a BCP 47 tag, or null when it is not one. */
function canonicalLocale(tag: string): string | null {
  if (tag.length === 0 || tag.length > MAX_LOCALE) return null
  try {
    const [canonical] = Intl.getCanonicalLocales(tag)
    return canonical && canonical.length <= MAX_LOCALE && LOCALE_SHAPE.test(canonical) ? canonical : null
  } catch {
    return null
  }
}

/** A BCP 47 tag, canonicalized (the answer names it as stored). */
export const localeField = () =>
  z
    .string()
    .trim()
    .max(MAX_LOCALE)
    .refine((s) => canonicalLocale(s) !== null, 'a BCP 47 language tag, such as en, fr or pt-BR')
    .overwrite((s) => canonicalLocale(s) ?? s)
    .openapi({ example: 'fr' })
