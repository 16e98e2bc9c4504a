import { editorRoles, requireRole } from '@shared/infra/caller.ts'
import type { ServiceContext } from '@shared/infra/deps.ts'
import { invalidField, notFound } from '@shared/infra/errors.ts'
import { recordEvent } from '@shared/infra/events.ts'
import { forgetPublishedReads } from '@shared/infra/hot-path/hot-path.ts'
import type { CreateSiteInput, Site, SiteDetail, UpdateSiteInput } from './schema.ts'
import { localesCheck, requireLocalesInUse, siteLocales } from './site-locales.ts'
import { slugGuard, takenInTenant } from './slug-guard.ts'

/**
 * A tenant's sites: create (event site.created), rename or re-domain (no event: the spec names
 * none), read with what they hold, and delete with their articles, sources and affiliate
 * destinations (event site.deleted).
 */

interface SiteRow {
  id: string
  slug: string
  name: string
  domain: string | null
  public_feeds: boolean
  article_url_pattern: string | null
  article_schema_type: Site['article_schema_type']
  default_locale: string
  locales: string[]
  created_at: Date
  updated_at: Date
}

const siteColumns =
  'id, slug, name, domain, public_feeds, article_url_pattern, article_schema_type, default_locale, locales, created_at, updated_at'

const presentSite = (r: SiteRow): Site => ({
  object: 'site',
  id: r.id,
  slug: r.slug,
  name: r.name,
  domain: r.domain,
  public_feeds: r.public_feeds,
  article_url_pattern: r.article_url_pattern,
  article_schema_type: r.article_schema_type,
  default_locale: r.default_locale,
  locales: r.locales,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
})

/**
 * Public feeds link to the articles on the web, so a site with them on needs a URL pattern or a
 * domain: VALIDATION_ERROR naming public_feeds otherwise (checked on the row as written, inside
 * the transaction, so nothing is kept).
 */
function requireArticleLinks(site: SiteRow): void {
  if (site.public_feeds && !site.article_url_pattern && !site.domain)
    throw invalidField(
      'public_feeds',
      'needs article_url_pattern (such as https://blog.example.com/{slug}) or domain: feeds link to the articles',
      'Public feeds need article_url_pattern or domain',
    )
}

const slugs = slugGuard({
  table: 'public.sites',
  scope: 'tenant_id',
  label: 'name',
  fallback: 'site',
  taken: takenInTenant('site'),
  violationIsSlug: (message) => message.includes('slug'),
})

export async function createSite(ctx: ServiceContext, input: CreateSiteInput): Promise<Site> {
  requireRole(ctx.caller, editorRoles)
  const { caller } = ctx
  const now = ctx.clock.now()
  let slug = input.slug ?? ''
  const row = await ctx
    .asTenant(async (tx) => {
      if (input.slug) await slugs.requireFree(tx, caller.tenantId, input.slug, null)
      else slug = await slugs.freeSlugFor(tx, caller.tenantId, input.name, null)
      const [site] = await tx<SiteRow[]>`
      insert into public.sites (tenant_id, slug, name, domain, public_feeds, article_url_pattern,
        article_schema_type, created_at, updated_at, default_locale, locales)
      values (${caller.tenantId}, ${slug}, ${input.name}, ${input.domain ?? null}, ${input.public_feeds ?? false},
        ${input.article_url_pattern ?? null}, ${input.article_schema_type ?? 'Article'}, ${now}, ${now},
        ${siteLocales(input).defaultLocale}, ${siteLocales(input).locales})
      returning ${tx.unsafe(siteColumns)}`
      requireArticleLinks(site!)
      await recordEvent(tx, {
        tenantId: caller.tenantId,
        type: 'site.created',
        at: now,
        data: { site_id: site!.id, name: site!.name, domain: site!.domain, created_at: now.toISOString() },
      })
      return site!
    })
    .catch(slugs.raceAsConflict(slug))
    .catch((err) => {
      throw localesCheck(err)
    })
  forgetPublishedReads(ctx, ctx.caller.tenantId)
  ctx.onOutboxCommitted?.()
  return presentSite(row)
}

/** One of the tenant's sites; NOT_FOUND for another tenant's. */
export async function getSite(ctx: ServiceContext, id: string): Promise<Site> {
  const { caller } = ctx
  const [row] = await ctx.asTenant(
    (tx) => tx<SiteRow[]>`
      select ${tx.unsafe(siteColumns)} from public.sites where id = ${id} and tenant_id = ${caller.tenantId}`,
  )
  if (!row) throw notFound('Site')
  return presentSite(row)
}

/**
 * One site with the counts of what deleting it removes (articles, and by cascade the sources and
 * their items, the affiliate destinations), so a client can say so before it happens.
 */
