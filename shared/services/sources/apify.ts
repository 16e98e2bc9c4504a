import { JobError } from '@shared/infra/jobs/engine.ts'
import type { GuardedFetch } from '@shared/infra/outbound.ts'
import type { ScrapedItem } from './feed.ts'

/**
 * Apify, as its API v2 documents it: start an actor run (POST /v2/acts/{actorId}/runs), wait for it
 * (GET /v2/actor-runs/{runId}?waitForFinish=N, at most 60 s per call), then read the run's default
 * dataset (GET /v2/datasets/{datasetId}/items). Each response wraps the run in `data`.
 */
export interface ApifyRunConfig {
  actor_id: string
  input: Record<string, unknown>
  timeout_seconds: number
  max_items: number
}

interface ApifyRun {
  id: string
  status: string
  defaultDatasetId: string
  statusMessage?: string
}

const TERMINAL = new Set(['SUCCEEDED', 'FAILED', 'ABORTED', 'TIMED-OUT'])

async function apifyJson<T>(
  fetch: GuardedFetch,
  url: string,
  token: string,
  init: RequestInit & { timeoutMs?: number; maxResponseBytes?: number } = {},
): Promise<T> {
  const res = await fetch(url, {
    ...init,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers },
  })
  if (!res.ok) {
    const transient = res.status === 429 || res.status >= 500
    const detail = await res.text().then(
      (t) => {
        try {
          return (JSON.parse(t) as { error?: { message?: string } }).error?.message ?? ''
        } catch {
          return ''
        }
      },
      () => '',
    )
    const what = res.status === 401 || res.status === 403 ? ' (the Apify token was refused)' : ''
    throw new JobError(`Apify answered ${res.status}${what}${detail ? `: ${detail.slice(0, 300)}` : ''}`, {
      transient,
    })
  }
  try {
    return (await res.json()) as T
  } catch {
    throw new JobError('Apify answered with a body that is not JSON')
  }
}

export async function runApifyActor(opts: {
  fetch: GuardedFetch
  baseUrl: string
  token: string
  config: ApifyRunConfig
  now: () => number
}): Promise<{ runId: string; items: ScrapedItem[] }> {
  const { fetch, token, config } = opts
  const base = opts.baseUrl.replace(/\/$/, '')
  const actor = encodeURIComponent(config.actor_id.replace('/', '~'))
  const deadline = opts.now() + config.timeout_seconds * 1000
  const started = await apifyJson<{ data: ApifyRun }>(fetch, `${base}/v2/acts/${actor}/runs`, token, {
    method: 'POST',
    body: JSON.stringify(config.input),
  })
  let run = started.data
  if (!run?.id) throw new JobError('Apify did not return a run')
  while (!TERMINAL.has(run.status)) {
    const left = Math.ceil((deadline - opts.now()) / 1000)
    if (left <= 0) {
      // Stop paying for a run we no longer wait for.
      await fetch(`${base}/v2/actor-runs/${encodeURIComponent(run.id)}/abort`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      }).catch(() => {})
      throw new JobError(`the Apify run ${run.id} did not finish within ${config.timeout_seconds} s`)
    }
    const wait = Math.min(60, left)
    run = (
      await apifyJson<{ data: ApifyRun }>(
        fetch,
        `${base}/v2/actor-runs/${encodeURIComponent(run.id)}?waitForFinish=${wait}`,
        token,
        { timeoutMs: (wait + 15) * 1000 },
      )
    ).data
  }
  if (run.status !== 'SUCCEEDED') {
    throw new JobError(
      `the Apify run ${run.id} ended ${run.status}${run.statusMessage ? `: ${run.statusMessage.slice(0, 300)}` : ''}`,
    )
  }
  const rows = await apifyJson<unknown>(
    fetch,
    `${base}/v2/datasets/${encodeURIComponent(run.defaultDatasetId)}/items?format=json&clean=true&limit=${config.max_items}`,
    token,
    { maxResponseBytes: 5 * 1024 * 1024 },
  )
  if (!Array.isArray(rows)) throw new JobError('the Apify dataset is not a list of items')
  return {
    runId: run.id,
    items: rows.flatMap((r) => (r && typeof r === 'object' ? itemOf(r as Record<string, unknown>) : [])),
  }
}

const str = (...vs: unknown[]): string | null => {
  for (const v of vs) if (typeof v === 'string' && v.trim()) return v.trim().slice(0, 20_000)
  return null
}

/** Actors name their fields differently; the common ones of social scrapers are read here. */
function itemOf(r: Record<string, unknown>): ScrapedItem[] {
  const nested = (k: string) => (r[k] && typeof r[k] === 'object' ? (r[k] as Record<string, unknown>) : {})
  const url = str(r.url, r.postUrl, r.link, r.permalink)
  const id = str(r.id, r.postId, r.tweetId, typeof r.id === 'number' ? String(r.id) : null) ?? url
  if (!id) return []
  const when = str(r.timestamp, r.createdAt, r.created_at, r.publishedAt, r.date)
  const published = when ? new Date(when) : null
  const mediaUrls = [
    r.imageUrl,
    r.displayUrl,
    r.videoUrl,
    r.thumbnailUrl,
    ...(Array.isArray(r.images) ? r.images : []),
  ]
  const media = mediaUrls
    .map((m) =>
      typeof m === 'string'
        ? m
        : typeof (m as { url?: unknown })?.url === 'string'
          ? (m as { url: string }).url
          : null,
    )
    .filter((m): m is string => !!m && /^https?:\/\//.test(m))
    .slice(0, 20)
    .map((m) => ({ url: m, type: null }))
  return [
    {
      externalId: id.slice(0, 2000),
      url: url && /^https?:\/\//.test(url) ? url.slice(0, 2000) : null,
      title: str(r.title)?.slice(0, 2000) ?? null,
      text: str(r.text, r.caption, r.content, r.description, r.full_text),
      author:
        str(
          r.author,
          r.ownerUsername,
          r.authorName,
          r.username,
          nested('author').name,
          nested('user').name,
        )?.slice(0, 2000) ?? null,
      media,
      publishedAt: published && !Number.isNaN(published.getTime()) ? published : null,
    },
  ]
}
