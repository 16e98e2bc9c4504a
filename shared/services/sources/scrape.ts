import type { FunctionDeps, JobDeps } from '@shared/infra/deps.ts'
import { engineFor, isFinalAttempt, JobError, type JobRun, type Json } from '@shared/infra/jobs/engine.ts'
import { OutboundError } from '@shared/infra/outbound.ts'
import { CredentialUnavailableError, useCredential } from '../credentials/use-credential.ts'
import { type ApifyRunConfig, runApifyActor } from './apify.ts'
import { parseFeedItems } from './feed.ts'
import { SCRAPE_JOB_KIND, type SourceRow } from './sources.ts'
import { storeItems } from './store-items.ts'
import { notePushHub, WEBSUB_JOB_KIND, websubJobKind } from './websub.ts'
import { PUSH_JOB_KIND, pushJobKind } from './websub-callback.ts'
import { discoverHub } from './websub-discovery.ts'

/** Feeds larger than this fail the job (a 10 MB body, a gzip bomb: counted after decoding). */
const MAX_FEED_BYTES = 5 * 1024 * 1024
const FEED_TIMEOUT_MS = 15_000

interface ScrapeResult {
  source_id: string
  kind: 'feed' | 'apify'
  fetched: number
  new_items: number
  not_modified?: boolean
  format?: string
  apify_run_id?: string
}

/** Fetches a feed with conditional GET; null when the server says it has not changed (304). */
async function fetchFeed(
  deps: Pick<FunctionDeps, 'fetch'>,
  source: SourceRow,
): Promise<{ body: string; etag: string | null; lastModified: string | null; link: string | null } | null> {
  const url = String(source.config.url)
  const headers: Record<string, string> = {
    accept:
      'application/rss+xml, application/atom+xml, application/feed+json, application/json;q=0.9, application/xml;q=0.8, text/xml;q=0.8, */*;q=0.5',
    'user-agent': 'TenantPlatform-Scraper/1.0',
  }
  if (source.etag) headers['if-none-match'] = source.etag
  if (source.last_modified) headers['if-modified-since'] = source.last_modified
  let res: Response
  try {
    res = await deps.fetch(url, { headers, timeoutMs: FEED_TIMEOUT_MS, maxResponseBytes: MAX_FEED_BYTES })
  } catch (err) {
    if (err instanceof OutboundError && err.kind === 'too_large')
      throw new JobError(`the feed is larger than ${MAX_FEED_BYTES} bytes (after decompression)`)
    if (
      err instanceof OutboundError &&
      err.kind === 'network' &&
      /decompress|gzip|deflate|brotli|zlib|incorrect header/i.test(String(err.cause))
    )
      throw new JobError('the feed could not be decompressed')
    throw err
  }
  if (res.status === 304) return null
  if (!res.ok) {
    throw new JobError(`the feed answered ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`, {
      transient: res.status === 429 || res.status >= 500,
    })
  }
  return {
    body: await res.text(),
    etag: res.headers.get('etag'),
    lastModified: res.headers.get('last-modified'),
    link: res.headers.get('link'),
  }
}

/** The scrape job: runs as the service, every statement scoped by the job's tenant. */
async function scrapeSourceJob({ deps, job }: JobRun): Promise<Json> {
  const sourceId = String(job.input.source_id ?? '')
  const [source] = await deps.sql<SourceRow[]>`
    select * from public.sources where id = ${sourceId} and tenant_id = ${job.tenant_id}`
  if (!source) throw new JobError('the source no longer exists')
  const record = async (
    status: 'succeeded' | 'failed',
    error: string | null,
    validators?: { etag: string | null; lastModified: string | null },
  ) => {
    await deps.sql`
      update public.sources set last_run_at = ${deps.clock.now()}, last_job_id = ${job.id}, last_status = ${status},
        last_error = ${error}
        ${validators ? deps.sql`, etag = ${validators.etag}, last_modified = ${validators.lastModified}` : deps.sql``}
      where id = ${source.id} and tenant_id = ${job.tenant_id}`
  }
  try {
    let result: ScrapeResult
    if (source.kind === 'feed') {
      const fetched = await fetchFeed(deps, source)
      if (!fetched) {
        result = { source_id: source.id, kind: 'feed', fetched: 0, new_items: 0, not_modified: true }
        await record('succeeded', null)
        return result as unknown as Json
      }
      let parsed: ReturnType<typeof parseFeedItems>
      try {
        parsed = parseFeedItems(fetched.body)
      } catch (err) {
        throw new JobError(
          `the response is not an RSS, Atom or JSON feed (${err instanceof Error ? err.message : String(err)})`,
        )
      }
      const added = await storeItems(deps, source, parsed.items)
      // A feed that names a WebSub hub is subscribed to (or its subscription renewed when lapsed).
      const websubJobs = await notePushHub(
        deps,
        source,
        discoverHub(String(source.config.url), fetched.link, parsed.links),
      )
      if (websubJobs.length > 0) scrapeEngine(deps).kick(websubJobs)
      result = {
        source_id: source.id,
        kind: 'feed',
        format: parsed.format,
        fetched: parsed.items.length,
        new_items: added,
      }
      await record('succeeded', null, { etag: fetched.etag, lastModified: fetched.lastModified })
    } else {
      const config = source.config as unknown as ApifyRunConfig & { credential_environment?: 'production' }
      let token: string
      try {
        token = (
          await useCredential(deps, {
            tenantId: job.tenant_id,
            provider: 'apify',
            environment: config.credential_environment ?? 'production',
            callerKind: 'server_function',
            functionName: 'scrape-social',
          })
        ).secret
      } catch (err) {
        if (err instanceof CredentialUnavailableError)
          throw new JobError(`no usable Apify credential (category Scraping): ${err.message}`)
        throw err
      }
      const run = await runApifyActor({
        fetch: deps.fetch,
        baseUrl: deps.config.APIFY_API_URL,
        token,
        config,
        now: () => Date.now(),
      })
      const added = await storeItems(deps, source, run.items)
      result = {
        source_id: source.id,
        kind: 'apify',
        apify_run_id: run.runId,
        fetched: run.items.length,
        new_items: added,
      }
      await record('succeeded', null)
    }
    return result as unknown as Json
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err)
    if (isFinalAttempt(err, job)) await record('failed', reason.slice(0, 2000)).catch(() => {})
    throw err
  }
}

/**
 * scrape-social's engine (one per function instance): the source scrape, and WebSub push's two
 * kinds (asking a hub to subscribe, renew or unsubscribe; ingesting a pushed body).
 */
export const scrapeEngine = engineFor({
  [SCRAPE_JOB_KIND]: { handler: scrapeSourceJob, maxAttempts: 3, leaseSeconds: 900 },
  [WEBSUB_JOB_KIND]: websubJobKind,
  [PUSH_JOB_KIND]: pushJobKind,
})
