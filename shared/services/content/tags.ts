import { editorRoles, requireRole } from '@shared/infra/caller.ts'
import type { ServiceContext } from '@shared/infra/deps.ts'
import { notFound } from '@shared/infra/errors.ts'
import { forgetPublishedReads } from '@shared/infra/hot-path/hot-path.ts'
import { keysetPage, type Page, type PageRequest } from '@shared/infra/pagination.ts'
import type { CreateTagInput, Tag, UpdateTagInput } from './schema.ts'
import { slugGuard, takenInTenant } from './slug-guard.ts'

/**
 * A tenant's tags: a name and a slug unique in the tenant. Articles name them by slug; deleting
 * a tag takes it off its articles. Tags are what a published-only key may read besides published
 * articles and sites, so they hold nothing private.
 */

interface TagRow {
  id: string
  name: string
  slug: string
  created_at: Date
  updated_at: Date
}

const tagColumns = 'id, name, slug, created_at, updated_at'

const presentTag = (r: TagRow): Tag => ({
  object: 'tag',
  id: r.id,
  name: r.name,
  slug: r.slug,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
})

const slugs = slugGuard({
  table: 'public.tags',
  scope: 'tenant_id',
  label: 'name',
  fallback: 'tag',
  taken: takenInTenant('tag'),
})

export async function createTag(ctx: ServiceContext, input: CreateTagInput): Promise<Tag> {
  requireRole(ctx.caller, editorRoles)
  const { caller } = ctx
  const now = ctx.clock.now()
  let slug = input.slug ?? ''
  const row = await ctx
    .asTenant(async (tx) => {
      if (input.slug) await slugs.requireFree(tx, caller.tenantId, input.slug, null)
      else slug = await slugs.freeSlugFor(tx, caller.tenantId, input.name, null)
      const [tag] = await tx<TagRow[]>`
        insert into public.tags (tenant_id, name, slug, created_at, updated_at)
        values (${caller.tenantId}, ${input.name}, ${slug}, ${now}, ${now})
        returning ${tx.unsafe(tagColumns)}`
      return tag!
    })
    .catch(slugs.raceAsConflict(slug))
  forgetPublishedReads(ctx, caller.tenantId)
  return presentTag(row)
}

export async function listTags(ctx: ServiceContext, page: PageRequest): Promise<Page<Tag>> {
  const { caller } = ctx
  return keysetPage(page, { at: 'created_at', oldestFirst: true }, presentTag, (keyset) =>
    ctx.readAsTenant(
      (q) => q<TagRow[]>`
          select ${q.unsafe(tagColumns)} from public.tags
          where tenant_id = ${caller.tenantId}
            ${keyset(q)}`,
    ),
  )
}

export async function getTag(ctx: ServiceContext, id: string): Promise<Tag> {
  const [row] = await ctx.readAsTenant(
    (q) => q<TagRow[]>`
      select ${q.unsafe(tagColumns)} from public.tags where id = ${id} and tenant_id = ${ctx.caller.tenantId}`,
  )
  if (!row) throw notFound('Tag')
  return presentTag(row)
}

/** Renames a tag or changes its slug (articles name it by the new slug from then on). */
export async function updateTag(ctx: ServiceContext, id: string, input: UpdateTagInput): Promise<Tag> {
  requireRole(ctx.caller, editorRoles)
  const { caller } = ctx
  const now = ctx.clock.now()
  const row = await ctx
    .asTenant(async (tx) => {
      if (input.slug) await slugs.requireFree(tx, caller.tenantId, input.slug, id)
      const [tag] = await tx<TagRow[]>`
        update public.tags set name = coalesce(${input.name ?? null}::text, name),
          slug = coalesce(${input.slug ?? null}::text, slug), updated_at = ${now}
        where id = ${id} and tenant_id = ${caller.tenantId}
        returning ${tx.unsafe(tagColumns)}`
      return tag
    })
    .catch(slugs.raceAsConflict(input.slug ?? ''))
  if (!row) throw notFound('Tag')
  forgetPublishedReads(ctx, caller.tenantId)
  return presentTag(row)
}

/** Deletes the tag; the articles that carried it keep their other tags. */
export async function deleteTag(ctx: ServiceContext, id: string): Promise<void> {
  requireRole(ctx.caller, editorRoles)
  const { caller } = ctx
  const [row] = await ctx.asTenant(
    (tx) => tx`delete from public.tags where id = ${id} and tenant_id = ${caller.tenantId} returning id`,
  )
  if (!row) throw notFound('Tag')
  forgetPublishedReads(ctx, caller.tenantId)
}
