import { isPgError, pgErrors, type Queryable, type Tx } from '@shared/infra/db.ts'
import { invalidField, ServiceError } from '@shared/infra/errors.ts'
import type { Article } from './schema.ts'

/**
 * Where a new article goes among its site's locales and its translation group (docs/content.md
 * "Translations"): its locale must be one of the site's, and a group holds one article per locale.
 * Checked inside the creating transaction, before anything is written; the database's unique index
 * (articles_translation_locale_key) holds the rule under a race, answered the same way.
 */

/** The columns the localized reads add to an article row: its group's articles and its site's links. */
export interface ArticleGroupColumns {
  alternates: { id: string; locale: string; slug: string; status: Article['status'] }[] | null
  site_links: { article_url_pattern: string | null; domain: string | null } | null
}

const localeTaken = (locale: string, holder?: { id: string; slug: string }) =>
  new ServiceError(
    'CONFLICT',
    holder
      ? `The article already has a translation in ${locale}: the article ${holder.id} ("${holder.slug}")`
      : `The article already has a translation in ${locale}`,
    { details: [{ field: 'locale', message: holder ? `taken by the article ${holder.id}` : 'taken' }] },
  )

/**
 * The new article's locale: the one given, else the site's default. VALIDATION_ERROR naming locale
 * when the site does not offer it; with `translationOf` (the group's source), CONFLICT naming
 * locale when the group has an article in it already.
 */
export async function requireLocaleSlot(
  tx: Tx,
  siteId: string,
  locale: string | undefined,
  translationOf: string | null,
): Promise<string> {
  const [site] = await tx<{ default_locale: string; locales: string[] }[]>`
    select default_locale, locales from public.sites where id = ${siteId}`
  if (!site) return locale ?? 'en' // the caller's requireSite has answered NOT_FOUND already
  const chosen = locale ?? site.default_locale
  if (!site.locales.includes(chosen))
    throw invalidField(
      'locale',
      `the site offers ${site.locales.join(', ')}: add ${chosen} to its locales (PATCH /v1/content/sites/{id}) first`,
      `The site does not offer the locale ${chosen}`,
    )
  if (translationOf) {
    const [holder] = await groupMember(tx, translationOf, chosen)
    if (holder) throw localeTaken(chosen, holder)
  }
  return chosen
}

const groupMember = (q: Queryable, groupId: string, locale: string) =>
  q<{ id: string; slug: string }[]>`
    select id, slug from public.articles
    where coalesce(translation_of, id) = ${groupId} and locale = ${locale}`

/** A unique violation on the group's locales, lost in a race after the check: CONFLICT all the same. */
export function localeRace(err: unknown, locale: string | undefined): unknown {
  if (
    isPgError(err, pgErrors.uniqueViolation) &&
    String((err as Error).message).includes('articles_translation_locale_key')
  )
    throw localeTaken(locale ?? 'this locale')
  return err
}
