/**
 * Structured JSON logs, one line per event. Callers pass fields explicitly; nothing here reads
 * headers or bodies, so a secret can only reach a log line if someone writes it there on purpose.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent'
const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 }

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void
  info(msg: string, fields?: Record<string, unknown>): void
  warn(msg: string, fields?: Record<string, unknown>): void
  error(msg: string, fields?: Record<string, unknown>): void
}

export function createLogger(level: LogLevel, base: Record<string, unknown> = {}): Logger {
  const write = (lvl: LogLevel, msg: string, fields?: Record<string, unknown>) => {
    if (order[lvl] < order[level]) return
    const line = JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...base, ...fields })
    if (lvl === 'error' || lvl === 'warn') console.error(line)
    else console.log(line)
  }
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
  }
}

export function describeError(err: unknown): Record<string, unknown> {
  if (err instanceof Error) return { error: err.message, error_name: err.name, stack: err.stack }
  return { error: String(err) }
}
