import { editorRoles, requireRole, type TenantCaller } from '@shared/infra/caller.ts'
import { isPgError, pgErrors, type Queryable, type RequestClaims, type Tx } from '@shared/infra/db.ts'
import type { ServiceContext } from '@shared/infra/deps.ts'
import { invalidField, notFound, requireFuture, ServiceError } from '@shared/infra/errors.ts'
import { recordEvent } from '@shared/infra/events.ts'
import { forgetPublishedReads } from '@shared/infra/hot-path/hot-path.ts'
import { excerptOf, renderHtml, renderPlaintext } from './render.ts'
import { saveRevision } from './revision-store.ts'
import type { Article, ArticleSource, CreateArticleInput, UpdateArticleInput } from './schema.ts'
import { numberedSlug, slugify } from './slug.ts'
import { type ArticleGroupColumns, localeRace, requireLocaleSlot } from './translation-slots.ts'

/**
 * A tenant's articles: get (by id or by slug in a site), create (a draft), update, delete,
 * schedule, publish and unpublish. Every save keeps a revision (revisions.ts). Events:
 * content.updated (created, updated, deleted), content.scheduled, content.published (exactly the
 * spec's data) and content.unpublished. docs/content.md.
 */

export const contentFormats = ['markdown', 'html', 'plaintext'] as const
export type ContentFormat = (typeof contentFormats)[number]

export interface ArticleRow {
  id: string
  site_id: string
  slug: string
  title: string
  body: string
  excerpt: string | null
  /** The excerpt derived from the body when it was written (null: derive it on read). */
  body_excerpt: string | null
  feature_image_url: string | null
  feature_image_alt: string | null
  author_id: string | null
  author_name: string | null
  meta_title: string | null
  meta_description: string | null
  canonical_url: string | null
  status: Article['status']
  publish_at: Date | null
  /** Absent from the read by slug (private.article_by_slug does not return it). */
  unpublish_at?: Date | null
  published_at: Date | null
  created_at: Date
  updated_at: Date
  revision_id: string | null
  published_revision_id: string | null
  review_requested_at: Date | null
  tags: { id: string; name: string; slug: string }[]
  locale: string
  translation_of: string | null
}

/** The article with its tags (in the article's order) and its author's name, as the caller sees it. */
export const selectArticle = (q: Queryable, extra = q``) => q`
  select a.id, a.site_id, a.slug, a.title, a.body, a.excerpt, a.body_excerpt, a.feature_image_url, a.feature_image_alt,
         a.author_id, (select n.name from private.author_names(array[a.author_id]) n) as author_name,
         a.meta_title, a.meta_description, a.canonical_url, a.status, a.publish_at, a.unpublish_at, a.published_at,
         a.created_at, a.updated_at, a.revision_id, a.published_revision_id, a.review_requested_at, a.locale, a.translation_of,
         coalesce((select json_agg(json_build_object('id', t.id, 'name', t.name, 'slug', t.slug) order by x.position)
                   from public.article_tags x join public.tags t on t.tenant_id = x.tenant_id and t.id = x.tag_id
                   where x.article_id = a.id), '[]'::json) as tags ${extra}
  from public.articles a`

export function presentArticle(r: ArticleRow, formats: readonly ContentFormat[] = ['markdown']): Article {
  return {
    object: 'article',
    id: r.id,
    site_id: r.site_id,
    slug: r.slug,
    title: r.title,
    ...(formats.includes('markdown') && { body: r.body }),
    ...(formats.includes('html') && { html: renderHtml(r.body) }),
    ...(formats.includes('plaintext') && { plaintext: renderPlaintext(r.body) }),
    // The excerpt derived when the body was written; derived now for a row written without it.
    excerpt: r.excerpt ?? r.body_excerpt ?? excerptOf(r.body),
    custom_excerpt: r.excerpt,
    feature_image: r.feature_image_url ? { url: r.feature_image_url, alt: r.feature_image_alt ?? '' } : null,
    tags: r.tags,
    author: r.author_id && r.author_name ? { id: r.author_id, name: r.author_name } : null,
    meta_title: r.meta_title,
    meta_description: r.meta_description,
    canonical_url: r.canonical_url,
    status: r.status,
    publish_at: r.publish_at?.toISOString() ?? null,
    ...(r.unpublish_at !== undefined && { unpublish_at: r.unpublish_at?.toISOString() ?? null }),
    published_at: r.published_at?.toISOString() ?? null,
    revision_id: r.revision_id,
    published_revision_id: r.published_revision_id,
    edited_since_published:
      r.status === 'published' &&
      r.published_revision_id !== null &&
      r.revision_id !== r.published_revision_id,
    review_requested_at: r.review_requested_at?.toISOString() ?? null,
    locale: r.locale,
    translation_of: r.translation_of,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  }
}