export async function getSiteDetail(ctx: ServiceContext, id: string): Promise<SiteDetail> {
  const { caller } = ctx
  // What a site holds besides published articles (drafts, sources) is not a published-only key's.
  if (caller.kind === 'published_key') return getSite(ctx, id)
  const [row] = await ctx.asTenant(
    (tx) => tx<(SiteRow & { counts: SiteDetail['counts'] })[]>`
      select ${tx.unsafe(siteColumns)}, json_build_object(
        'articles', (select count(*) from public.articles a where a.site_id = s.id and a.tenant_id = s.tenant_id),
        'drafts', (select count(*) from public.articles a where a.site_id = s.id and a.tenant_id = s.tenant_id and a.status = 'draft'),
        'scheduled', (select count(*) from public.articles a where a.site_id = s.id and a.tenant_id = s.tenant_id and a.status = 'scheduled'),
        'published', (select count(*) from public.articles a where a.site_id = s.id and a.tenant_id = s.tenant_id and a.status = 'published'),
        'sources', (select count(*) from public.sources x where x.site_id = s.id and x.tenant_id = s.tenant_id),
        'source_items', (select count(*) from public.source_items i join public.sources x on x.id = i.source_id
                         where x.site_id = s.id and i.tenant_id = s.tenant_id),
        'affiliate_destinations', (select count(*) from public.affiliate_destinations d where d.site_id = s.id and d.tenant_id = s.tenant_id)
      ) as counts
      from public.sites s where s.id = ${id} and s.tenant_id = ${caller.tenantId}`,
  )
  if (!row) throw notFound('Site')
  const { counts, ...site } = row
  return { ...presentSite(site), counts }
}

/** Changes the name, slug or domain; NOT_FOUND when the site is not the tenant's. */
export async function updateSite(ctx: ServiceContext, id: string, input: UpdateSiteInput): Promise<Site> {
  requireRole(ctx.caller, editorRoles)
  const { caller } = ctx
  const now = ctx.clock.now()
  const [row] = await ctx
    .asTenant(async (tx) => {
      if (input.slug) await slugs.requireFree(tx, caller.tenantId, input.slug, id)
      const rows = await tx<SiteRow[]>`
      update public.sites set
        name = coalesce(${input.name ?? null}::text, name),
        slug = coalesce(${input.slug ?? null}::text, slug),
        domain = case when ${input.domain !== undefined} then ${input.domain ?? null}::text else domain end,
        public_feeds = coalesce(${input.public_feeds ?? null}::boolean, public_feeds),
        article_url_pattern = case when ${input.article_url_pattern !== undefined}
          then ${input.article_url_pattern ?? null}::text else article_url_pattern end,
        article_schema_type = coalesce(${input.article_schema_type ?? null}::text, article_schema_type),
        default_locale = coalesce(${input.default_locale ?? null}::text, default_locale),
        locales = coalesce(${input.locales ?? null}::text[], locales),
        updated_at = ${now}
      where id = ${id} and tenant_id = ${caller.tenantId}
      returning ${tx.unsafe(siteColumns)}`
      if (rows[0]) requireArticleLinks(rows[0])
      if (rows[0] && input.locales) await requireLocalesInUse(tx, rows[0].id, rows[0].locales)
      return rows
    })
    .catch(slugs.raceAsConflict(input.slug ?? ''))
    .catch((err) => {
      throw localesCheck(err)
    })
  if (!row) throw notFound('Site')
  forgetPublishedReads(ctx, caller.tenantId)
  return presentSite(row)
}

/** Removes the site and (by cascade) its articles; NOT_FOUND when it is not the tenant's. */
export async function deleteSite(ctx: ServiceContext, id: string): Promise<void> {
  requireRole(ctx.caller, editorRoles)
  const { caller } = ctx
  const now = ctx.clock.now()
  const deleted = await ctx.asTenant(async (tx) => {
    const [site] = await tx<(SiteRow & { articles: number })[]>`
      with gone as (
        delete from public.sites where id = ${id} and tenant_id = ${caller.tenantId} returning ${tx.unsafe(siteColumns)}
      )
      select gone.*, (select count(*)::int from public.articles a where a.site_id = gone.id) as articles from gone`
    if (!site) return false
    await recordEvent(tx, {
      tenantId: caller.tenantId,
      type: 'site.deleted',
      at: now,
      data: {
        site_id: site.id,
        name: site.name,
        domain: site.domain,
        articles_deleted: site.articles,
        deleted_at: now.toISOString(),
      },
    })
    return true
  })
  if (!deleted) throw notFound('Site')
  forgetPublishedReads(ctx, ctx.caller.tenantId)
  ctx.onOutboxCommitted?.()
}
