/**
 * The one domain error. Services throw it; each front end maps it once: the HTTP layer to the
 * spec's error body (shared/infra/http/error-response.ts), the tool server to a tool error result.
 * It carries no transport types, so services stay free of Hono.
 */

/** The closed set of error codes with their HTTP statuses; the spec names the first three. */
export const errorStatus = {
  AUTH_REQUIRED: 401,
  INSUFFICIENT_PERMISSIONS: 403,
  RATE_LIMITED: 429,
  QUOTA_EXCEEDED: 429,
  VALIDATION_ERROR: 400,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  METHOD_NOT_ALLOWED: 405,
  NOT_ACCEPTABLE: 406,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNPROCESSABLE: 422,
  INTERNAL_ERROR: 500,
  /** The database cannot be reached (restarting, failing over): retry after retryAfter seconds. */
  SERVICE_UNAVAILABLE: 503,
} as const

export type ErrorCode = keyof typeof errorStatus

const statusText: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
}

export interface FieldIssue {
  field: string
  message: string
}

export interface ErrorBody {
  error: string
  code: string
  message: string
  retryAfter?: number
  details?: FieldIssue[]
}

export class ServiceError extends Error {
  readonly code: ErrorCode
  readonly status: (typeof errorStatus)[ErrorCode]
  readonly retryAfter?: number
  readonly details?: FieldIssue[]

  constructor(code: ErrorCode, message: string, extra: { retryAfter?: number; details?: FieldIssue[] } = {}) {
    super(message)
    this.name = 'ServiceError'
    this.code = code
    this.status = errorStatus[code]
    this.retryAfter = extra.retryAfter
    this.details = extra.details
  }

  /** The spec's error body for this error. */
  toBody(): ErrorBody {
    return errorBody(this.status, this.code, this.message, {
      ...(this.retryAfter !== undefined && { retryAfter: this.retryAfter }),
      ...(this.details && { details: this.details }),
    })
  }
}

/** The one wording for a request body that does not parse, wherever it is caught. */
export const MALFORMED_JSON = 'The body is not valid JSON: check its quotes, commas and brackets'

export const notFound = (what: string) => new ServiceError('NOT_FOUND', `${what} not found`)

/** A VALIDATION_ERROR naming one field, for rules a schema cannot state (cross-field, clock). */
export const invalidField = (field: string, message: string, summary = `${field} ${message}`) =>
  new ServiceError('VALIDATION_ERROR', summary, { details: [{ field, message }] })

/** What zod's own size issue ("Too big: expected string to have <=500 characters") means, in words. */
const sizeUnits: Record<string, [string, string]> = {
  string: ['character', 'characters'],
  array: ['item', 'items'],
  set: ['item', 'items'],
  file: ['byte', 'bytes'],
}
function plainSizeMessage(issue: {
  message: string
  code?: string
  origin?: unknown
  maximum?: unknown
  minimum?: unknown
}): string | undefined {
  // Only zod's default wording is replaced: a schema's own message already says it plainly.
  if (!/^Too (big|small): expected /.test(issue.message)) return undefined
  const units = sizeUnits[String(issue.origin)]
  const bound = issue.code === 'too_big' ? issue.maximum : issue.minimum
  if (!units || (typeof bound !== 'number' && typeof bound !== 'bigint')) return undefined
  const n = Number(bound)
  const unit = n === 1 ? units[0] : units[1]
  if (issue.code === 'too_big') return `is too long: at most ${n.toLocaleString('en-US')} ${unit}`
  return n === 1 && units[0] === 'character'
    ? 'must not be empty'
    : `is too short: at least ${n.toLocaleString('en-US')} ${unit}`
}

/** Zod issues as the error body's details, one per failing field; `prefix` nests them (params.x). */
export function validationError(
  issues: readonly {
    path: readonly PropertyKey[]
    message: string
    code?: string
    keys?: readonly string[]
    origin?: unknown
    maximum?: unknown
    minimum?: unknown
  }[],
  summary = 'Invalid request',
  prefix: string[] = [],
  /** When set, a strict object's unknown keys become one detail each, named by the key. */
  unknownKeyMessage?: string,
): ServiceError {
  const details = issues.flatMap((i) => {
    const path = [...prefix, ...i.path.map(String)]
    if (unknownKeyMessage && i.code === 'unrecognized_keys' && i.keys?.length)
      return i.keys.map((k) => ({ field: [...path, k].join('.'), message: unknownKeyMessage }))
    return [{ field: path.length ? path.join('.') : '(body)', message: plainSizeMessage(i) ?? i.message }]
  })
  const fields = [...new Set(details.map((d) => d.field))].join(', ')
  return new ServiceError('VALIDATION_ERROR', `${summary}: ${fields}`, { details })
}

/** "expires_at must lie in the future": the one check several areas make against the clock. */
export function requireFuture(field: string, at: Date | null, now: Date): void {
  if (at && at <= now) throw invalidField(field, 'must lie in the future', `${field} must lie in the future`)
}

export function errorBody(
  status: number,
  code: string,
  message: string,
  extra: Partial<ErrorBody> = {},
): ErrorBody {
  return { error: statusText[status] ?? 'Error', code, message, ...extra }
}