/** The fields besides title and body that content.updated carries (never the body). */
function fieldsOf(r: ArticleRow) {
  return {
    slug: r.slug,
    excerpt: r.excerpt,
    feature_image: r.feature_image_url ? { url: r.feature_image_url, alt: r.feature_image_alt ?? '' } : null,
    tags: r.tags.map((t) => t.slug),
    author_id: r.author_id,
    meta_title: r.meta_title,
    meta_description: r.meta_description,
    canonical_url: r.canonical_url,
  }
}

/** content.updated: what changed in which article, with its fields as they now are (never the body). */
export function updatedEvent(
  r: ArticleRow,
  change: 'created' | 'updated' | 'deleted',
  fields: string[],
  at: Date,
) {
  return {
    article_id: r.id,
    site_id: r.site_id,
    title: r.title,
    status: r.status,
    change,
    changed_fields: fields,
    updated_at: at.toISOString(),
    ...fieldsOf(r),
    publish_at: r.publish_at?.toISOString() ?? null,
  }
}

/**
 * An article taken back to draft, by hand or by its unpublish_at: content.updated (subscribers to every
 * modification of an article see this one too) and content.unpublished.
 */
export async function recordUnpublished(
  tx: Queryable,
  tenantId: string,
  after: ArticleRow,
  previousStatus: Article['status'],
  changedFields: string[],
  now: Date,
): Promise<void> {
  await recordEvent(tx, {
    tenantId,
    type: 'content.updated',
    at: now,
    data: updatedEvent(after, 'updated', changedFields, now),
  })
  await recordEvent(tx, {
    tenantId,
    type: 'content.unpublished',
    at: now,
    data: {
      article_id: after.id,
      site_id: after.site_id,
      title: after.title,
      slug: after.slug,
      previous_status: previousStatus,
      unpublished_at: now.toISOString(),
    },
  })
}

async function readArticle(tx: Queryable, tenantId: string, id: string): Promise<ArticleRow | undefined> {
  const [row] = await tx<ArticleRow[]>`${selectArticle(tx)} where a.id = ${id} and a.tenant_id = ${tenantId}`
  return row
}

export async function getArticle(
  ctx: ServiceContext,
  id: string,
  formats: readonly ContentFormat[] = ['markdown'],
): Promise<Article> {
  const row = await ctx.readAsTenant((q) => readArticle(q, ctx.caller.tenantId, id))
  if (!row) throw notFound('Article')
  return presentArticle(row, formats)
}

/**
 * A contributor writes only drafts it authored (docs/adr/0027-contributor-role.md):
 * INSUFFICIENT_PERMISSIONS for anything else, NOT_FOUND for no article. Row-level security
 * refuses the same writes; this check gives the caller the reason.
 */
export async function requireOwnDraft(tx: Queryable, caller: TenantCaller, id: string): Promise<void> {
  if (caller.role !== 'contributor') return
  const [a] = await tx<{ author_id: string | null; status: Article['status'] }[]>`
    select author_id, status from public.articles where id = ${id} and tenant_id = ${caller.tenantId}`
  if (!a) throw notFound('Article')
  if (a.author_id !== caller.userId)
    throw new ServiceError(
      'INSUFFICIENT_PERMISSIONS',
      'A contributor changes only the articles it wrote: ask an editor (member, admin or owner)',
    )
  if (a.status !== 'draft')
    throw new ServiceError(
      'INSUFFICIENT_PERMISSIONS',
      `The article is ${a.status}: only an editor (member, admin or owner) changes it now`,
    )
}

