import type { ServiceContext } from '@shared/infra/deps.ts'
import { notFound } from '@shared/infra/errors.ts'
import { recordEvent } from '@shared/infra/events.ts'
import type { CreateSiteInput, Site, SiteDetail, UpdateSiteInput } from './schema.ts'

/**
 * A tenant's sites: create (event site.created), rename or re-domain (no event: the spec names
 * none), read with what they hold, and delete with their articles, sources and affiliate
 * destinations (event site.deleted).
 */

interface SiteRow {
  id: string
  name: string
  domain: string | null
  created_at: Date
  updated_at: Date
}

const siteColumns = 'id, name, domain, created_at, updated_at'

const presentSite = (r: SiteRow): Site => ({
  object: 'site',
  id: r.id,
  name: r.name,
  domain: r.domain,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
})

export async function createSite(ctx: ServiceContext, input: CreateSiteInput): Promise<Site> {
  const { caller } = ctx
  const now = ctx.clock.now()
  const row = await ctx.asTenant(async (tx) => {
    const [site] = await tx<SiteRow[]>`
      insert into public.sites (tenant_id, name, domain, created_at, updated_at)
      values (${caller.tenantId}, ${input.name}, ${input.domain ?? null}, ${now}, ${now})
      returning ${tx.unsafe(siteColumns)}`
    await recordEvent(tx, {
      tenantId: caller.tenantId,
      type: 'site.created',
      at: now,
      data: { site_id: site!.id, name: site!.name, domain: site!.domain, created_at: now.toISOString() },
    })
    return site!
  })
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
  const [row] = await ctx.asTenant(
    (tx) => tx<(SiteRow & { counts: SiteDetail['counts'] })[]>`
      select ${tx.unsafe(siteColumns)}, json_build_object(
        'articles', (select count(*) from public.articles a where a.site_id = s.id and a.tenant_id = s.tenant_id),
        'drafts', (select count(*) from public.articles a where a.site_id = s.id and a.tenant_id = s.tenant_id and a.status = 'draft'),
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

/** Changes the name or domain; NOT_FOUND when the site is not the tenant's. */
export async function updateSite(ctx: ServiceContext, id: string, input: UpdateSiteInput): Promise<Site> {
  const { caller } = ctx
  const now = ctx.clock.now()
  const [row] = await ctx.asTenant(
    (tx) => tx<SiteRow[]>`
      update public.sites set
        name = coalesce(${input.name ?? null}::text, name),
        domain = case when ${input.domain !== undefined} then ${input.domain ?? null}::text else domain end,
        updated_at = ${now}
      where id = ${id} and tenant_id = ${caller.tenantId}
      returning ${tx.unsafe(siteColumns)}`,
  )
  if (!row) throw notFound('Site')
  return presentSite(row)
}

/** Removes the site and (by cascade) its articles; NOT_FOUND when it is not the tenant's. */
export async function deleteSite(ctx: ServiceContext, id: string): Promise<void> {
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
  ctx.onOutboxCommitted?.()
}
