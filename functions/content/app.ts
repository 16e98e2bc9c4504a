import type { FunctionDeps } from '@shared/infra/deps.ts'
import { serviceContext } from '@shared/infra/http/define-route.ts'
import { createFunctionApp } from '@shared/infra/http/function-app.ts'
import { MEDIA_BUCKET_MAX_BYTES } from '@shared/services/media/bucket.ts'
import { meterContentRequest } from '@shared/services/usage/metering.ts'
import { registerGetArticleBySlug } from './routes/articles/by-slug.ts'
import { registerCancelSchedule } from './routes/articles/cancel-schedule.ts'
import { registerCreateArticle } from './routes/articles/create.ts'
import { registerDeleteArticle } from './routes/articles/delete.ts'
import { registerGetArticle } from './routes/articles/get.ts'
import { registerPublishArticle } from './routes/articles/publish.ts'
import { registerReturnArticle } from './routes/articles/return.ts'
import { registerScheduleArticle } from './routes/articles/schedule.ts'
import { registerArticleSources } from './routes/articles/sources.ts'
import { registerArticleStory } from './routes/articles/story.ts'
import { registerSubmitArticle } from './routes/articles/submit.ts'
import { registerUnpublishArticle } from './routes/articles/unpublish.ts'
import { registerUpdateArticle } from './routes/articles/update.ts'
import { registerAtomFeed } from './routes/feeds/atom.ts'
import { registerJsonFeed } from './routes/feeds/json.ts'
import { registerRssFeed } from './routes/feeds/rss.ts'
import { registerSitemap } from './routes/feeds/sitemap.ts'
import { registerSitemapPage } from './routes/feeds/sitemap-page.ts'
import { registerPublishScheduledJob } from './routes/jobs/publish-scheduled.ts'
import { registerListContent } from './routes/list.ts'
import { registerDeleteMedia } from './routes/media/delete.ts'
import { registerGetMedia } from './routes/media/get.ts'
import { registerListMedia } from './routes/media/list.ts'
import { registerUpdateMedia } from './routes/media/update.ts'
import { registerUploadMedia } from './routes/media/upload.ts'
import { registerMediaUsage } from './routes/media/usage.ts'
import { registerCreatePreview } from './routes/previews/create.ts'
import { registerListPreviews } from './routes/previews/list.ts'
import { registerReadPreview } from './routes/previews/read.ts'
import { registerRevokePreview } from './routes/previews/revoke.ts'
import { registerGetRevision } from './routes/revisions/get.ts'
import { registerListRevisions } from './routes/revisions/list.ts'
import { registerRestoreRevision } from './routes/revisions/restore.ts'
import { registerCreateSite } from './routes/sites/create.ts'
import { registerDeleteSite } from './routes/sites/delete.ts'
import { registerGetSite } from './routes/sites/get.ts'
import { registerUpdateSite } from './routes/sites/update.ts'
import { registerCreateTag } from './routes/tags/create.ts'
import { registerDeleteTag } from './routes/tags/delete.ts'
import { registerGetTag } from './routes/tags/get.ts'
import { registerListTags } from './routes/tags/list.ts'
import { registerUpdateTag } from './routes/tags/update.ts'
import { registerCreateTranslation } from './routes/translations/create.ts'
import { registerListTranslations } from './routes/translations/list.ts'

export const functionName = 'content'

/** Content API: a tenant's sites, articles, tags and revisions; requests made with API keys are metered. */
export function createApp(deps: FunctionDeps) {
  const app = createFunctionApp(
    functionName,
    deps,
    'Content API: sites, articles, tags, revisions and the media library',
    {
      keyOriginCors: true,
      meter: (c, { buffered }) => meterContentRequest(serviceContext(c), { buffered }),
      // A media upload carries the image: up to the bucket's limit (each plan's is lower or equal).
      bodyLimitFor: (path, method) =>
        method === 'POST' && /\/media\/?$/.test(path) ? MEDIA_BUCKET_MAX_BYTES + 64 * 1024 : undefined,
    },
  )
  for (const register of [
    registerListContent,
    registerGetArticle,
    registerCreateSite,
    registerGetSite,
    registerUpdateSite,
    registerDeleteSite,
    registerCreateArticle,
    registerUpdateArticle,
    registerDeleteArticle,
    registerPublishArticle,
    registerUnpublishArticle,
    registerArticleSources,
    registerArticleStory,
    registerGetArticleBySlug,
    registerScheduleArticle,
    registerCancelSchedule,
    registerSubmitArticle,
    registerReturnArticle,
    registerListRevisions,
    registerGetRevision,
    registerRestoreRevision,
    registerListTags,
    registerGetTag,
    registerCreateTag,
    registerUpdateTag,
    registerDeleteTag,
    registerPublishScheduledJob,
    registerRssFeed,
    registerAtomFeed,
    registerJsonFeed,
    registerSitemap,
    registerSitemapPage,
    registerCreatePreview,
    registerListPreviews,
    registerRevokePreview,
    registerReadPreview,
    registerCreateTranslation,
    registerListTranslations,
    registerUploadMedia,
    registerListMedia,
    registerMediaUsage,
    registerGetMedia,
    registerUpdateMedia,
    registerDeleteMedia,
  ])
    register(app)
  return app
}