/** A contributor's articles are its own: it cannot name another author. */
function requireSelfAsAuthor(caller: TenantCaller, authorId: string | null | undefined): void {
  if (caller.role === 'contributor' && authorId !== undefined && authorId !== caller.userId)
    throw new ServiceError('INSUFFICIENT_PERMISSIONS', 'A contributor is the author of its own articles', {
      details: [{ field: 'author_id', message: 'must be your own user id' }],
    })
}

/**
 * private.article_by_slug: with claims, as that caller under row-level security; with null, as the
 * pool's role (the benchmarks' bare read as the owner). `owner` is the platform's pool: no API
 * role may execute the function, since it takes the claims as an argument.
 */
export function queryArticleBySlug(
  owner: Queryable,
  claims: RequestClaims | null,
  tenantId: string,
  siteId: string,
  slug: string,
  locale: string | null = null,
): Promise<(ArticleRow & ArticleGroupColumns & { redirect_to: string | null })[]> {
  return owner<(ArticleRow & ArticleGroupColumns & { redirect_to: string | null })[]>`
    select * from private.article_by_slug(${claims ? JSON.stringify(claims) : null}::text, ${tenantId}::uuid,
      ${siteId}::uuid, ${slug}::text, ${locale}::text)`
}

/** NOT_FOUND unless the site is one of the tenant's. */
async function requireSite(tx: Tx, tenantId: string, siteId: string): Promise<void> {
  const [site] = await tx`select 1 from public.sites where id = ${siteId} and tenant_id = ${tenantId}`
  if (!site) throw notFound('Site')
}

/** CONFLICT naming the article that holds `slug` in the site (other than `exceptId`). */
async function requireFreeSlug(tx: Tx, siteId: string, slug: string, exceptId: string | null): Promise<void> {
  const [holder] = await tx<{ id: string; title: string }[]>`
    select id, title from public.articles
    where site_id = ${siteId} and slug = ${slug} and id is distinct from ${exceptId}`
  if (holder) throw slugTaken(slug, holder)
  // An old slug of a live article (a redirect) is reserved for it; an editor giving it to another
  // article releases it (the caller then deletes the redirect), a contributor cannot. The role is
  // the database's own (private.request_not_contributor), as in the policies that hold the rule.
  const [reserved] = await tx<{ id: string; title: string; releasable: boolean }[]>`
    select live.id, live.title, (select private.request_not_contributor()) as releasable
    from public.article_slug_redirects r join public.articles live on live.id = r.article_id
    where r.site_id = ${siteId} and r.slug = ${slug} and r.article_id is distinct from ${exceptId}
      and live.status in ('published', 'scheduled')`
  if (reserved && !reserved.releasable)
    throw new ServiceError(
      'CONFLICT',
      `The slug "${slug}" is reserved: readers' links to it lead to the article ${reserved.id} ("${reserved.title}"). An editor (member, admin or owner) can release it by giving it to an article`,
      { details: [{ field: 'slug', message: `reserved for the article ${reserved.id}` }] },
    )
}

const slugTaken = (slug: string, holder: { id: string; title: string }) =>
  new ServiceError(
    'CONFLICT',
    `The slug "${slug}" is taken on this site by the article ${holder.id} ("${holder.title}")`,
    { details: [{ field: 'slug', message: `taken by the article ${holder.id}` }] },
  )

