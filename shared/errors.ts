import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import postgres from 'postgres'

/** The closed set of error codes; the spec names the first three. */
export const errorStatus = {
  AUTH_REQUIRED: 401,
  INSUFFICIENT_PERMISSIONS: 403,
  RATE_LIMITED: 429,
  QUOTA_EXCEEDED: 429,
  VALIDATION_ERROR: 400,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNPROCESSABLE: 422,
  INTERNAL_ERROR: 500,
} as const satisfies Record<string, ContentfulStatusCode>

export type ErrorCode = keyof typeof errorStatus

const statusText: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
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

export class ApiError extends HTTPException {
  readonly code: ErrorCode
  readonly retryAfter?: number
  readonly details?: FieldIssue[]

  constructor(code: ErrorCode, message: string, extra: { retryAfter?: number; details?: FieldIssue[] } = {}) {
    super(errorStatus[code], { message })
    this.code = code
    this.retryAfter = extra.retryAfter
    this.details = extra.details
  }
}

export const notFound = (what: string) => new ApiError('NOT_FOUND', `${what} not found`)

export function errorBody(
  status: number,
  code: string,
  message: string,
  extra: Partial<ErrorBody> = {},
): ErrorBody {
  return { error: statusText[status] ?? 'Error', code, message, ...extra }
}

/** Turns any thrown value into the spec's error body; unknown errors are logged and hidden. */
export function toErrorResponse(c: Context, err: unknown, log: (e: unknown) => void): Response {
  if (err instanceof ApiError) {
    const body = errorBody(err.status, err.code, err.message, {
      ...(err.retryAfter !== undefined && { retryAfter: err.retryAfter }),
      ...(err.details && { details: err.details }),
    })
    if (err.retryAfter !== undefined) c.header('Retry-After', String(err.retryAfter))
    return c.json(body, err.status as ContentfulStatusCode)
  }
  if (err instanceof HTTPException) {
    // Hono raises these for malformed JSON and similar request faults.
    const status = err.status
    const code = status === 400 ? 'VALIDATION_ERROR' : status === 413 ? 'PAYLOAD_TOO_LARGE' : 'INTERNAL_ERROR'
    if (code === 'INTERNAL_ERROR') log(err)
    const message = code === 'INTERNAL_ERROR' ? 'Internal server error' : err.message
    return c.json(errorBody(status, code, message), status as ContentfulStatusCode)
  }
  // Text PostgreSQL cannot store (a NUL byte) passes any schema that bounds only
  // length, and is the client's fault wherever it comes from: 400, not 500.
  if (err instanceof postgres.PostgresError && UNSTORABLE_TEXT.has(err.code)) {
    return c.json(
      errorBody(400, 'VALIDATION_ERROR', 'Text contains a character that cannot be stored (NUL)'),
      400,
    )
  }
  log(err)
  return c.json(errorBody(500, 'INTERNAL_ERROR', 'Internal server error'), 500)
}

/** character_not_in_repertoire (NUL in text), untranslatable_character (jsonb \u0000 read as text). */
const UNSTORABLE_TEXT = new Set(['22021', '22P05'])
