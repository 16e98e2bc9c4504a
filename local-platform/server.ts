import { join } from 'node:path'
import { serviceKeys } from '@shared/infra/config.ts'
import { createDeps } from '@shared/infra/create-deps.ts'
import type { Sql } from '@shared/infra/db.ts'
import type { FunctionDeps } from '@shared/infra/deps.ts'
import { errorBody } from '@shared/infra/errors.ts'
import { closeHotPath } from '@shared/infra/hot-path/hot-path.ts'
import { allowedMethodsOf, unmatchedResponse } from '@shared/infra/http/allowed-methods.ts'
import { toFunctionPath } from '@shared/infra/http/public-routes.ts'
import { withSecurityHeaders } from '@shared/infra/http/security-headers.ts'
import { productionEveryMs, scheduledJobs } from '@shared/infra/jobs/schedule.ts'
import { eventRunsKicker } from '@shared/services/assistant/event-runs-kick.ts'
import { Hono } from 'hono'
import { getPath } from 'hono/utils/url'
import { serveApiReference } from './api-reference.ts'
import { createLocalAuth } from './auth.ts'
import { serveDashboard } from './dashboard.ts'
import { functionModules } from './functions.ts'
import { dataDir, type LocalEnv } from './local-env.ts'
import { type MailboxRow, renderMailbox, wantsMailboxPage } from './mailbox-page.ts'
import { createLocalStorage } from './storage/app.ts'

export interface PlatformOptions {
  /** The functions' environment (see functionEnvironment()). */
  env: Record<string, string | undefined>
  localEnv: LocalEnv
  overrides?: Parameters<typeof createDeps>[1]
  /**
   * Start an event's automation runs right after its commit (default true, as in production).
   * Tests that drive the sweep by hand on a test clock turn it off to keep that control.
   */
  kickEventRuns?: boolean
  /** Where the local Storage keeps object bytes (default: the data folder's storage/). */
  storageDir?: string
}

export interface Platform {
  /** `remoteAddr` is the socket peer, which the functions use as the client address. */
  fetch(req: Request, conn?: { remoteAddr?: string }): Promise<Response>
  deps: FunctionDeps
  sql: Sql
  /** Runs a scheduled job the way pg_cron does: a POST with the service-role key. */
  runJob(path: string): Promise<Response>
  /** Fires after an outbox write commits (an in-process dispatcher listens). */
  signals: EventTarget
  close(): Promise<void>
}

/**
 * The local platform: every function app behind one handler, reachable at
 * /functions/v1/<name>/... and at the spec's public paths through the route table, plus the
 * development JWKS and Supabase Auth endpoints, the dashboard, the dev mailbox and the API reference.
 */
