import type { FunctionDeps, ServiceContext } from '@shared/infra/deps.ts'
import { isoTimestamp } from '@shared/infra/schemas.ts'
import { z } from 'zod'
import { availabilities } from '../affiliate/product.ts'
import { searchAffiliateProducts } from '../affiliate/products.ts'
import { publishArticle, scheduleArticle } from '../content/article-lifecycle.ts'
import { getArticle } from '../content/article-reads.ts'
import { createArticle, updateArticle } from '../content/articles.ts'
import { listContent } from '../content/feed.ts'
import { articleStatuses, createArticleBody, MAX_ARTICLE_BODY, updateArticleBody } from '../content/schema.ts'
import { getSite } from '../content/sites.ts'
import { createTranslation, createTranslationBody } from '../content/translations.ts'
import { generationEngine, queueGeneration } from '../generation/generate.ts'
import { generateArticleBody } from '../generation/schema.ts'
import { getJob } from '../jobs/jobs.ts'
import type { Job } from '../jobs/schema.ts'
import { listSourceItems, listSources } from '../sources/sources.ts'
import { listMediaForTool, listMediaParams, setFeatureImage, setFeatureImageParams } from './media-tools.ts'

/**
 * The platform's own tools, offered to every tool-server key that holds the scope each needs.
 * Names follow the spec's '<integration_slug>:<tool_name>' shape with the slug 'platform'.
 * Each tool validates its params with zod; its inputSchema is generated from the same schema.
 */
export interface PlatformTool<P extends z.ZodType = z.ZodType> {
  name: string
  description: string
  scope: string
  params: P
  /**
   * The assistant and automations stop before a call of it until an owner or admin approves
   * (writes that put something in front of readers). The tool server's own callers are not asked.
   */
  requiresApproval?: boolean
  /**
   * The approval is of the article its params.article_id names, as it was when the call began to
   * wait: an edit since refuses the approved call (assistant/turn/approval-basis.ts).
   */
  approvalBindsArticle?: boolean
  /** `approved`: an assistant or automation call an owner or admin approved before it ran. */
  run(ctx: ServiceContext, params: z.infer<P>, call?: { approved?: boolean }): Promise<unknown>
  /**
   * The tool may run as an MCP task (docs/mcp.md "Tasks"): `start` queues its work as a job of
   * the job engine (started at once in the background; any instance's sweep takes it over) and
   * returns the job's id; `outcome` is the tool's result from the job when it has ended.
   */
  task?: { start(ctx: ServiceContext, params: z.infer<P>): Promise<string>; outcome(job: Job): unknown }
}

const listContentParams = z
  .object({
    limit: z.number().int().min(1).max(100).default(20),
    type: z.enum(['site', 'article']).optional(),
    site_id: z.uuid().optional(),
    status: z.enum(articleStatuses).optional(),
  })
  .strict()

const getContentParams = z.object({ type: z.enum(['site', 'article']), id: z.uuid() }).strict()
// The API's own bodies, field for field: a draft made here is the one POST /v1/content/articles makes.
const createDraftParams = z.object(createArticleBody.shape).strict()
const updateArticleParams = z
  .object({ article_id: z.uuid(), ...updateArticleBody.shape })
  .strict()
  .refine(({ article_id: _id, ...fields }) => Object.values(fields).some((v) => v !== undefined), {
    message: 'nothing to change',
  })
const publishParams = z.object({ article_id: z.uuid() }).strict()
const scheduleParams = z
  .object({
    article_id: z.uuid(),
    publish_at: isoTimestamp().describe('When to publish (ISO 8601, in the future)'),
  })
  .strict()
const listSourcesParams = z.object({ limit: z.number().int().min(1).max(100).default(20) }).strict()
const listSourceItemsParams = z
  .object({
    source_id: z.uuid(),
    since: isoTimestamp()
      .optional()
      .describe('Only items the platform stored at or after this time (ISO 8601)'),
    limit: z.number().int().min(1).max(50).default(20),
  })
  .strict()
const { tenant_id: _tenant, ...generateFields } = generateArticleBody.shape
const generateDraftParams = z
  .object(generateFields)
  .strict()
  .refine((b) => (b.item_ids === undefined) !== (b.source_id === undefined), {
    message: 'give exactly one of item_ids and source_id',
    path: ['item_ids'],
  })
