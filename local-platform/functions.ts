import * as apiKeys from '@functions/api-keys/app.ts'
import * as assistant from '@functions/assistant/app.ts'
import * as commerceWebhook from '@functions/commerce-webhook/app.ts'
import * as content from '@functions/content/app.ts'
import * as credentials from '@functions/credentials/app.ts'
import * as generateArticle from '@functions/generate-article/app.ts'
import * as integrations from '@functions/integrations/app.ts'
import * as mcpSse from '@functions/mcp-sse/app.ts'
import * as scrapeSocial from '@functions/scrape-social/app.ts'
import * as syncAffiliate from '@functions/sync-affiliate/app.ts'
import * as tenants from '@functions/tenants/app.ts'
import * as usage from '@functions/usage/app.ts'
import * as webhooks from '@functions/webhooks/app.ts'
import type { FunctionDeps } from '@shared/infra/deps.ts'
import type { App } from '@shared/infra/http/app-env.ts'

export interface FunctionModule {
  functionName: string
  createApp(deps: FunctionDeps): App
}

/** Every function the local platform serves; each also has its own Deno entry (index.ts). */
export const functionModules: FunctionModule[] = [
  apiKeys,
  content,
  tenants,
  mcpSse,
  credentials,
  usage,
  webhooks,
  integrations,
  commerceWebhook,
  scrapeSocial,
  generateArticle,
  syncAffiliate,
  assistant,
]
