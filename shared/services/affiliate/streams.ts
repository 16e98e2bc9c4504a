/**
 * Streaming pieces shared by the adapters: a feed download handed over as a byte stream (never
 * buffered whole), gzip detected by its magic bytes and inflated with DecompressionStream, and
 * record iterators for CSV (csv-parse's Web Streams API), JSON Lines and Google Merchant XML
 * (saxes). Every one of them runs on Deno and Node alike.
 */

import type { FunctionDeps } from '@shared/infra/deps.ts'
import { JobError } from '@shared/infra/jobs/engine.ts'
import { parse as csvParse } from 'csv-parse/stream'
import { SaxesParser } from 'saxes'

/** A stream reader's result, written out so that this module needs no DOM types. */
type ReadResult<T> = { done: false; value: T } | { done: true; value?: T }

/** A rejected credential (401/403 from the network): the job fails and the owners are told once. */
export class CredentialRejectedError extends JobError {
  override name = 'CredentialRejectedError'
}

/** A feed above this (after decompression) fails the job; the sync never holds it whole anyway. */
const MAX_FEED_BYTES = 2 * 1024 * 1024 * 1024
const FEED_TIMEOUT_MS = 15 * 60_000

/** Turns a network's HTTP answer into the job's readable failure. */
export async function failForStatus(res: Response, what: string): Promise<never> {
  await res.body?.cancel().catch(() => {})
  if (res.status === 401 || res.status === 403)
    throw new CredentialRejectedError(`${what} rejected the credential (${res.status})`)
  if (res.status === 404) throw new JobError(`${what} answered 404 Not Found`)
  const retryAfter = Number(res.headers.get('retry-after'))
  throw new JobError(`${what} answered ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`, {
    transient: res.status === 429 || res.status >= 500,
    retryAfterMs: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : undefined,
  })
}

/** GETs a feed as a stream of bytes, gunzipped when it is gzip (by content, not by header). */
export async function downloadFeed(
  deps: Pick<FunctionDeps, 'fetch'>,
  url: string,
  what: string,
  headers: Record<string, string> = {},
): Promise<ReadableStream<Uint8Array>> {
  const res = await deps.fetch(url, {
    headers: { 'user-agent': 'TenantPlatform-Affiliate/1.0', ...headers },
    timeoutMs: FEED_TIMEOUT_MS,
    maxResponseBytes: MAX_FEED_BYTES,
    stream: true,
  })
  if (!res.ok) await failForStatus(res, what)
  if (!res.body) throw new JobError(`${what} answered with an empty body`)
  return maybeGunzip(res.body)
}

/** Peeks at the first bytes: 1f 8b is gzip. */
async function maybeGunzip(body: ReadableStream<Uint8Array>): Promise<ReadableStream<Uint8Array>> {
  const reader = body.getReader()
  const first = await reader.read()
  const head = first.value ?? new Uint8Array()
  const rest = new ReadableStream<Uint8Array>({
    start(controller) {
      if (head.byteLength > 0) controller.enqueue(head)
      if (first.done) controller.close()
    },
    async pull(controller) {
      const { done, value } = await reader.read()
      if (done) controller.close()
      else controller.enqueue(value)
    },
    cancel: (reason) => reader.cancel(reason),
  })
  const gzip = head.byteLength >= 2 && head[0] === 0x1f && head[1] === 0x8b
  return gzip
    ? rest.pipeThrough(new DecompressionStream('gzip') as TransformStream<Uint8Array, Uint8Array>)
    : rest
}

const decodeError = (err: unknown, what: string) =>
  err instanceof JobError
    ? err
    : new JobError(`${what} could not be read: ${err instanceof Error ? err.message : String(err)}`, {
        cause: err,
      })

/**
 * CSV records keyed by the header row. A record csv-parse cannot read (a stray quote, a wrong
 * column count) is yielded as a skip with its line, and parsing goes on.
 */