// The translation's text is the caller's (the assistant's model translates): title and body required.
const translateParams = z
  .object({
    article_id: z.uuid().describe('The article to translate (or any translation of it)'),
    ...createTranslationBody.shape,
    title: createArticleBody.shape.title.describe('The title in the target locale'),
    body: z.string().max(MAX_ARTICLE_BODY).describe('The body in the target locale (Markdown)'),
  })
  .strict()
const searchProductsParams = z
  .object({
    destination_id: z.uuid(),
    q: z.string().trim().min(1).max(200).optional(),
    availability: z.enum(availabilities).optional(),
    limit: z.number().int().min(1).max(50).default(10),
  })
  .strict()

export const platformTools: PlatformTool[] = [
  {
    name: 'platform:list_content',
    description: "List the tenant's sites and articles, oldest first.",
    scope: 'content:read',
    params: listContentParams,
    async run(ctx, params: z.infer<typeof listContentParams>) {
      const page = await listContent(ctx, {
        limit: params.limit,
        filter: { type: params.type, site_id: params.site_id, status: params.status },
      })
      return { items: page.data }
    },
  },
  {
    name: 'platform:get_content',
    description: 'Read one site or article of the tenant by id.',
    scope: 'content:read',
    params: getContentParams,
    run: (ctx, p: z.infer<typeof getContentParams>) =>
      p.type === 'site' ? getSite(ctx, p.id) : getArticle(ctx, p.id),
  },
  {
    name: 'platform:create_draft',
    description: "Create a draft article in one of the tenant's sites.",
    scope: 'content:write',
    params: createDraftParams,
    run: (ctx, p: z.infer<typeof createDraftParams>) => createArticle(ctx, p),
  },
  {
    name: 'platform:update_article',
    description:
      "Change an article's fields (title, body, slug, excerpt, tags, feature image, author, SEO fields); only the fields given change.",
    scope: 'content:write',
    params: updateArticleParams,
    run: (ctx, { article_id, ...fields }: z.infer<typeof updateArticleParams>) =>
      updateArticle(ctx, article_id, fields),
  },
  {
    name: 'platform:publish_article',
    description: 'Publish a draft article (an already published one is returned as is).',
    scope: 'content:write',
    params: publishParams,
    requiresApproval: true,
    approvalBindsArticle: true,
    run: (ctx, p: z.infer<typeof publishParams>) => publishArticle(ctx, p.article_id),
  },
  {
    name: 'platform:schedule_article',
    description:
      'Schedule an article to be published at publish_at (in the future); scheduling again moves the time. It waits for approval; a time past by then publishes at once.',
    scope: 'content:write',
    params: scheduleParams,
    requiresApproval: true,
    approvalBindsArticle: true,
    // For the assistant it waits for approval: a time that passed while it waited (or that the
    // approver set in the past) publishes at once rather than failing the run. Unapproved callers
    // (the tool server's) are refused a past time, as the API refuses it.
    run: (ctx, p: z.infer<typeof scheduleParams>, call) =>
      call?.approved && new Date(p.publish_at) <= ctx.clock.now()
        ? publishArticle(ctx, p.article_id)
        : scheduleArticle(ctx, p.article_id, new Date(p.publish_at)),
  },
  {
    name: 'platform:list_sources',
    description: "List the tenant's sources (feeds and social accounts the platform scrapes), oldest first.",
    scope: 'content:read',
    params: listSourcesParams,
    async run(ctx, p: z.infer<typeof listSourcesParams>) {
      return { items: (await listSources(ctx, { limit: p.limit, after: null })).data }
    },
  },
  {
    name: 'platform:list_source_items',
    description:
      "Read a source's scraped items (title, text, URL, author), newest first; `since` keeps the ones stored from then on.",
    scope: 'content:read',
    params: listSourceItemsParams,
    async run(ctx, p: z.infer<typeof listSourceItemsParams>) {
      const page = await listSourceItems(ctx, p.source_id, { limit: p.limit, after: null })
      const since = p.since ? new Date(p.since).getTime() : null
      const items = since === null ? page.data : page.data.filter((i) => Date.parse(i.created_at) >= since)
      // Newest first: more of them exist only when the whole page was new enough.
      return { items, has_more: items.length === page.data.length && page.next_cursor !== null }
    },
  },
  {
    name: 'platform:generate_draft',
    description:
      "Write a draft article from source items with the tenant's AI provider (counts against the Assistant API quota); answers with the draft's id and title.",
    scope: 'content:write',
    params: generateDraftParams,
    async run(ctx, p: z.infer<typeof generateDraftParams>) {
      const queued = await queueGeneration(ctx, p)
      // The job runs here and now, as POST /generate-article runs it; retries go to its sweep.
      await generationEngine(jobDepsOf(ctx)).runDue({ ids: [queued.id] })
      return draftOutcome(await getJob(ctx, queued.id))
    },
    task: {
      async start(ctx, p: z.infer<typeof generateDraftParams>) {
        const queued = await queueGeneration(ctx, p)
        generationEngine(jobDepsOf(ctx)).kick([queued.id])
        return queued.id
      },
      outcome: draftOutcome,
    },
  },
  {
    name: 'platform:translate_article',
    description:
      "Draft a translation of an article in one of its site's locales (BCP 47, such as fr or pt-BR), for an editor to review: read the article first (platform:get_content), then give its title and body translated. The draft keeps the source's feature image and tags; publishing it is a separate step.",
    scope: 'content:write',
    params: translateParams,
    run: (ctx, { article_id, ...fields }: z.infer<typeof translateParams>) =>
      createTranslation(ctx, article_id, fields),
  },
  {
    name: 'platform:search_products',
    description:
      "Search a destination's synced affiliate products (title, merchant or GTIN words; availability), newest first, to embed in an article.",
    scope: 'content:read',
    params: searchProductsParams,
    async run(ctx, params: z.infer<typeof searchProductsParams>) {
      const page = await searchAffiliateProducts(ctx, {
        destinationId: params.destination_id,
        q: params.q,
        availability: params.availability,
        limit: params.limit,
        after: null,
      })
      return { items: page.data }
    },
  },
  {
    name: 'platform:list_media',
    description:
      "List the tenant's media library (images: id, reference, file name, alt text, caption, size), newest first; `q` searches file names, alt texts and captions. Use an image in a body as ![alt](media:<id>).",
    scope: 'content:read',
    params: listMediaParams,
    run: (ctx, p: z.infer<typeof listMediaParams>) => listMediaForTool(ctx, p),
  },
  {
    name: 'platform:set_feature_image',
    description:
      "Make an image of the media library (platform:list_media) an article's feature image; alt defaults to the image's alt text. Uploading is not offered here.",
    scope: 'content:write',
    params: setFeatureImageParams,
    run: (ctx, p: z.infer<typeof setFeatureImageParams>) => setFeatureImage(ctx, p),
  },
]

