import { withTenant } from '../../infra/db.ts'
import type { ServiceContext } from '../../infra/deps.ts'
import { notFound } from '../../infra/errors.ts'
import { recordEvent } from '../../infra/events.ts'
import type { CreateSiteInput, Site } from './schema.ts'

/** A tenant's sites: create (event site.created) and delete with its articles (event site.deleted). */

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
  const row = await withTenant(ctx.sql, caller.claims, async (tx) => {
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
  const [row] = await withTenant(
    ctx.sql,
    caller.claims,
    (tx) => tx<SiteRow[]>`
      select ${tx.unsafe(siteColumns)} from public.sites where id = ${id} and tenant_id = ${caller.tenantId}`,
  )
  if (!row) throw notFound('Site')
  return presentSite(row)
}

/** Removes the site and (by cascade) its articles; NOT_FOUND when it is not the tenant's. */
export async function deleteSite(ctx: ServiceContext, id: string): Promise<void> {
  const { caller } = ctx
  const now = ctx.clock.now()
  const deleted = await withTenant(ctx.sql, caller.claims, async (tx) => {
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
