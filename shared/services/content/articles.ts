import { editorRoles, requireRole } from '@shared/infra/caller.ts'
import { isPgError, pgErrors, type Tx } from '@shared/infra/db.ts'
import type { ServiceContext } from '@shared/infra/deps.ts'
import { invalidField, notFound } from '@shared/infra/errors.ts'
import { recordEvent } from '@shared/infra/events.ts'
import { forgetPublishedReads } from '@shared/infra/hot-path/hot-path.ts'
import { requireOwnDraft, requireSelfAsAuthor } from './article-access.ts'
import { requireUnpublishAfter } from './article-lifecycle.ts'
import { type ArticleRow, presentArticle, readArticle, updatedEvent } from './article-row.ts'
import { articleSlugs } from './article-slugs.ts'
import { excerptOf } from './render.ts'
import { saveRevision } from './revision-store.ts'
import type { Article, CreateArticleInput, UpdateArticleInput } from './schema.ts'
import { localeRace, requireLocaleSlot } from './translation-slots.ts'

/**
 * Writing a tenant's articles: create (a draft), update its fields, delete. Every save keeps a
 * revision (revisions.ts) and records content.updated (created, updated, deleted). Reading is in
 * article-reads.ts, publishing, scheduling and review in article-lifecycle.ts. docs/content.md.
 */

/** NOT_FOUND unless the site is one of the tenant's. */
async function requireSite(tx: Tx, tenantId: string, siteId: string): Promise<void> {
  const [site] = await tx`select 1 from public.sites where id = ${siteId} and tenant_id = ${tenantId}`
  if (!site) throw notFound('Site')
}

/** The tenant's tags by slug, in the order given; VALIDATION_ERROR (field tags) naming unknown ones. */
async function resolveTags(tx: Tx, tenantId: string, slugs: readonly string[]): Promise<string[]> {
  if (slugs.length === 0) return []
  const rows = await tx<{ id: string; slug: string }[]>`
    select id, slug from public.tags where tenant_id = ${tenantId} and slug = any (${slugs as string[]})`
  const bySlug = new Map(rows.map((r) => [r.slug, r.id]))
  const unknown = slugs.filter((s) => !bySlug.has(s))
  if (unknown.length > 0)
    throw invalidField(
      'tags',
      `unknown tag ${unknown.join(', ')}: create it with POST /v1/content/tags first`,
      `Unknown tag: ${unknown.join(', ')}`,
    )
  return slugs.map((s) => bySlug.get(s)!)
}

/** VALIDATION_ERROR (field author_id) unless the user is a member of the tenant. */
async function requireMember(tx: Tx, tenantId: string, userId: string): Promise<void> {
  const [member] = await tx`
    select 1 from public.tenant_members where tenant_id = ${tenantId} and user_id = ${userId}`
  if (!member) throw invalidField('author_id', 'must be a member of the tenant')
}

async function setTags(tx: Tx, tenantId: string, articleId: string, tagIds: string[]): Promise<void> {
  await tx`delete from public.article_tags where article_id = ${articleId} and tenant_id = ${tenantId}`
  if (tagIds.length === 0) return
  await tx`
    insert into public.article_tags (tenant_id, article_id, tag_id, position)
    select ${tenantId}, ${articleId}, t.id, t.ord - 1
    from unnest(${tagIds}::uuid[]) with ordinality as t (id, ord)`
}

/**
 * A draft in one of the tenant's sites; NOT_FOUND when the site is not the tenant's. With
 * `translationOf` (a group's source), a translation of it in input.locale (translations.ts).
 */
