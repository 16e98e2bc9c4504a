import { z } from '@hono/zod-openapi'
import type { Queryable } from '@shared/infra/db.ts'
import type { ServiceContext } from '@shared/infra/deps.ts'
import { notFound } from '@shared/infra/errors.ts'
import { type Cursor, type Page, pageQuery, paginate } from '@shared/infra/pagination.ts'
import { isoTimestamp } from '@shared/infra/schemas.ts'

/**
 * The tenant's request log (public.api_request_log, written by each instance's buffer,
 * shared/infra/hot-path/request-log.ts). Row-level security decides what a caller reads: owners
 * and admins every request of the tenant, a member the requests made as themselves (signed in, or
 * with a key they created).
 */

const requestLogEntrySchema = z
  .object({
    id: z
      .string()
      .regex(/^\d+$/)
      .openapi({ description: 'The row (a number, as a string)', example: '1042' }),
    at: isoTimestamp().openapi({
      description:
        'When the request arrived (for a count of refusals: the first of them, or the end of its minute)',
    }),
    request_id: z.string().openapi({ description: 'The X-Request-Id the request was answered with' }),
    method: z.string(),
    path: z.string().openapi({ description: 'The public path, without the query string' }),
    status: z.number().int(),
    key_id: z
      .string()
      .uuid()
      .nullable()
      .openapi({ description: 'The key that made it; null: a signed-in member' }),
    key_name: z.string().nullable(),
    user_id: z
      .string()
      .uuid()
      .nullable()
      .openapi({ description: "The acting user: the member, or the key's creator" }),
    user_name: z.string().nullable().openapi({
      description:
        "The acting user's name (their profile name, else the part of their e-mail before the @); null for someone no longer a member",
    }),
    latency_ms: z.number().int(),
    rate_limit: z.enum(['allowed', 'limited']).nullable().openapi({
      description: 'allowed, or limited (answered 429 RATE_LIMITED); null when no rate limit was taken',
    }),
    rate_remaining: z.number().int().nullable().openapi({ description: 'X-RateLimit-Remaining after it' }),
    quota: z.enum(['counted', 'exceeded']).nullable().openapi({
      description:
        'counted (metered against the monthly quota), exceeded (429 QUOTA_EXCEEDED), or null (not metered)',
    }),
    requests: z.number().int().min(1).openapi({
      description:
        'How many requests the row stands for: 1, or more for refusals over the rate limit, counted per key and minute',
    }),
  })
  .openapi('RequestLogEntry')

export type RequestLogEntry = z.infer<typeof requestLogEntrySchema>

export const requestLogPageSchema = z.object({
  data: z.array(requestLogEntrySchema),
  next_cursor: z.string().nullable(),
})

