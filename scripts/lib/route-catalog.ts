import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { functionModules } from '@local-platform/functions.ts'
import type { CallerKind, MemberRole, Scope } from '@shared/infra/caller.ts'
import { createDeps } from '@shared/infra/create-deps.ts'
import { AUTH_EXTENSION, METER_EXTENSION, type RouteMeter } from '@shared/infra/http/define-route.ts'
import { apiReferenceDocument } from '@shared/infra/http/openapi.ts'
import { toPublicPath } from '@shared/infra/http/public-routes.ts'

/**
 * Every route of every function with the authentication it declares (the `x-auth` extension that
 * defineRoute publishes) and what it meters (`x-meter`). The README's route table is generated
 * from this, and the security matrix test walks the same list, so a new route is documented and
 * tested by being registered.
 */
export interface RouteAuthEntry {
  fn: string
  method: string
  /** Path inside the function, OpenAPI style (`/{id}`). */
  path: string
  /** The spec's public path where the route table maps one, else the /functions/v1 path. */
  publicPath: string
  allow: CallerKind[]
  scope?: Scope
  roles?: MemberRole[]
  /** What a request meters, when the route declares it (the `x-meter` extension). */
  meter?: RouteMeter
}

// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document is walked generically here
type OpenApiDocument = { paths?: Record<string, Record<string, any>> }

const METHODS = ['get', 'post', 'put', 'patch', 'delete']

export function routesOf(fn: string, doc: OpenApiDocument): RouteAuthEntry[] {
  const entries: RouteAuthEntry[] = []
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method]
      if (!op) continue
      const auth = op[AUTH_EXTENSION] as Pick<RouteAuthEntry, 'allow' | 'scope' | 'roles'> | undefined
      if (!auth)
        throw new Error(`${method.toUpperCase()} ${fn}${path} declares no authentication (use defineRoute)`)
      const meter = op[METER_EXTENSION] as RouteMeter | undefined
      entries.push({
        fn,
        method: method.toUpperCase(),
        path,
        publicPath: publicPathOf(fn, path),
        ...auth,
        ...(meter && { meter }),
      })
    }
  }
  return entries
}

/** The public address of a function path (see toPublicPath in the route table). */
const publicPathOf = toPublicPath

/** Every function's OpenAPI document, built from the apps themselves (nothing is connected). */
export async function openApiDocuments(): Promise<Map<string, OpenApiDocument>> {
  const deps = await createDeps({
    DATABASE_URL: 'postgres://unused@127.0.0.1:1/unused',
    SUPABASE_ANON_KEY: 'x'.repeat(32),
    SUPABASE_SERVICE_ROLE_KEY: 'x'.repeat(32),
    VAULT_MASTER_KEYS: `v1:${btoa(String.fromCharCode(...new Uint8Array(32)))}`,
    LOG_LEVEL: 'silent',
  })
  const docs = new Map<string, OpenApiDocument>()
  for (const m of functionModules) {
    // The document the function serves, as the local platform and a deployment answer it.
    const res = await m
      .createApp(deps)
      .fetch(new Request(`http://platform.local/functions/v1/${m.functionName}/openapi.json`))
    docs.set(m.functionName, (await res.json()) as OpenApiDocument)
  }
  await deps.sql.end()
  return docs
}

/** The API reference's one document (/docs/openapi.json), built from the apps as openApiDocuments is. */
export async function apiReference(): Promise<Record<string, unknown>> {
  const docs = await openApiDocuments()
  return apiReferenceDocument(
    [...docs].map(([name, document]) => ({ name, document })),
    toPublicPath,
  )
}

const callerNames: Record<CallerKind, string> = {
  user: 'user',
  user_without_tenant: 'user (no tenant yet)',
  platform_key: 'platform key',
  published_key: 'published-only key',
  tool_key: 'tool-server key',
  service: 'service role',
  anon: 'anon key',
  websub_hub: 'WebSub hub (token in the address)',
}