export async function createArticle(
  ctx: ServiceContext,
  input: CreateArticleInput,
  translationOf: string | null = null,
): Promise<Article> {
  const { caller } = ctx
  const now = ctx.clock.now()
  let slug = input.slug ?? ''
  requireSelfAsAuthor(caller, input.author_id)
  const row = await ctx
    .asTenant(async (tx) => {
      await requireSite(tx, caller.tenantId, input.site_id)
      const locale = await requireLocaleSlot(tx, input.site_id, input.locale, translationOf)
      if (input.slug) await articleSlugs.requireFree(tx, input.site_id, input.slug, null)
      else slug = await articleSlugs.freeSlugFor(tx, input.site_id, input.title, null)
      const tagIds = await resolveTags(tx, caller.tenantId, input.tags ?? [])
      const authorId = input.author_id === undefined ? caller.userId : input.author_id
      if (authorId) await requireMember(tx, caller.tenantId, authorId)
      const [created] = await tx<{ id: string }[]>`
        insert into public.articles (tenant_id, site_id, slug, title, body, body_excerpt, body_excerpt_md5, excerpt,
          feature_image_url, feature_image_alt, author_id, meta_title, meta_description, canonical_url,
          created_at, updated_at, locale, translation_of)
        values (${caller.tenantId}, ${input.site_id}, ${slug}, ${input.title}, ${input.body},
          ${excerptOf(input.body)}, md5(${input.body}),
          ${input.excerpt ?? null}, ${input.feature_image?.url ?? null}, ${input.feature_image?.alt ?? null},
          ${authorId}, ${input.meta_title ?? null}, ${input.meta_description ?? null},
          ${input.canonical_url ?? null}, ${now}, ${now}, ${locale}, ${translationOf})
        returning id`
      const id = created!.id
      await setTags(tx, caller.tenantId, id, tagIds)
      // A live article takes its slug back from a redirect left by another one.
      await tx`delete from public.article_slug_redirects where site_id = ${input.site_id} and slug = ${slug}`
      const article = await saveRevision(
        tx,
        caller,
        (await readArticle(tx, caller.tenantId, id))!,
        'created',
        now,
      )
      await recordEvent(tx, {
        tenantId: caller.tenantId,
        type: 'content.updated',
        at: now,
        data: updatedEvent(article, 'created', ['title', 'body'], now),
      })
      return article
    })
    .catch((err) => {
      // The site was deleted between the check and the insert.
      if (isPgError(err, pgErrors.foreignKeyViolation)) throw notFound('Site')
      return articleSlugs.raceAsConflict(slug)(localeRace(err, input.locale))
    })
  forgetPublishedReads(ctx, ctx.caller.tenantId)
  ctx.onOutboxCommitted?.()
  return presentArticle(row)
}

/** The fields of UpdateArticleInput, in the order changed_fields lists them. */
const updatableFields = [
  'title',
  'body',
  'slug',
  'excerpt',
  'feature_image',
  'tags',
  'author_id',
  'meta_title',
  'meta_description',
  'canonical_url',
] as const

/** Whether `field` in `input` differs from the article as it is. */
function differs(
  field: (typeof updatableFields)[number],
  input: UpdateArticleInput,
  before: ArticleRow,
): boolean {
  const value = input[field]
  if (value === undefined) return false
  switch (field) {
    case 'feature_image': {
      const image = input.feature_image
      return (
        (image?.url ?? null) !== before.feature_image_url ||
        (image ? image.alt : null) !== before.feature_image_alt
      )
    }
    case 'tags':
      return (input.tags ?? []).join(',') !== before.tags.map((t) => t.slug).join(',')
    default:
      return value !== before[field]
  }
}

/**
 * Changes any of the article's fields; records a revision and content.updated only when
 * something changed. A published article's old slug keeps leading to it.
 */
