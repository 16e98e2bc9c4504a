import { z } from '@hono/zod-openapi'

const errorSchema = z
  .object({
    error: z.string().openapi({ example: 'Unauthorized' }),
    code: z.string().openapi({ example: 'AUTH_REQUIRED' }),
    message: z.string(),
    retryAfter: z.number().int().optional(),
    details: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
  })
  .openapi('Error')

/** Standard error responses for a route's OpenAPI description. */
export function errorResponses(...statuses: number[]) {
  const text: Record<number, string> = {
    400: 'Invalid request (VALIDATION_ERROR)',
    401: 'Missing or invalid credentials (AUTH_REQUIRED)',
    403: 'The credential lacks access (INSUFFICIENT_PERMISSIONS)',
    404: 'No such record in this tenant (NOT_FOUND)',
    409: 'Conflicts with an existing record (CONFLICT)',
    413: 'Body too large (PAYLOAD_TOO_LARGE)',
    422: 'The request could not be carried out (UNPROCESSABLE)',
    429: 'Rate limit exceeded (RATE_LIMITED)',
  }
  return Object.fromEntries(
    statuses.map((s) => [
      s,
      { description: text[s] ?? 'Error', content: { 'application/json': { schema: errorSchema } } },
    ]),
  )
}

/** A JSON body or response for a route definition: `responses: { 200: jsonContent(schema, 'The key') }`. */
export const jsonContent = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
})

/** The `{id}` path parameter of every single-record route. */
export const idParam = z.object({ id: z.uuid().openapi({ param: { name: 'id', in: 'path' } }) })

// biome-ignore lint/suspicious/noExplicitAny: OpenAPI documents are combined generically here
type OpenApiObject = Record<string, any>

/** One function's OpenAPI document, as it serves it at /functions/v1/<name>/openapi.json. */
export interface FunctionDocument {
  name: string
  document: OpenApiObject
}

const OPERATIONS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']

/**
 * The API reference: every function's document in one, each path at its public address (the
 * route table), or at its `/functions/v1/<name>` address where it has none (jobs, server
 * functions). A server prefix cannot express the table's rewrites (`/api/usage-alerts` is
 * `/functions/v1/usage/alerts`), so each operation names its Supabase address itself, in
 * `x-function-path` and in its description. Each function is a tag, so the reference groups by
 * function and one search covers all of them. Components are shared: two functions may define
 * the same named schema only identically.
 */
export function apiReferenceDocument(
  functions: FunctionDocument[],
  toPublicPath: (fn: string, path: string) => string,
): OpenApiObject {
  const paths: OpenApiObject = {}
  const components: OpenApiObject = {}
  const webhooks: OpenApiObject = {}
  const put = (into: OpenApiObject, key: string, value: unknown, what: string) => {
    if (key in into && JSON.stringify(into[key]) !== JSON.stringify(value))
      throw new Error(`${what} ${key} is defined differently by two functions`)
    into[key] = value
  }
  for (const { name, document } of functions) {
    for (const [path, item] of Object.entries<OpenApiObject>(document.paths ?? {})) {
      const functionPath = `/functions/v1/${name}${path === '/' ? '' : path}`
      const tagged: OpenApiObject = { ...item }
      for (const method of OPERATIONS) {
        const op = item[method]
        if (!op) continue
        const address = `Supabase address: \`${method.toUpperCase()} ${functionPath}\``
        tagged[method] = {
          ...op,
          tags: [name],
          description: op.description ? `${op.description}\n\n${address}` : address,
          'x-function-path': functionPath,
        }
      }
      put(paths, toPublicPath(name, path), tagged, 'path')
    }
    for (const [kind, entries] of Object.entries<OpenApiObject>(document.components ?? {})) {
      components[kind] ??= {}
      for (const [key, value] of Object.entries(entries)) put(components[kind], key, value, `${kind}`)
    }
    for (const [key, value] of Object.entries(document.webhooks ?? {})) put(webhooks, key, value, 'webhook')
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tenant Platform API',
      version: '1.0.0',
      description:
        'Every function of the platform in one document, at the public paths. On Supabase each function ' +
        'answers under `/functions/v1/<name>`: each operation names that address too.',
    },
    servers: [{ url: '/', description: 'The public paths: this platform, or PUBLIC_URL behind the proxy' }],
    tags: functions.map(({ name, document }) => ({ name, description: document.info?.description })),
    paths,
    components,
    webhooks,
  }
}
