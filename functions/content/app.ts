import type { FunctionDeps } from '@shared/infra/deps.ts'
import { createFunctionApp } from '@shared/infra/http/function-app.ts'
import { registerCreateArticle } from './routes/articles/create.ts'
import { registerDeleteArticle } from './routes/articles/delete.ts'
import { registerGetArticle } from './routes/articles/get.ts'
import { registerPublishArticle } from './routes/articles/publish.ts'
import { registerArticleSources } from './routes/articles/sources.ts'
import { registerUnpublishArticle } from './routes/articles/unpublish.ts'
import { registerUpdateArticle } from './routes/articles/update.ts'
import { registerListContent } from './routes/list.ts'
import { registerCreateSite } from './routes/sites/create.ts'
import { registerDeleteSite } from './routes/sites/delete.ts'
import { registerGetSite } from './routes/sites/get.ts'
import { registerUpdateSite } from './routes/sites/update.ts'

export const functionName = 'content'

/** Content API: a tenant's sites and articles, each request metered. */
export function createApp(deps: FunctionDeps) {
  const app = createFunctionApp(functionName, deps, 'Content API: sites and articles')
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
  ])
    register(app)
  return app
}
