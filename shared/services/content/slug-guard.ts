import { isPgError, pgErrors, type Tx } from '@shared/infra/db.ts'
import { ServiceError } from '@shared/infra/errors.ts'
import type postgres from 'postgres'
import { numberedSlug, slugify } from './slug.ts'

/**
 * Slug uniqueness, the one way sites, tags and articles keep it: an explicit slug another row
 * holds is a CONFLICT naming that row; a slug made from a name is numbered (-2, -3, ...) past those
 * taken; and a unique violation lost in a race after the check (two writers, one slug) is the same
 * CONFLICT, not a 500. What differs per kind is declared: the table, the column that scopes the
 * slugs (the tenant for sites and tags, the site for articles), the column that names a holder,
 * the CONFLICT's words, and for articles the old slugs that redirects reserve.
 */

export interface SlugHolder {
  id: string
  label: string
}

interface SlugKind {
  /** The table, a constant of the caller (never input): it is written into the statements. */
  table: 'public.sites' | 'public.tags' | 'public.articles'
  /** The column the slug is unique within. */
  scope: 'tenant_id' | 'site_id'
  /** The column that names a holder in the CONFLICT. */
  label: 'name' | 'title'
  /** What slugify gives for a name with nothing left (a name of emoji). */
  fallback: string
  /** The CONFLICT for a taken slug: naming its holder when known (lost in a race, not known). */
  taken: (slug: string, holder?: SlugHolder) => ServiceError
  /** Whether a unique violation is the slug's (tags have no other unique column). */
  violationIsSlug?: (message: string) => boolean
  /**
   * More slugs that count as taken: `refuse` throws for one (requireFree); `like` selects those
   * equal to `base` or numbered from it (`pattern`), added to the same statement with union all.
   */
  reserved?: {
    refuse: (tx: Tx, scopeId: string, slug: string, exceptId: string | null) => Promise<void>
    like: (
      tx: Tx,
      scopeId: string,
      base: string,
      pattern: string,
      exceptId: string | null,
    ) => postgres.PendingQuery<postgres.Row[]>
  }
}

interface SlugGuard {
  /** CONFLICT naming the row that holds `slug` in the scope (other than `exceptId`). */
  requireFree(tx: Tx, scopeId: string, slug: string, exceptId: string | null): Promise<void>
  /** The name's slug, numbered past those the scope's other rows hold (or reserve). */
  freeSlugFor(tx: Tx, scopeId: string, name: string, exceptId: string | null): Promise<string>
  /** For `.catch`: a unique violation on the slug, lost in a race after the check, as the CONFLICT. */
  raceAsConflict(slug: string): (err: unknown) => never
}

export function slugGuard(kind: SlugKind): SlugGuard {
  const columns = (tx: Tx) => ({
    table: tx.unsafe(kind.table),
    scope: tx.unsafe(kind.scope),
    label: tx.unsafe(kind.label),
  })
  return {
    async requireFree(tx, scopeId, slug, exceptId) {
      const { table, scope, label } = columns(tx)
      const [holder] = await tx<SlugHolder[]>`
        select id, ${label} as label from ${table}
        where ${scope} = ${scopeId} and slug = ${slug} and id is distinct from ${exceptId}`
      if (holder) throw kind.taken(slug, holder)
      await kind.reserved?.refuse(tx, scopeId, slug, exceptId)
    },
    async freeSlugFor(tx, scopeId, name, exceptId) {
      const { table, scope } = columns(tx)
      const base = slugify(name, kind.fallback)
      const pattern = `^${base}-[0-9]+$`
      const reserved = kind.reserved
        ? tx`union all ${kind.reserved.like(tx, scopeId, base, pattern, exceptId)}`
        : tx``
      const taken = new Set(
        (
          await tx<{ slug: string }[]>`
            select slug from ${table}
            where ${scope} = ${scopeId} and id is distinct from ${exceptId}
              and (slug = ${base} or slug ~ ${pattern})
            ${reserved}`
        ).map((r) => r.slug),
      )
      for (let n = 1; ; n++) {
        const candidate = numberedSlug(base, n)
        if (!taken.has(candidate)) return candidate
      }
    },
    raceAsConflict(slug) {
      return (err) => {
        if (
          isPgError(err, pgErrors.uniqueViolation) &&
          (kind.violationIsSlug?.(String((err as Error).message)) ?? true)
        )
          throw kind.taken(slug)
        throw err
      }
    },
  }
}

/** The CONFLICT of a site's or tag's slug, which is unique in the tenant. */
export const takenInTenant =
  (noun: 'site' | 'tag') =>
  (slug: string, holder?: SlugHolder): ServiceError =>
    new ServiceError(
      'CONFLICT',
      holder
        ? `The ${noun} slug "${slug}" is taken by the ${noun} ${holder.id} ("${holder.label}")`
        : `The ${noun} slug "${slug}" is taken`,
      {
        details: [
          {
            field: 'slug',
            message: holder ? `taken by the ${noun} "${holder.label}" (${holder.id})` : 'taken',
          },
        ],
      },
    )
