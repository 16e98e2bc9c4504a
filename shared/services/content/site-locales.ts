import { isPgError, pgErrors, type Tx } from '@shared/infra/db.ts'
import { invalidField } from '@shared/infra/errors.ts'
import type { CreateSiteInput } from './schema.ts'

/**
 * A site's locales (docs/content.md "Translations"): default_locale, and the list its articles may
 * be in, the default among them. Created without them, a site is English only.
 */

/** A new site's locales: default_locale, else the first of locales, else en; locales, else the default. */
export function siteLocales(input: Pick<CreateSiteInput, 'default_locale' | 'locales'>) {
  const defaultLocale = input.default_locale ?? input.locales?.[0] ?? 'en'
  return { defaultLocale, locales: input.locales ?? [defaultLocale] }
}

/**
 * The database's check that default_locale is one of locales (sites_locales_check), as
 * VALIDATION_ERROR naming default_locale; anything else as it is.
 */
export function localesCheck(err: unknown): unknown {
  if (
    isPgError(err, pgErrors.checkViolation) &&
    String((err as Error).message).includes('sites_locales_check')
  )
    return invalidField(
      'default_locale',
      'must be one of locales: add it to locales, or choose one of them',
      'default_locale must be one of the site’s locales',
    )
  return err
}

/**
 * A locale still used by an article of the site stays in its list: VALIDATION_ERROR naming locales
 * (inside the update's transaction, so nothing is kept).
 */
export async function requireLocalesInUse(tx: Tx, siteId: string, locales: string[]): Promise<void> {
  const used = await tx<{ locale: string }[]>`
    select distinct locale from public.articles
    where site_id = ${siteId} and locale <> all (${locales}::text[]) order by locale limit 10`
  if (used.length > 0) {
    const names = used.map((r) => r.locale).join(', ')
    throw invalidField(
      'locales',
      `articles of the site are in ${names}: keep it in locales (or move those articles first)`,
      `The site has articles in ${names}`,
    )
  }
}
