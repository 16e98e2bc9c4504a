import { actingCallerFor, serviceCallerFor } from '@shared/infra/caller.ts'
import { type ServiceContext, serviceContextFor } from '@shared/infra/deps.ts'
import { invalidField, notFound, ServiceError } from '@shared/infra/errors.ts'
import {
  engineFor,
  enqueueJob,
  JobError,
  type JobRow,
  type JobRun,
  type Json,
} from '@shared/infra/jobs/engine.ts'
import { createArticle } from '../content/articles.ts'
import { MAX_ARTICLE_BODY } from '../content/schema.ts'
import { CredentialUnavailableError, modelBaseUrl, useCredential } from '../credentials/use-credential.ts'
import { TASK_CANCELLED, watchTaskCancel } from '../tools/tasks/cancel-watch.ts'
import { assertWithinQuota, reserveUsage, settleReservation } from '../usage/metering.ts'
import { callModel, providerFailure } from './providers.ts'
import { type AiProvider, defaultModels, type GenerateArticleInput } from './schema.ts'

const GENERATE_JOB_KIND = 'generate-article.article'

/** What the job keeps of the request: everything it needs to run again on a retry. */
interface GenerateJobInput {
  site_id: string
  item_ids: string[]
  instructions: string | null
  provider: AiProvider
  model: string
  credential_environment: 'development' | 'staging' | 'production'
  /** The automation run whose tool queued it: the draft's event carries that run as its cause. */
  automation_run_id?: string
}

interface PromptItem {
  id: string
  title: string | null
  text: string | null
  url: string | null
  author: string | null
  published_at: Date | null
}

const MAX_ITEM_CHARS = 4000
const MAX_OUTPUT_TOKENS = 2000
const PROVIDER_TIMEOUT_MS = 120_000

const SYSTEM_PROMPT =
  'You are an editor who writes original articles from social-media posts and feed items. ' +
  'Use only facts found in the sources; attribute quotes; do not invent names, numbers or links. ' +
  'Answer with the article title on the first line, then a blank line, then the body in Markdown.'

/** The user message: the editor's instructions, then each item, numbered so the model can cite it. */
function buildPrompt(items: PromptItem[], instructions: string | null): string {
  const parts = [
    instructions ? `Instructions: ${instructions}` : 'Instructions: write a concise, engaging article.',
    `Sources (${items.length}):`,
  ]
  items.forEach((item, n) => {
    const lines = [`[${n + 1}]`]
    if (item.title) lines.push(`Title: ${item.title}`)
    if (item.author) lines.push(`Author: ${item.author}`)
    if (item.published_at) lines.push(`Published: ${item.published_at.toISOString()}`)
    if (item.url) lines.push(`URL: ${item.url}`)
    if (item.text) lines.push(item.text.slice(0, MAX_ITEM_CHARS))
    parts.push(lines.join('\n'))
  })
  return parts.join('\n\n')
}