export async function* csvRecords(
  bytes: ReadableStream<Uint8Array>,
  what: string,
  opts: { delimiter?: string } = {},
): AsyncGenerator<{ record: Record<string, string> } | { skipped: string }> {
  const skips: string[] = []
  const parser = csvParse({
    columns: (header: string[]) => header.map((h) => h.trim()),
    bom: true,
    delimiter: opts.delimiter ?? ',',
    skip_empty_lines: true,
    relax_quotes: false,
    skip_records_with_error: true,
    max_record_size: 1024 * 1024,
    on_skip: (err: { message: string; lines?: number } | undefined) => {
      skips.push(`line ${err?.lines ?? '?'}: ${err?.message ?? 'malformed CSV record'}`.slice(0, 300))
    },
  } as never) as unknown as TransformStream<Uint8Array, Record<string, string>>
  // csv-parse decodes UTF-8 itself (and drops a BOM): it takes the bytes as they come.
  const records = bytes.pipeThrough(parser)
  const reader = records.getReader()
  try {
    for (;;) {
      let next: ReadResult<Record<string, string>>
      try {
        next = await reader.read()
      } catch (err) {
        throw decodeError(err, what)
      }
      while (skips.length > 0) yield { skipped: skips.shift()! }
      if (next.done) return
      yield { record: next.value }
    }
  } finally {
    reader.releaseLock()
    await records.cancel().catch(() => {})
  }
}

/** Lines of a text stream (JSON Lines), without holding more than one line. */
export async function* textLines(bytes: ReadableStream<Uint8Array>, what: string): AsyncGenerator<string> {
  const reader = bytes.pipeThrough(new TextDecoderStream() as TransformStream<Uint8Array, string>).getReader()
  let carry = ''
  for (;;) {
    let next: ReadResult<string>
    try {
      next = await reader.read()
    } catch (err) {
      throw decodeError(err, what)
    }
    if (next.done) break
    carry += next.value
    let at = carry.indexOf('\n')
    while (at >= 0) {
      yield carry.slice(0, at)
      carry = carry.slice(at + 1)
      at = carry.indexOf('\n')
    }
    if (carry.length > 4 * 1024 * 1024) throw new JobError(`${what}: a line is longer than 4 MiB`)
  }
  if (carry.trim()) yield carry
}

/**
 * The <item> (RSS 2.0) or <entry> (Atom) elements of a Google Merchant feed, each as its child
 * elements' text keyed by local name (g:price -> price). Parsed with saxes chunk by chunk.
 */
export async function* merchantXmlItems(
  bytes: ReadableStream<Uint8Array>,
  what: string,
): AsyncGenerator<Record<string, string>> {
  const parser = new SaxesParser({ xmlns: false })
  const ready: Record<string, string>[] = []
  let item: Record<string, string> | null = null
  let field: string | null = null
  let text = ''
  let depth = 0
  const local = (name: string) => name.slice(name.indexOf(':') + 1)
  parser.on('opentag', (tag) => {
    const name = local(tag.name)
    if (!item && (name === 'item' || name === 'entry')) {
      item = {}
      depth = 0
      return
    }
    if (item) {
      depth++
      if (depth === 1) {
        field = name
        text = ''
        // Atom's <link href="..."/>.
        const href = tag.attributes.href
        if (name === 'link' && typeof href === 'string') text = href
      }
    }
  })
  parser.on('text', (t) => {
    if (field) text += t
  })
  parser.on('cdata', (t) => {
    if (field) text += t
  })
  parser.on('closetag', (tag) => {
    if (!item) return
    const name = local(tag.name)
    if (depth === 0 && (name === 'item' || name === 'entry')) {
      ready.push(item)
      item = null
      return
    }
    if (depth === 1 && field) {
      // The first value of a repeated element wins (additional_image_link and the like).
      if (!(field in item)) item[field] = text.trim()
      field = null
    }
    depth--
  })
  const reader = bytes.pipeThrough(new TextDecoderStream() as TransformStream<Uint8Array, string>).getReader()
  try {
    for (;;) {
      const next = await reader.read()
      if (next.done) break
      parser.write(next.value)
      while (ready.length > 0) yield ready.shift()!
    }
    parser.close()
    while (ready.length > 0) yield ready.shift()!
  } catch (err) {
    throw decodeError(err, what)
  }
}
