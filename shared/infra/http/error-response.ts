import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import postgres from 'postgres'
import { isDatabaseUnavailable, noteDatabaseError, UNAVAILABLE_RETRY_AFTER_SECONDS } from '../db.ts'
import { errorBody, MALFORMED_JSON, ServiceError } from '../errors.ts'

/** Turns any thrown value into the spec's error body; unknown errors are logged and hidden. */
export function toErrorResponse(c: Context, err: unknown, log: (e: unknown) => void): Response {
  if (err instanceof ServiceError) {
    if (err.retryAfter !== undefined) c.header('Retry-After', String(err.retryAfter))
    return c.json(err.toBody(), err.status as ContentfulStatusCode)
  }
  if (err instanceof HTTPException) {
    // Hono raises these for malformed JSON, a wrong Content-Type and similar request faults: the
    // client's, so a documented 4xx code and no error log (the access log line records it).
    const status = err.status
    if (status === 415) {
      return c.json(errorBody(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json'), 415)
    }
    const code =
      status === 413
        ? 'PAYLOAD_TOO_LARGE'
        : status >= 400 && status < 500
          ? 'VALIDATION_ERROR'
          : 'INTERNAL_ERROR'
    if (code === 'INTERNAL_ERROR') log(err)
    const message =
      code === 'INTERNAL_ERROR'
        ? 'Internal server error'
        : /malformed json/i.test(err.message)
          ? MALFORMED_JSON
          : err.message || 'Malformed request'
    const sent = code === 'VALIDATION_ERROR' ? 400 : status
    return c.json(errorBody(sent, code, message), sent as ContentfulStatusCode)
  }
  // Text PostgreSQL cannot store (a NUL byte) passes any schema that bounds only
  // length, and is the client's fault wherever it comes from: 400, not 500.
  if (err instanceof postgres.PostgresError && UNSTORABLE_TEXT.has(err.code)) {
    return c.json(
      errorBody(400, 'VALIDATION_ERROR', 'Text contains a character that cannot be stored (NUL)'),
      400,
    )
  }
  // The database restarting or failing over: nothing the client did, and retrying soon helps.
  if (isDatabaseUnavailable(err)) {
    noteDatabaseError(err)
    c.header('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS))
    return c.json(
      errorBody(503, 'SERVICE_UNAVAILABLE', 'The database is unavailable; retry shortly', {
        retryAfter: UNAVAILABLE_RETRY_AFTER_SECONDS,
      }),
      503,
    )
  }
  log(err)
  return c.json(errorBody(500, 'INTERNAL_ERROR', 'Internal server error'), 500)
}

/** character_not_in_repertoire (NUL in text), untranslatable_character (jsonb \u0000 read as text). */
const UNSTORABLE_TEXT = new Set(['22021', '22P05'])
