import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { actingCallerFor } from '../shared/infra/caller.ts'
import { type ServiceContext, serviceContextFor } from '../shared/infra/deps.ts'
import { setupTimeout, startTestPlatform, type TestPlatform, type TestTenant } from './support/platform.ts'

/**
 * The everyday handle on a service's context sees one tenant: a query with no tenant filter, the
 * mistake a newcomer makes, still returns only the caller's rows, because row-level security does
 * the filtering (docs/adr/0013-tenant-and-owner-handles.md).
 */
let tp: TestPlatform
let a: TestTenant
let b: TestTenant

async function seed(t: TestTenant, articles: number) {
  const site = await tp.json('/v1/content/sites', { token: t.token, body: { name: `Site of ${t.email}` } })
  expect(site.status).toBe(201)
  for (let i = 0; i < articles; i++) {
    const res = await tp.json('/v1/content/articles', {
      token: t.token,
      body: { site_id: site.body.id, title: `Article ${i}`, body: 'text' },
    })
    expect(res.status).toBe(201)
  }
}

async function contextOf(t: TestTenant): Promise<ServiceContext> {
  const deps = tp.instances[0]!.platform.deps
  return serviceContextFor(deps, await actingCallerFor(deps.sql, t.tenantId, t.userId))
}

beforeAll(async () => {
  tp = await startTestPlatform()
  a = await tp.createTenant()
  b = await tp.createTenant()
  await seed(a, 2)
  await seed(b, 3)
}, setupTimeout())
afterAll(() => tp.close())

describe('ctx.asTenant, the everyday handle', () => {
  it('both tenants have rows (the owner sees all of them)', async () => {
    const rows = await tp.db.sql<{ tenant_id: string; n: number }[]>`
      select tenant_id, count(*)::int as n from public.articles
      where tenant_id in (${a.tenantId}, ${b.tenantId}) group by tenant_id order by n`
    expect(rows).toEqual([
      { tenant_id: a.tenantId, n: 2 },
      { tenant_id: b.tenantId, n: 3 },
    ])
  })

  it('reads articles and sites without a tenant filter and gets only the caller tenant rows', async () => {
    for (const [t, articles] of [
      [a, 2],
      [b, 3],
    ] as const) {
      const ctx = await contextOf(t)
      const seen = await ctx.asTenant(async (tx) => ({
        articles: await tx<{ tenant_id: string }[]>`select tenant_id from public.articles`,
        sites: await tx<{ tenant_id: string }[]>`select tenant_id from public.sites`,
      }))
      expect(seen.articles.length).toBe(articles)
      expect(new Set(seen.articles.map((r) => r.tenant_id))).toEqual(new Set([t.tenantId]))
      expect(seen.sites.length).toBe(1)
      expect(seen.sites[0]!.tenant_id).toBe(t.tenantId)
    }
  })

  it('the pipelined single read (ctx.readAsTenant) is held to the caller tenant too', async () => {
    const ctx = await contextOf(a)
    const rows = await ctx.readAsTenant(
      (q) => q<{ tenant_id: string }[]>`select tenant_id from public.articles`,
    )
    expect(rows.map((r) => r.tenant_id)).toEqual([a.tenantId, a.tenantId])
  })

  it('an async callback that awaits its statement still runs inside the transaction, with the claims', async () => {
    // An async callback sends its statement the moment it is called; readAsTenant must have sent
    // BEGIN and the claims already, or the read runs as the pool's role and sees every tenant.
    const ctx = await contextOf(a)
    const rows = await ctx.readAsTenant(async (q) => {
      const found = await q<{ tenant_id: string }[]>`select tenant_id from public.articles`
      return found.map((r) => r.tenant_id)
    })
    expect(rows).toEqual([a.tenantId, a.tenantId])
    const [who] = await ctx.readAsTenant(
      async (q) => await q<{ role: string }[]>`select current_user as role`,
    )
    expect(who!.role).toBe('authenticated')
  })

  it('the context offers no `sql`: the owner pool is only under its own name', async () => {
    const ctx = await contextOf(a)
    expect('sql' in ctx).toBe(false)
    // The owner handle is the one that sees every tenant: it is named for it.
    const [all] = await ctx.asOwner<{ n: number }[]>`
      select count(*)::int as n from public.articles where tenant_id in (${a.tenantId}, ${b.tenantId})`
    expect(all!.n).toBe(5)
  })
})
