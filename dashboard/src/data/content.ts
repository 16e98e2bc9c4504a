/**
 * Sites, articles (their lifecycle, revisions, preview links and sources) and tags: the typed calls
 * and the hooks the content pages and the editor load them with.
 */
import { call, type paths, platform, type Schema } from '../api.ts'
import { useLoad } from './load.ts'

export type Site = Schema<'Site'>
export type SiteDetail = Schema<'SiteDetail'>
export type Article = Schema<'Article'>
export type ArticleStatus = Article['status']
/** An article's update: only the fields that change. */
export type ArticlePatch = Schema<'UpdateArticle'>
/** A row of GET /v1/content: a site or an article, by `object`, with the fields of its kind. */
export type ContentItem = Schema<'ContentItem'>
export type ContentQuery = NonNullable<paths['/v1/content']['get']['parameters']['query']>
export type RevisionSummary = Schema<'ArticleRevisionSummary'>
export type Revision = Schema<'ArticleRevision'>
export type Tag = Schema<'Tag'>
export type Story = Schema<'ArticleStory'>
export type StoryStep = Schema<'StoryStep'>
export type Translation = Schema<'Translation'>

// ---- Sites

/** The workspace's sites (the first 100), newest first; `q` searches their names. */
export const listSites = (q?: string) =>
  call(platform.GET('/v1/content', { params: { query: { type: 'site', limit: 100, order: 'newest', q } } }))
export const getSite = (id: string) =>
  call(platform.GET('/v1/content/sites/{id}', { params: { path: { id } } }))
export const useSite = (id: string) => useLoad(() => getSite(id), [id])
export const createSite = (body: Schema<'CreateSite'>) => call(platform.POST('/v1/content/sites', { body }))
export const updateSite = (id: string, body: Schema<'UpdateSite'>) =>
  call(platform.PATCH('/v1/content/sites/{id}', { params: { path: { id } }, body }))
export const deleteSite = (id: string) =>
  call(platform.DELETE('/v1/content/sites/{id}', { params: { path: { id } } }))

// ---- Articles

/** A page of GET /v1/content (articles across sites, or one site's). */
export const listContent = (query: ContentQuery) => call(platform.GET('/v1/content', { params: { query } }))
export const getArticle = (id: string) =>
  call(platform.GET('/v1/content/articles/{id}', { params: { path: { id } } }))
export const useArticle = (id: string) => useLoad(() => getArticle(id), [id])
export const createArticle = (body: Schema<'CreateArticle'>) =>
  call(platform.POST('/v1/content/articles', { body }))
export const updateArticle = (id: string, body: ArticlePatch) =>
  call(platform.PATCH('/v1/content/articles/{id}', { params: { path: { id } }, body }))
export const deleteArticle = (id: string) =>
  call(platform.DELETE('/v1/content/articles/{id}', { params: { path: { id } } }))
export const publishArticle = (id: string) =>
  call(platform.POST('/v1/content/articles/{id}/publish', { params: { path: { id } } }))
export const unpublishArticle = (id: string) =>
  call(platform.POST('/v1/content/articles/{id}/unpublish', { params: { path: { id } } }))
export const submitArticle = (id: string) =>
  call(platform.POST('/v1/content/articles/{id}/submit', { params: { path: { id } } }))
/** An editor hands a submitted draft back to its writer with a note (docs/dashboard.md "Review"). */
export const returnArticle = (id: string, note: string) =>
  call(platform.POST('/v1/content/articles/{id}/return', { params: { path: { id } }, body: { note } }))
export const scheduleArticle = (id: string, body: Schema<'ScheduleArticle'>) =>
  call(platform.POST('/v1/content/articles/{id}/schedule', { params: { path: { id } }, body }))
export const unscheduleArticle = (id: string) =>
  call(platform.DELETE('/v1/content/articles/{id}/schedule', { params: { path: { id } } }))
export const createPreviewLink = (id: string) =>
  call(platform.POST('/v1/content/articles/{id}/previews', { params: { path: { id } }, body: {} }))
/** An article as readers will see it, by its preview link's token (no session needed). */
export const usePreview = (token: string) =>
  useLoad(
    () =>
      call(
        platform.GET('/v1/content/previews/{token}', {
          params: { path: { token }, query: { formats: 'html' } },
        }),
      ),
    [token],
  )
/** The scraped items a generated draft was written from. */
export const useArticleSources = (id: string) =>
  useLoad(() => call(platform.GET('/v1/content/articles/{id}/sources', { params: { path: { id } } })), [id])

/** Where an article came from and what happened to it, in order. */
export const useStory = (id: string) =>
  useLoad(() => call(platform.GET('/v1/content/articles/{id}/story', { params: { path: { id } } })), [id])

// ---- Translations

/** The article's translation group; read again when `version` (its revision, its state) changes. */
export const useTranslations = (id: string, version: unknown[]) =>
  useLoad(
    () => call(platform.GET('/v1/content/articles/{id}/translations', { params: { path: { id } } })),
    [id, ...version],
  )
/** A draft translation in `locale`, starting from the article's fields. */
export const createTranslation = (id: string, locale: string) =>
  call(
    platform.POST('/v1/content/articles/{id}/translations', { params: { path: { id } }, body: { locale } }),
  )

// ---- Revisions

/** An article's revisions, newest first; read again when `revisionId` (the article's latest) changes. */
export const useRevisions = (id: string, revisionId?: string | null) =>
  useLoad(
    () =>
      call(
        platform.GET('/v1/content/articles/{id}/revisions', {
          params: { path: { id }, query: { limit: 50 } },
        }),
      ),
    [id, revisionId],
  )
export const getRevision = (id: string, revision_id: string) =>
  call(
    platform.GET('/v1/content/articles/{id}/revisions/{revision_id}', {
      params: { path: { id, revision_id } },
    }),
  )
export const restoreRevision = (id: string, revision_id: string) =>
  call(
    platform.POST('/v1/content/articles/{id}/revisions/{revision_id}/restore', {
      params: { path: { id, revision_id } },
    }),
  )

// ---- Tags

export const useTags = () =>
  useLoad(() => call(platform.GET('/v1/content/tags', { params: { query: { limit: 100 } } })))
/** A new tag; its slug is made from the name when none is given. */
export const createTag = (name: string, slug?: string) =>
  call(platform.POST('/v1/content/tags', { body: { name, ...(slug && { slug }) } }))
export const updateTag = (id: string, body: Schema<'UpdateTag'>) =>
  call(platform.PATCH('/v1/content/tags/{id}', { params: { path: { id } }, body }))
export const deleteTag = (id: string) =>
  call(platform.DELETE('/v1/content/tags/{id}', { params: { path: { id } } }))

/** A site's counts: the API leaves them out only for a published-only key, never for a member. */
export const siteCounts = (s: SiteDetail): NonNullable<SiteDetail['counts']> =>
  s.counts ?? {
    articles: 0,
    drafts: 0,
    scheduled: 0,
    published: 0,
    sources: 0,
    source_items: 0,
    affiliate_destinations: 0,
  }