export async function updateArticle(
  ctx: ServiceContext,
  id: string,
  input: UpdateArticleInput,
): Promise<Article> {
  const { caller } = ctx
  const now = ctx.clock.now()
  requireSelfAsAuthor(caller, input.author_id)
  const unpublishAt = input.unpublish_at === undefined ? undefined : toDate(input.unpublish_at)
  // When an article leaves the site is the editors' call, as when it goes live (scheduling).
  if (unpublishAt !== undefined) requireRole(caller, editorRoles)
  const { row, changed } = await ctx
    .asTenant(async (tx: Tx) => {
      await requireOwnDraft(tx, caller, id)
      const [locked] = await tx`
        select 1 from public.articles where id = ${id} and tenant_id = ${caller.tenantId} for update`
      if (!locked) throw notFound('Article')
      const before = (await readArticle(tx, caller.tenantId, id))!
      if (unpublishAt) requireUnpublishAfter(before.publish_at, unpublishAt, now)
      const unpublishChanged =
        unpublishAt !== undefined &&
        (before.unpublish_at?.getTime() ?? null) !== (unpublishAt?.getTime() ?? null)
      const fieldsChanged = updatableFields.filter((f) => differs(f, input, before))
      const changed: string[] = [...fieldsChanged, ...(unpublishChanged ? ['unpublish_at'] : [])]
      if (changed.length === 0) return { row: before, changed }
      if (unpublishChanged)
        await tx`update public.articles set unpublish_at = ${unpublishAt}, updated_at = ${now}
                 where id = ${id} and tenant_id = ${caller.tenantId}`
      // unpublish_at is the schedule's, not the text's: changing only it saves no revision.
      const saved =
        fieldsChanged.length === 0
          ? (await readArticle(tx, caller.tenantId, id))!
          : await saveRevision(
              tx,
              caller,
              await applyFields(tx, caller.tenantId, before, input, now),
              'updated',
              now,
            )
      await recordEvent(tx, {
        tenantId: caller.tenantId,
        type: 'content.updated',
        at: now,
        data: updatedEvent(saved, 'updated', changed, now),
      })
      return { row: saved, changed }
    })
    .catch(articleSlugs.raceAsConflict(input.slug ?? ''))
  forgetPublishedReads(ctx, ctx.caller.tenantId)
  if (changed.length > 0) ctx.onOutboxCommitted?.()
  return presentArticle(row)
}

const toDate = (iso: string | null) => (iso === null ? null : new Date(iso))

/** Writes the given fields over `before` (validating slug, tags, author) and reads the result. */
export async function applyFields(
  tx: Tx,
  tenantId: string,
  before: ArticleRow,
  input: UpdateArticleInput,
  now: Date,
): Promise<ArticleRow> {
  const slug = input.slug ?? before.slug
  if (slug !== before.slug) {
    await articleSlugs.requireFree(tx, before.site_id, slug, before.id)
    await tx`delete from public.article_slug_redirects where site_id = ${before.site_id} and slug = ${slug}`
    // Readers may hold links to the published slug: it keeps leading here.
    if (before.status === 'published')
      await tx`
        insert into public.article_slug_redirects (tenant_id, site_id, slug, article_id, created_at)
        values (${tenantId}, ${before.site_id}, ${before.slug}, ${before.id}, ${now})
        on conflict (site_id, slug) do update set article_id = excluded.article_id, created_at = excluded.created_at`
  }
  if (input.tags !== undefined)
    await setTags(tx, tenantId, before.id, await resolveTags(tx, tenantId, input.tags))
  if (input.author_id) await requireMember(tx, tenantId, input.author_id)
  const pick = <K extends keyof UpdateArticleInput & keyof ArticleRow>(k: K) =>
    (input[k] === undefined ? before[k] : input[k]) as ArticleRow[K]
  const image = input.feature_image === undefined ? undefined : input.feature_image
  await tx`
    update public.articles set
      title = ${pick('title')}, body = ${pick('body')}, slug = ${slug}, excerpt = ${pick('excerpt')},
      body_excerpt = ${excerptOf(pick('body'))}, body_excerpt_md5 = md5(${pick('body')}),
      feature_image_url = ${image === undefined ? before.feature_image_url : (image?.url ?? null)},
      feature_image_alt = ${image === undefined ? before.feature_image_alt : (image?.alt ?? null)},
      author_id = ${pick('author_id')}, meta_title = ${pick('meta_title')},
      meta_description = ${pick('meta_description')}, canonical_url = ${pick('canonical_url')},
      updated_at = ${now}
    where id = ${before.id} and tenant_id = ${tenantId}`
  return (await readArticle(tx, tenantId, before.id))!
}

export async function deleteArticle(ctx: ServiceContext, id: string): Promise<void> {
  const { caller } = ctx
  const now = ctx.clock.now()
  const deleted = await ctx.asTenant(async (tx) => {
    await requireOwnDraft(tx, caller, id)
    const article = await readArticle(tx, caller.tenantId, id)
    if (!article) return false
    await tx`delete from public.articles where id = ${id} and tenant_id = ${caller.tenantId}`
    await recordEvent(tx, {
      tenantId: caller.tenantId,
      type: 'content.updated',
      at: now,
      data: updatedEvent(article, 'deleted', [], now),
    })
    return true
  })
  if (!deleted) throw notFound('Article')
  forgetPublishedReads(ctx, ctx.caller.tenantId)
  ctx.onOutboxCommitted?.()
}
