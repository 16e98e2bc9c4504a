/**
 * Structured logs, one line per event. Callers pass fields explicitly; nothing here reads
 * headers or bodies, so a secret can only reach a log line if someone writes it there on purpose.
 *
 * Two formats: JSON lines (production, CI, anything that is not a terminal, or LOG_FORMAT=json)
 * and a compact human-readable line for a developer's terminal (LOG_FORMAT=pretty, the default
 * when stdout is a TTY). We keep this small module rather than pino: the edge runtime has no
 * worker threads for pino's transports, and one JSON line per event is all the functions need.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent'
type LogFormat = 'json' | 'pretty'
const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 }

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void
  info(msg: string, fields?: Record<string, unknown>): void
  warn(msg: string, fields?: Record<string, unknown>): void
  error(msg: string, fields?: Record<string, unknown>): void
}

export interface LoggerOptions {
  format?: LogFormat
  base?: Record<string, unknown>
  /** Where lines go; the console by default (warnings and errors to stderr). */
  write?: (level: LogLevel, line: string) => void
}

const consoleWrite = (level: LogLevel, line: string) =>
  level === 'error' || level === 'warn' ? console.error(line) : console.log(line)

export function createLogger(level: LogLevel, options: LoggerOptions = {}): Logger {
  const { format = 'json', base = {}, write = consoleWrite } = options
  const emit = (lvl: LogLevel, msg: string, fields?: Record<string, unknown>) => {
    if (order[lvl] < order[level]) return
    const time = new Date()
    const entry = { ...base, ...fields }
    write(
      lvl,
      format === 'pretty'
        ? prettyLine(time, lvl, msg, entry)
        : JSON.stringify({ time: time.toISOString(), level: lvl, msg, ...entry }),
    )
  }
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
  }
}

/** `12:00:01 INFO  POST /api/api-keys 201 12ms user api-keys` or `12:00:01 WARN  msg key=value ...`. */
function prettyLine(time: Date, level: LogLevel, msg: string, fields: Record<string, unknown>): string {
  const clock = time.toISOString().slice(11, 19)
  const head = `${clock} ${level.toUpperCase().padEnd(5)}`
  if (msg === 'request') {
    const { method, path, status, duration_ms, caller, fn, request_id: _id, tenant_id: _t, ...rest } = fields
    const tail = Object.keys(rest).length ? ` ${pairs(rest)}` : ''
    return `${head} ${method} ${path} ${status} ${duration_ms}ms ${caller ?? '-'} ${fn}${tail}`
  }
  const { stack, ...rest } = fields
  return `${head} ${msg}${Object.keys(rest).length ? ` ${pairs(rest)}` : ''}${stack ? `\n${stack}` : ''}`
}

const pairs = (fields: Record<string, unknown>) =>
  Object.entries(fields)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ')

export function describeError(err: unknown): Record<string, unknown> {
  if (err instanceof Error) return { error: err.message, error_name: err.name, stack: err.stack }
  return { error: String(err) }
}