/** generate_draft's answer from its generation job. */
function draftOutcome(job: Job) {
  const result = (job.result ?? {}) as { article_id?: string; title?: string }
  return job.status === 'succeeded'
    ? { job_id: job.id, status: 'draft', article_id: result.article_id, title: result.title }
    : { job_id: job.id, status: job.status, error: job.error }
}

/** The function's dependencies again, for the job engine: it claims and runs jobs on the owner pool. */
function jobDepsOf(ctx: ServiceContext): FunctionDeps {
  return {
    config: ctx.config,
    sql: ctx.asOwner,
    vault: ctx.vault,
    clock: ctx.clock,
    fetch: ctx.fetch,
    logger: ctx.logger,
    notifier: ctx.notifier,
    jwt: ctx.jwt,
    onOutboxCommitted: ctx.onOutboxCommitted,
  }
}

export function describeTool(tool: PlatformTool) {
  const { $schema: _ignored, ...inputSchema } = z.toJSONSchema(tool.params, { io: 'input' }) as Record<
    string,
    unknown
  >
  return { name: tool.name, description: tool.description, inputSchema }
}

/** The tools whose approval is bound to the article they name (approvalBindsArticle). */
export const articleBoundTools: string[] = platformTools
  .filter((t) => t.approvalBindsArticle)
  .map((t) => t.name)