/** First line is the title (Markdown heading marks and a "Title:" label removed), the rest the body. */
function splitTitle(text: string): { title: string; body: string } {
  const lines = text.trim().split('\n')
  const first = (lines.shift() ?? '')
    .replace(/^#+\s*/, '')
    .replace(/^title:\s*/i, '')
    .replace(/^\*\*(.*)\*\*$/, '$1')
    .trim()
  return { title: (first || 'Untitled draft').slice(0, 500), body: lines.join('\n').trim() }
}

/**
 * Checks the request against the tenant (the site, the items or source, the quota) and queues the
 * job in the same transaction. A tenant at or over a Free quota is refused here, before any job.
 */
export async function queueGeneration(ctx: ServiceContext, input: GenerateArticleInput): Promise<JobRow> {
  const { caller } = ctx
  await assertWithinQuota(ctx, 'assistant')
  const now = ctx.clock.now()
  return ctx.asTenant(async (tx) => {
    const [site] =
      await tx`select 1 from public.sites where id = ${input.site_id} and tenant_id = ${caller.tenantId}`
    if (!site) throw notFound('Site')
    let itemIds: string[]
    if (input.item_ids) {
      const found = await tx<{ id: string }[]>`
        select id from public.source_items where tenant_id = ${caller.tenantId} and id in ${tx(input.item_ids)}`
      if (found.length !== input.item_ids.length)
        throw invalidField('item_ids', 'contains items not found in this tenant')
      itemIds = input.item_ids
    } else {
      const [source] =
        await tx`select 1 from public.sources where id = ${input.source_id!} and tenant_id = ${caller.tenantId}`
      if (!source) throw notFound('Source')
      const newest = await tx<{ id: string }[]>`
        select id from public.source_items where tenant_id = ${caller.tenantId} and source_id = ${input.source_id!}
        order by coalesce(published_at, created_at) desc, id limit ${input.max_items}`
      if (newest.length === 0)
        throw new ServiceError('UNPROCESSABLE', 'The source has no items yet: scrape it first')
      itemIds = newest.map((r) => r.id)
    }
    const jobInput: GenerateJobInput = {
      site_id: input.site_id,
      item_ids: itemIds,
      instructions: input.instructions ?? null,
      provider: input.provider,
      model: input.model ?? defaultModels[input.provider],
      credential_environment: input.credential_environment,
      ...(caller.claims.automation_run_id ? { automation_run_id: caller.claims.automation_run_id } : {}),
    }
    return enqueueJob(tx, {
      tenantId: caller.tenantId,
      kind: GENERATE_JOB_KIND,
      input: jobInput as unknown as Record<string, unknown>,
      maxAttempts: 4,
      now,
    })
  })
}

/**
 * The generation job: quota check, the tenant's key (useCredential, category AI), one model call,
 * a draft article through the content service (event content.updated, action created), its source
 * references, and the tokens metered to the Assistant API.
 */
async function generateArticleJob({ deps, job }: JobRun): Promise<Json> {
  const input = job.input as unknown as GenerateJobInput
  // As the member who asked for it, while still a member; a job with no person behind it (the
  // service-role key) as the tenant's owner.
  const caller = job.created_by
    ? await actingCallerFor(deps.sql, job.tenant_id, job.created_by)
    : await serviceCallerFor(deps.sql, job.tenant_id)
  // Queued by an automation's run: the draft's content.updated is that run's doing (docs/adr/0030),
  // so it cannot start the automation again.
  const ctx = serviceContextFor(
    deps,
    input.automation_run_id
      ? { ...caller, claims: { ...caller.claims, automation_run_id: input.automation_run_id } }
      : caller,
  )
  // A retry after the article was made (the worker died before finishing) returns that article.
  const [done] = await deps.sql<{ article_id: string }[]>`
    select article_id from public.article_source_items where job_id = ${job.id} and tenant_id = ${job.tenant_id} limit 1`
  if (done) return { article_id: done.article_id, resumed: true }

  // Run for an MCP task: a cancelled task stops before its model call, aborts it, or drops its answer.
  const cancel = await watchTaskCancel(deps.sql, job)
  try {
    return await generateFor(deps, job, input, ctx, cancel)
  } finally {
    cancel.stop()
  }
}

async function generateFor(
  deps: JobRun['deps'],
  job: JobRow,
  input: GenerateJobInput,
  ctx: ServiceContext,
  cancel: Awaited<ReturnType<typeof watchTaskCancel>>,
): Promise<Json> {
  if (cancel.signal.aborted) throw new JobError(TASK_CANCELLED)
  const items = await deps.sql<PromptItem[]>`
    select id, title, text, url, author, published_at from public.source_items
    where tenant_id = ${job.tenant_id} and id in ${deps.sql(input.item_ids)}
    order by coalesce(published_at, created_at), id`
  if (items.length === 0) throw new JobError('the chosen items no longer exist')

  await assertWithinQuota(ctx, 'assistant') // before the credential is used, on every attempt
  let apiKey: string
  let baseUrl: string
  try {
    const credential = await useCredential(deps, {
      tenantId: job.tenant_id,
      provider: input.provider,
      environment: input.credential_environment,
      callerKind: 'server_function',
      functionName: 'generate-article',
    })
    apiKey = credential.secret
    baseUrl = modelBaseUrl(deps.config, input.provider, credential)
  } catch (err) {
    if (err instanceof CredentialUnavailableError)
      throw new JobError(`no usable ${input.provider} credential (category AI): ${err.message}`)
    throw err
  }

  // The call's most tokens are reserved before it, so concurrent jobs and turns hold the quota.
  const prompt = buildPrompt(items, input.instructions)
  const inputBound = Math.ceil(new TextEncoder().encode(SYSTEM_PROMPT + prompt).length / 3)
  const reservation = await reserveUsage(ctx, 'assistant', inputBound + MAX_OUTPUT_TOKENS)
  let answer: Awaited<ReturnType<typeof callModel>>
  try {
    answer = await callModel({
      provider: input.provider,
      baseUrl,
      apiKey,
      model: input.model,
      system: SYSTEM_PROMPT,
      prompt,
      maxOutputTokens: MAX_OUTPUT_TOKENS,
      timeoutMs: PROVIDER_TIMEOUT_MS,
      fetch: deps.fetch,
      signal: cancel.signal,
    })
  } catch (err) {
    await settleReservation(ctx, reservation, 0)
    if (cancel.signal.aborted) throw new JobError(TASK_CANCELLED, { cause: err })
    const failure = providerFailure(input.provider, err, apiKey)
    if (!failure) throw err
    throw new JobError(failure.reason, {
      transient: failure.transient,
      retryAfterMs: failure.retryAfterMs,
      cause: err,
    })
  }

  // What the provider reports it spent replaces the reservation.
  const tokens = answer.inputTokens + answer.outputTokens
  await settleReservation(ctx, reservation, tokens)

  if (await cancel.cancelled()) throw new JobError(TASK_CANCELLED)
  const { title, body } = splitTitle(answer.text)
  if (!body) throw new JobError('the model returned no article text')
  const references = items.map((i, n) => `${n + 1}. ${i.url ?? i.title ?? i.id}`).join('\n')
  const article = await createArticle(ctx, {
    site_id: input.site_id,
    title,
    body: `${body}\n\n---\nSources:\n${references}`.slice(0, MAX_ARTICLE_BODY),
  })
  await deps.sql`
    insert into public.article_source_items (tenant_id, article_id, item_id, job_id, created_at)
    select ${job.tenant_id}, ${article.id}, id::uuid, ${job.id}, ${deps.clock.now()}
    from jsonb_array_elements_text(${deps.sql.json(items.map((i) => i.id))}) as id
    on conflict do nothing`
  return {
    article_id: article.id,
    title,
    status: 'draft',
    item_ids: items.map((i) => i.id),
    provider: input.provider,
    model: answer.model,
    usage: { input_tokens: answer.inputTokens, output_tokens: answer.outputTokens, total_tokens: tokens },
  }
}

/** generate-article's engine (one per function instance). */
export const generationEngine = engineFor({
  [GENERATE_JOB_KIND]: { handler: generateArticleJob, maxAttempts: 4, leaseSeconds: 300 },
})