/** The title's slug, numbered (-2, -3, ...) past those the site's other articles hold or reserve. */
async function freeSlugFor(tx: Tx, siteId: string, title: string, exceptId: string | null): Promise<string> {
  const base = slugify(title, 'article')
  const taken = new Set(
    (
      await tx<{ slug: string }[]>`
        select slug from public.articles
        where site_id = ${siteId} and id is distinct from ${exceptId}
          and (slug = ${base} or slug ~ ${`^${base}-[0-9]+$`})
        union all
        -- A live article's old slug is not taken silently: only an editor's explicit slug releases it.
        select r.slug from public.article_slug_redirects r join public.articles live on live.id = r.article_id
        where r.site_id = ${siteId} and r.article_id is distinct from ${exceptId}
          and live.status in ('published', 'scheduled')
          and (r.slug = ${base} or r.slug ~ ${`^${base}-[0-9]+$`})`
    ).map((r) => r.slug),
  )
  for (let n = 1; ; n++) {
    const candidate = numberedSlug(base, n)
    if (!taken.has(candidate)) return candidate
  }
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

/** A unique violation on the site's slugs, lost in a race after the check: CONFLICT all the same. */
function slugRace(slug: string) {
  return (err: unknown): never => {
    if (isPgError(err, pgErrors.uniqueViolation) && String((err as Error).message).includes('slug'))
      throw new ServiceError('CONFLICT', `The slug "${slug}" is taken on this site`, {
        details: [{ field: 'slug', message: 'taken by another article' }],
      })
    throw err
  }
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
      if (input.slug) await requireFreeSlug(tx, input.site_id, input.slug, null)
      else slug = await freeSlugFor(tx, input.site_id, input.title, null)
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
      return slugRace(slug)(localeRace(err, input.locale))
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
    .catch(slugRace(input.slug ?? ''))
  forgetPublishedReads(ctx, ctx.caller.tenantId)
  if (changed.length > 0) ctx.onOutboxCommitted?.()
  return presentArticle(row)
}

const toDate = (iso: string | null) => (iso === null ? null : new Date(iso))

/**
 * unpublish_at must lie in the future and after publish_at when the article is scheduled:
 * VALIDATION_ERROR naming unpublish_at (checked before anything is written).
 */
function requireUnpublishAfter(publishAt: Date | null, unpublishAt: Date, now: Date): void {
  requireFuture('unpublish_at', unpublishAt, now)
  if (publishAt && unpublishAt <= publishAt)
    throw invalidField(
      'unpublish_at',
      `must lie after publish_at (${publishAt.toISOString()})`,
      'unpublish_at must lie after publish_at',
    )
}

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
    await requireFreeSlug(tx, before.site_id, slug, before.id)
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

/** content.published's data: exactly the spec's four fields. */
export const publishedEvent = (r: { id: string; title: string; site_id: string; published_at: Date }) => ({
  article_id: r.id,
  title: r.title,
  site_id: r.site_id,
  published_at: r.published_at.toISOString(),
})

/**
 * Publishes a draft or a scheduled article now (event content.published with exactly the spec's
 * data), recording the revision that went live; a published one is returned as is.
 */
export async function publishArticle(ctx: ServiceContext, id: string): Promise<Article> {
  requireRole(ctx.caller, editorRoles)
  const { caller } = ctx
  const now = ctx.clock.now()
  const { row, published } = await ctx.asTenant(async (tx) => {
    const [article] = await tx<{ id: string; title: string; site_id: string; published_at: Date }[]>`
      update public.articles set status = 'published', published_at = ${now}, publish_at = null,
        published_revision_id = revision_id, review_requested_at = null, updated_at = ${now},
        unpublish_at = case when unpublish_at > ${now} then unpublish_at end
      where id = ${id} and tenant_id = ${caller.tenantId} and status <> 'published'
      returning id, title, site_id, published_at`
    if (article)
      await recordEvent(tx, {
        tenantId: caller.tenantId,
        type: 'content.published',
        at: now,
        data: publishedEvent(article),
      })
    return { row: await readArticle(tx, caller.tenantId, id), published: Boolean(article) }
  })
  if (!row) throw notFound('Article')
  forgetPublishedReads(ctx, ctx.caller.tenantId)
  if (published) ctx.onOutboxCommitted?.()
  return presentArticle(row)
}

/**
 * Schedules a draft (or reschedules a scheduled article) to be published at `publishAt`, which
 * must lie in the future: event content.scheduled. A published article is a CONFLICT
 * (unpublish it first). The publish-scheduled job publishes it within a minute of that time.
 */
export async function scheduleArticle(
  ctx: ServiceContext,
  id: string,
  publishAt: Date,
  unpublishAt?: Date,
): Promise<Article> {
  requireRole(ctx.caller, editorRoles)
  const { caller } = ctx
  const now = ctx.clock.now()
  if (publishAt <= now)
    throw invalidField(
      'publish_at',
      'must lie in the future: to publish now, POST /v1/content/articles/{id}/publish',
      'publish_at must lie in the future',
    )
  if (unpublishAt) requireUnpublishAfter(publishAt, unpublishAt, now)
  const row = await ctx.asTenant(async (tx) => {
    const [before] = await tx<{ status: string; publish_at: Date | null; unpublish_at: Date | null }[]>`
      select status, publish_at, unpublish_at from public.articles
      where id = ${id} and tenant_id = ${caller.tenantId} for update`
    if (!before) throw notFound('Article')
    if (before.status === 'published')
      throw new ServiceError('CONFLICT', 'The article is published: unpublish it before scheduling it', {
        details: [{ field: 'status', message: 'published' }],
      })
    const until = unpublishAt ?? before.unpublish_at
    // An unpublish_at kept from before must still come after the new publish_at.
    if (until && until <= publishAt)
      throw invalidField(
        'publish_at',
        `must lie before unpublish_at (${until.toISOString()}): move or clear unpublish_at first`,
        'publish_at must lie before unpublish_at',
      )
    if (
      before.publish_at?.getTime() === publishAt.getTime() &&
      (unpublishAt === undefined || before.unpublish_at?.getTime() === unpublishAt.getTime())
    )
      return readArticle(tx, caller.tenantId, id)
    await tx`
      update public.articles set status = 'scheduled', publish_at = ${publishAt}, review_requested_at = null,
        unpublish_at = ${until ?? null}, updated_at = ${now}
      where id = ${id} and tenant_id = ${caller.tenantId}`
    const after = (await readArticle(tx, caller.tenantId, id))!
    await recordEvent(tx, {
      tenantId: caller.tenantId,
      type: 'content.updated',
      at: now,
      data: updatedEvent(after, 'updated', ['status', 'publish_at'], now),
    })
    await recordEvent(tx, {
      tenantId: caller.tenantId,
      type: 'content.scheduled',
      at: now,
      data: {
        article_id: after.id,
        site_id: after.site_id,
        title: after.title,
        slug: after.slug,
        publish_at: publishAt.toISOString(),
        rescheduled: before.status === 'scheduled',
        scheduled_at: now.toISOString(),
      },
    })
    return after
  })
  forgetPublishedReads(ctx, ctx.caller.tenantId)
  ctx.onOutboxCommitted?.()
  return presentArticle(row!)
}

/**
 * Takes a published or scheduled article back to draft (event content.unpublished, with the
 * status it had): unpublishing, or cancelling a schedule. A draft is returned as is.
 */
export function unpublishArticle(ctx: ServiceContext, id: string): Promise<Article> {
  return backToDraft(ctx, id, ['published', 'scheduled'])
}

/**
 * Cancels a schedule: a scheduled article goes back to draft (event content.unpublished); a
 * draft is returned as is; a published article is a CONFLICT (unpublish it instead).
 */
export function cancelSchedule(ctx: ServiceContext, id: string): Promise<Article> {
  return backToDraft(ctx, id, ['scheduled'])
}

async function backToDraft(
  ctx: ServiceContext,
  id: string,
  from: readonly Exclude<Article['status'], 'draft'>[],
): Promise<Article> {
  requireRole(ctx.caller, editorRoles)
  const { caller } = ctx
  const now = ctx.clock.now()
  const { row, changed } = await ctx.asTenant(async (tx) => {
    const [before] = await tx<{ status: Article['status'] }[]>`
      select status from public.articles
      where id = ${id} and tenant_id = ${caller.tenantId} and status <> 'draft' for update`
    if (before && !from.includes(before.status as (typeof from)[number]))
      throw new ServiceError('CONFLICT', `The article is ${before.status}: unpublish it instead`, {
        details: [{ field: 'status', message: before.status }],
      })
    if (before) {
      await tx`
        update public.articles set status = 'draft', published_at = null, publish_at = null,
          unpublish_at = null, updated_at = ${now}
        where id = ${id} and tenant_id = ${caller.tenantId}`
      const after = (await readArticle(tx, caller.tenantId, id))!
      await recordUnpublished(
        tx,
        caller.tenantId,
        after,
        before.status,
        ['status', 'published_at', 'publish_at'],
        now,
      )
      return { row: after, changed: true }
    }
    return { row: await readArticle(tx, caller.tenantId, id), changed: false }
  })
  if (!row) throw notFound('Article')
  forgetPublishedReads(ctx, ctx.caller.tenantId)
  if (changed) ctx.onOutboxCommitted?.()
  return presentArticle(row)
}

/**
 * Asks the tenant's editors to review a draft: sets review_requested_at (event content.updated,
 * changed_fields review_requested_at); publishing or scheduling it clears it. Asking again
 * changes nothing; an article that is not a draft is a CONFLICT.
 */
export async function submitForReview(ctx: ServiceContext, id: string): Promise<Article> {
  const { caller } = ctx
  const now = ctx.clock.now()
  const { row, changed } = await ctx.asTenant(async (tx) => {
    const [before] = await tx<{ status: Article['status']; review_requested_at: Date | null }[]>`
      select status, review_requested_at from public.articles where id = ${id} and tenant_id = ${caller.tenantId}`
    if (!before) throw notFound('Article')
    if (before.status !== 'draft')
      throw new ServiceError(
        'CONFLICT',
        `The article is ${before.status}: only a draft is submitted for review`,
        {
          details: [{ field: 'status', message: before.status }],
        },
      )
    await requireOwnDraft(tx, caller, id)
    if (before.review_requested_at)
      return { row: (await readArticle(tx, caller.tenantId, id))!, changed: false }
    await tx`
      update public.articles set review_requested_at = ${now}, updated_at = ${now}
      where id = ${id} and tenant_id = ${caller.tenantId}`
    const after = (await readArticle(tx, caller.tenantId, id))!
    await recordEvent(tx, {
      tenantId: caller.tenantId,
      type: 'content.updated',
      at: now,
      data: updatedEvent(after, 'updated', ['review_requested_at'], now),
    })
    return { row: after, changed: true }
  })
  if (changed) ctx.onOutboxCommitted?.()
  return presentArticle(row)
}

/**
 * The scraped items a generated article was written from, in the order the model saw them;
 * empty for an article written by hand.
 */
export async function listArticleSources(ctx: ServiceContext, id: string): Promise<ArticleSource[]> {
  const { caller } = ctx
  // What an article was made from is the tenant's own business, not a published-only key's.
  if (caller.kind === 'published_key') throw notFound('Article')
  const { found, rows } = await ctx.asTenant(async (tx) => {
    const [article] =
      await tx`select 1 from public.articles where id = ${id} and tenant_id = ${caller.tenantId}`
    if (!article) return { found: false, rows: [] }
    const rows = await tx<(Omit<ArticleSource, 'published_at'> & { published_at: Date | null })[]>`
      select i.id, i.source_id, s.name as source_name, i.url, i.title, i.author, i.published_at
      from public.article_source_items r
      join public.source_items i on i.id = r.item_id and i.tenant_id = r.tenant_id
      join public.sources s on s.id = i.source_id and s.tenant_id = i.tenant_id
      where r.article_id = ${id} and r.tenant_id = ${caller.tenantId}
      order by coalesce(i.published_at, i.created_at), i.id`
    return { found: true, rows }
  })
  if (!found) throw notFound('Article')
  return rows.map((r) => ({ ...r, published_at: r.published_at?.toISOString() ?? null }))
}