const repoRoot = fileURLToPath(new URL('../../', import.meta.url))
/** `defineRoute(auth, { method: 'get', path: '/x'`: how nearly every route declares itself. */
const routeDeclaration = /defineRoute\(\s*[^,]+,\s*\{\s*method:\s*'(\w+)',\s*path:\s*'([^']+)'/g

/**
 * The file that declares each route, read from the sources under functions/<function>/: the one
 * whose defineRoute names the route's method and path, else (a route whose path is passed in,
 * as the OAuth metadata's two paths are) the one file calling defineRoute that quotes the path.
 * A route no file declares, or two files do, is an error: the table would be wrong.
 */
function routeSources(entries: RouteAuthEntry[]): Map<RouteAuthEntry, string> {
  const functionsDir = join(repoRoot, 'functions')
  const files = new Map<string, { path: string; text: string }[]>()
  for (const fn of readdirSync(functionsDir)) {
    const names = readdirSync(join(functionsDir, fn), { recursive: true, encoding: 'utf8' })
    files.set(
      fn,
      names
        .filter((f) => f.endsWith('.ts'))
        .sort()
        .map((f) => ({
          path: relative(repoRoot, join(functionsDir, fn, f))
            .split('\\')
            .join('/'),
          text: readFileSync(join(functionsDir, fn, f), 'utf8'),
        }))
        .filter((f) => f.text.includes('defineRoute(')),
    )
  }
  const sources = new Map<RouteAuthEntry, string>()
  for (const e of entries) {
    const candidates = files.get(e.fn) ?? []
    const declaring = candidates.filter((f) =>
      [...f.text.matchAll(routeDeclaration)].some(
        ([, m, p]) => m!.toUpperCase() === e.method && p === e.path,
      ),
    )
    const found = declaring.length ? declaring : candidates.filter((f) => f.text.includes(`'${e.path}'`))
    if (found.length !== 1)
      throw new Error(
        `${e.method} ${e.fn}${e.path}: ${found.length ? 'declared in several files' : 'no declaration found'} under functions/${e.fn}/`,
      )
    sources.set(e, found[0]!.path)
  }
  return sources
}

/** The README's table: one row per route, in the order the functions register them. */
export function renderRouteTable(entries: RouteAuthEntry[], sources = routeSources(entries)): string {
  const cells = entries.map((e) => {
    const callers = e.allow.length ? e.allow.map((k) => callerNames[k]).join(', ') : 'public'
    const scope =
      e.scope && (e.allow.includes('platform_key') || e.allow.includes('tool_key')) ? `\`${e.scope}\`` : ''
    const roles = e.allow.includes('user') ? (e.roles ? e.roles.join(' or ') : 'any member') : ''
    const meters = e.meter ? `${e.meter.product}${e.meter.buffered ? ' (buffered)' : ''}` : ''
    const source = sources.get(e)
    return [`\`${e.method} ${e.publicPath}\``, callers, scope, roles, meters, `\`${source}\``]
  })
  return markdownTable(['endpoint', 'callers', 'key scope', 'user roles', 'meters', 'source'], cells)
}

/** A Markdown table with padded columns, as the formatter (Biome) lays tables out. */
function markdownTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(3, h.length, ...rows.map((r) => r[i]!.length)))
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n')
}

export const ROUTE_TABLE_BEGIN = '<!-- route-table:begin (generated by npm run docs:routes) -->'
export const ROUTE_TABLE_END = '<!-- route-table:end -->'

export function withRouteTable(readme: string, table: string): string {
  const begin = readme.indexOf(ROUTE_TABLE_BEGIN)
  const end = readme.indexOf(ROUTE_TABLE_END)
  if (begin < 0 || end < begin) throw new Error('README has no route-table markers')
  return `${readme.slice(0, begin + ROUTE_TABLE_BEGIN.length)}\n${table}\n${readme.slice(end)}`
}