export async function createPlatform(opts: PlatformOptions): Promise<Platform> {
  const signals = new EventTarget()
  // The functions call Storage at SUPABASE_URL/storage/v1 with supabase-js; here that is this
  // platform's own /storage/v1, reached in process (the address may not be the one it listens on).
  let dispatchRef: ((req: Request) => Promise<Response>) | undefined
  const storageFetch: typeof fetch = (input, init) => {
    const req = new Request(input, init)
    const url = new URL(req.url)
    const body = req.method === 'GET' || req.method === 'HEAD' ? null : req.body
    return dispatchRef!(
      new Request(`http://platform.local${url.pathname}${url.search}`, {
        method: req.method,
        headers: req.headers,
        body,
        ...(body && { duplex: 'half' }),
      } as RequestInit),
    )
  }
  const deps = await createDeps(opts.env, {
    onOutboxCommitted: () => signals.dispatchEvent(new Event('outbox')),
    storageFetch,
    ...opts.overrides,
  })
  const handlers = new Map(functionModules.map((m) => [m.functionName, m.createApp(deps).fetch]))

  const root = new Hono()
  // Function apps set X-Request-Id themselves; this covers the platform's own routes and 404s.
  root.use('*', async (c, next) => {
    await next()
    if (!c.res.headers.has('x-request-id')) c.res.headers.set('X-Request-Id', crypto.randomUUID())
  })
  // The platform's own answers get the security headers the function frame gives functions'
  // (shared/infra/http/security-headers.ts): every HTML page here passes this one place.
  root.use('*', async (c, next) => {
    await next()
    c.res = withSecurityHeaders(c.res)
  })
  // One request line for the local Supabase Auth endpoints, as the function frame writes for
  // function requests (method, path, status, time; never headers or bodies).
  root.use('/auth/v1/*', async (c, next) => {
    const started = performance.now()
    await next()
    deps.logger.info('request', {
      fn: 'auth',
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      duration_ms: Math.round(performance.now() - started),
    })
  })
  root.get('/auth/v1/.well-known/jwks.json', (c) => c.json({ keys: [opts.localEnv.jwtPublicJwk] }))
  // Supabase Auth's password endpoints, for the dashboard and any supabase-js app.
  root.route('/auth/v1', createLocalAuth(deps, opts.localEnv))
  // Supabase Storage's REST API (the subset the platform uses), backed by files in the data folder.
  root.use('/storage/v1/*', async (c, next) => {
    const started = performance.now()
    await next()
    deps.logger.info('request', {
      fn: 'storage',
      method: c.req.method,
      path: c.req.path.replace(/\?.*$/, ''),
      status: c.res.status,
      duration_ms: Math.round(performance.now() - started),
    })
  })
  root.route(
    '/storage/v1',
    createLocalStorage(deps, opts.localEnv, opts.storageDir ?? join(dataDir(), 'storage')),
  )
  // The tenant dashboard (built by `npm run build:dashboard`), same origin as the API.
  serveDashboard(root, {
    anonKey: deps.config.SUPABASE_ANON_KEY ?? opts.localEnv.anonKey,
    publicOrigin: new URL(deps.config.DASHBOARD_URL).origin,
  })
  // The platform's front door: where the dashboard, the API reference and the health checks are.
  root.get('/', (c) => {
    const origin = new URL(c.req.url).origin
    const index = platformIndex(origin, [...handlers.keys()])
    if (!(c.req.header('accept') ?? '').includes('text/html')) return c.json(index)
    return c.html(indexPage(index))
  })
  root.get('/health', async (c) => {
    await deps.sql`select 1`
    return c.json({ status: 'ok', functions: [...handlers.keys()] })
  })
  // Local tooling (/_dev/...: the dev mailbox holds invitation links) is served by this local
  // platform only, never by a function, and only to this machine: a loopback peer that named a
  // loopback host (a web page elsewhere that rebinds its name to 127.0.0.1 is refused).
  root.use('/_dev/*', async (c, next) => {
    if (!isLoopback((c.env as { remoteAddr?: string } | undefined)?.remoteAddr) || !isLoopbackHost(c.req.url))
      return c.json(errorBody(404, 'NOT_FOUND', 'Local tooling is served only to this machine'), 404)
    await next()
  })
  // Development only: the e-mails the notifier "sent" without an e-mail API configured.
  root.get('/_dev/mailbox', async (c) => {
    const to = c.req.query('to')
    const rows = await deps.sql`
      select id, kind, recipient, subject, body, status, created_at, sent_at from public.notifications
      ${to ? deps.sql`where recipient = ${to.toLowerCase()}` : deps.sql``}
      order by created_at desc limit 100`
    if (wantsMailboxPage(c.req.header('accept'), c.req.query('format'))) {
      return c.html(renderMailbox(rows as unknown as MailboxRow[], to))
    }
    return c.json({ data: rows })
  })
  serveApiReference(root, handlers)
  // Each app maps the public form of its paths itself (functionPath), so the request goes on
  // unchanged; this only picks the function.
  const functionFor = (pathname: string) => {
    const path = pathname.startsWith('/functions/v1/') ? pathname : toFunctionPath(pathname)
    return path ? handlers.get(path.split('/')[3] ?? '') : undefined
  }
  // A platform path under another method (POST /health) is 405 with Allow; anything else 404.
  const allowedAt = allowedMethodsOf(root)
  root.all('*', (c) => unmatchedResponse(c, allowedAt(c.req.path)))
  // A function's request goes straight to its app (as the edge runtime sends it); the rest
  // (auth, dashboard, docs, 404) through the platform's own routes.
  const dispatch = async (req: Request, conn: { remoteAddr?: string } = {}) => {
    const handler = functionFor(getPath(req))
    return handler ? handler(req, conn) : root.fetch(req, conn)
  }
  dispatchRef = (req) => dispatch(req, { remoteAddr: '127.0.0.1' })

  const runJob = async (path: string) =>
    dispatch(
      new Request(`http://platform.local/functions/v1/${path}`, {
        method: 'POST',
        headers: { apikey: serviceKeys(deps.config)[0]!, 'content-type': 'application/json' },
        body: '{}',
      }),
    )

  // Webhooks: attempt 1 goes out right after an outbox commit instead of at the next poll.
  // A burst of commits schedules one trigger; the job itself runs one pass at a time per process.
  let closed = false
  let webhookDispatchScheduled = false
  signals.addEventListener('outbox', () => {
    if (webhookDispatchScheduled || closed) return
    webhookDispatchScheduled = true
    setTimeout(() => {
      webhookDispatchScheduled = false
      if (closed) return
      runJob('webhooks/jobs/dispatch').then(
        async (res) => {
          if (!res.ok)
            deps.logger.warn('webhook dispatch failed', { status: res.status, body: await res.text() })
        },
        (err) => deps.logger.warn('webhook dispatch failed', { error: String(err) }),
      )
    }, 0)
  })

  // Automations: an event's runs start on this instance right after its commit, as the pg_net
  // trigger starts them on Supabase (docs/adr/0038); the sweep stays the safety net.
  if (opts.kickEventRuns !== false) {
    const kickEventRuns = eventRunsKicker(deps)
    signals.addEventListener('outbox', () => {
      if (!closed) kickEventRuns()
    })
  }

  return {
    fetch: dispatch,
    deps,
    sql: deps.sql,
    signals,
    runJob,
    close: async () => {
      closed = true
      await closeHotPath(deps)
      await deps.sql.end({ timeout: 5 })
    },
  }
}