export const requestLogQuery = pageQuery.extend({
  key_id: z.string().uuid().optional().openapi({ description: "Only this key's requests" }),
  status: z
    .string()
    .regex(/^[1-5](\d\d|xx)$/, 'must be a status (429) or a class (4xx)')
    .optional()
    .openapi({ description: 'A status (429) or a class (2xx, 4xx, 5xx)', example: '4xx' }),
  path: z
    .string()
    .max(512)
    .regex(/^\//, 'must start with /')
    .optional()
    .openapi({ description: 'Paths that start with this (/v1/content)', example: '/v1/content' }),
})

export interface RequestLogFilter {
  keyId?: string
  status?: string
  path?: string
}

const hourSchema = z.object({
  hour: isoTimestamp().openapi({ description: 'Start of the hour (UTC)' }),
  requests: z.number().int(),
  errors: z.number().int().openapi({ description: 'Answered 400 or above' }),
  rate_limited: z.number().int(),
  quota_exceeded: z.number().int(),
})

export const keyRequestsSchema = z
  .object({
    recent: z.array(requestLogEntrySchema).openapi({ description: 'The latest requests, newest first' }),
    hours: z
      .array(hourSchema)
      .openapi({ description: 'The last 24 hours, oldest first, the current hour last' }),
  })
  .openapi('KeyRequests')

export type KeyRequests = z.infer<typeof keyRequestsSchema>

type Row = Omit<RequestLogEntry, 'at'> & { at: Date }

const present = (r: Row): RequestLogEntry => ({ ...r, at: r.at.toISOString() })

/** LIKE's own characters in a prefix match literally. */
const likePrefix = (s: string) => `${s.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`

function selectRows(
  q: Queryable,
  tenantId: string,
  filter: RequestLogFilter,
  after: Cursor | null,
  limit: number,
) {
  const status = filter.status
  const statusClass = status?.endsWith('xx') ? Number(status[0]) * 100 : null
  return q<Row[]>`
    select l.id::text, l.at, l.request_id, l.method, l.path, l.status, l.key_id, k.name as key_name, l.user_id,
           (select n.name from private.author_names(array[l.user_id]) n) as user_name,
           l.latency_ms, l.rate_limit, l.rate_remaining, l.quota, l.requests
    from public.api_request_log l
    left join public.api_keys k on k.id = l.key_id
    where l.tenant_id = ${tenantId}
      ${filter.keyId ? q`and l.key_id = ${filter.keyId}` : q``}
      ${
        statusClass !== null
          ? q`and l.status >= ${statusClass} and l.status < ${statusClass + 100}`
          : status
            ? q`and l.status = ${Number(status)}`
            : q``
      }
      ${filter.path ? q`and l.path like ${likePrefix(filter.path)}` : q``}
      ${after ? q`and (l.at, l.id) < (${after.at}, ${after.id}::bigint)` : q``}
    order by l.at desc, l.id desc
    limit ${limit}`
}

/** A page of the tenant's requests, newest first, filtered by key, status and path prefix. */
export async function listRequestLog(
  ctx: ServiceContext,
  filter: RequestLogFilter,
  page: { limit: number; after: Cursor | null },
): Promise<Page<RequestLogEntry>> {
  const rows = await ctx.readAsTenant((q) =>
    selectRows(q, ctx.caller.tenantId, filter, page.after, page.limit + 1),
  )
  return paginate(rows, page.limit, (r) => ({ at: r.at, id: r.id }), present)
}

/** How many recent requests a key's page shows. */
const RECENT_REQUESTS = 20

/** A key's latest requests and its last 24 hours by the hour (the key's page); 404 for no such key. */
export async function keyRequests(ctx: ServiceContext, keyId: string): Promise<KeyRequests> {
  const tenantId = ctx.caller.tenantId
  const now = ctx.clock.now()
  return ctx.asTenant(async (tx) => {
    const [key] = await tx`select 1 from public.api_keys where id = ${keyId} and tenant_id = ${tenantId}`
    if (!key) throw notFound('API key')
    const recent = await selectRows(tx, tenantId, { keyId }, null, RECENT_REQUESTS)
    const hours = await tx<
      { hour: Date; requests: number; errors: number; rate_limited: number; quota_exceeded: number }[]
    >`
      with span as (
        select generate_series(date_trunc('hour', ${now}::timestamptz) - interval '23 hours',
                               date_trunc('hour', ${now}::timestamptz), interval '1 hour') as hour
      ), counts as (
        select date_trunc('hour', at) as hour, sum(requests)::int as requests,
               coalesce(sum(requests) filter (where status >= 400), 0)::int as errors,
               coalesce(sum(requests) filter (where rate_limit = 'limited'), 0)::int as rate_limited,
               coalesce(sum(requests) filter (where quota = 'exceeded'), 0)::int as quota_exceeded
        from public.api_request_log
        where tenant_id = ${tenantId} and key_id = ${keyId}
          and at >= date_trunc('hour', ${now}::timestamptz) - interval '23 hours'
        group by 1
      )
      select s.hour, coalesce(c.requests, 0) as requests, coalesce(c.errors, 0) as errors,
             coalesce(c.rate_limited, 0) as rate_limited, coalesce(c.quota_exceeded, 0) as quota_exceeded
      from span s left join counts c using (hour)
      order by s.hour`
    return {
      recent: recent.map(present),
      hours: hours.map((h) => ({ ...h, hour: h.hour.toISOString() })),
    }
  })
}