const isLoopback = (address: string | undefined) =>
  !!address && /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/.test(address)
const isLoopbackHost = (url: string) =>
  ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(url).hostname) || isLoopback(new URL(url).hostname)

/**
 * Runs the scheduled jobs on their intervals; returns a stop function. `cadence: 'production'`
 * runs each at pg_cron's pace instead of the local one (every 10 seconds, every minute, every n
 * minutes; hourly and daily jobs not at all), so a test sees what a deployment's timing gives.
 */
export function startScheduler(
  platform: Platform,
  onError: (path: string, err: unknown) => void,
  opts: { cadence?: 'local' | 'production' } = {},
): () => void {
  const timers = scheduledJobs.flatMap((job) => {
    const every = opts.cadence === 'production' ? productionEveryMs(job) : job.localEverySeconds * 1000
    if (every === null) return []
    return [
      setInterval(() => {
        platform.runJob(job.path).then(
          async (res) => {
            if (!res.ok) return onError(job.path, new Error(`${res.status} ${await res.text()}`))
            // Polls that did nothing stay quiet (their request line is at debug level).
            const report = await res.json().catch(() => null)
            if (didWork(report)) platform.deps.logger.info('job done', { job: job.path, ...report })
          },
          (err) => onError(job.path, err),
        )
      }, every),
    ]
  })
  return () => {
    for (const t of timers) clearInterval(t)
  }
}

/** A job's JSON report counts what it did; any positive count means it did something. */
function didWork(report: unknown): report is Record<string, unknown> {
  return (
    typeof report === 'object' &&
    report !== null &&
    Object.values(report).some((v) => (typeof v === 'number' && v > 0) || (Array.isArray(v) && v.length > 0))
  )
}

/** What `GET /` answers: where everything is. */
function platformIndex(origin: string, functions: string[]) {
  return {
    name: 'Tenant Platform (local)',
    dashboard: `${origin}/dashboard/`,
    api_reference: `${origin}/docs`,
    api_reference_document: `${origin}/docs/openapi.json`,
    health: `${origin}/health`,
    function_health: functions.map((fn) => `${origin}/functions/v1/${fn}/health`),
    openapi: functions.map((fn) => `${origin}/functions/v1/${fn}/openapi.json`),
    dev_mailbox: `${origin}/_dev/mailbox`,
    auth: `${origin}/auth/v1`,
    storage: `${origin}/storage/v1`,
    readme: 'README.md in the repository: the first session, the API conventions and deployment',
  }
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"]/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[ch]!)

function indexPage(index: ReturnType<typeof platformIndex>): string {
  const link = (href: string, text = href) => `<a href="${escapeHtml(href)}">${escapeHtml(text)}</a>`
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>${index.name}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:44rem;margin:2rem auto;padding:0 1rem}li{margin:.2rem 0}</style>
</head><body>
<h1>${index.name}</h1>
<ul>
<li>Dashboard: ${link(index.dashboard)}</li>
<li>API reference: ${link(index.api_reference)} (one OpenAPI document: ${link(index.api_reference_document)})</li>
<li>Health: ${link(index.health)}, and per function: ${index.function_health.map((u) => link(u, u.split('/').at(-2))).join(', ')}</li>
<li>OpenAPI documents: ${index.openapi.map((u) => link(u, u.split('/').at(-2))).join(', ')}</li>
<li>Dev mailbox: ${link(index.dev_mailbox)}</li>
</ul>
<p>The first session (a token, a platform key, a tool-server key) is in the repository's README.md.</p>
</body></html>`
}
