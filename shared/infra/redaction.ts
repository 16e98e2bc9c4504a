/**
 * Removes known secrets from what a peer answered before it leaves the platform. A connected MCP
 * server, a provider's API or any other outbound peer may echo the request it received (its
 * headers, its URL) in an error or a result; whatever passes that answer on to a caller, a log line
 * or a transcript runs it through a Redactor that knows the secrets of that request.
 *
 * Matching is exact and case-sensitive, longest secret first, so a URL is removed whole before
 * its host could be; values shorter than MIN_SECRET_LENGTH are never treated as secrets (they
 * would blank ordinary words).
 */

const REDACTED = '[redacted]'
const MIN_SECRET_LENGTH = 4
/** Deeper than any JSON a peer sends us is allowed to be; past it values are dropped, not walked. */
const MAX_DEPTH = 64

export class Redactor {
  private readonly secrets = new Set<string>()
  private sorted: string[] | null = null

  /** A credential or any other value that must not be repeated back (a token, a key). */
  add(secret: string | null | undefined): this {
    if (secret && secret.length >= MIN_SECRET_LENGTH) {
      this.secrets.add(secret)
      this.sorted = null
    }
    return this
  }

  /**
   * A peer's address: the URL as stored and the forms an echo may quote it in (without its query,
   * its origin, its host), its userinfo and its query values, which may carry keys.
   */
  addUrl(url: string | null | undefined): this {
    if (!url) return this
    this.add(url)
    let parsed: URL
    try {
      parsed = new URL(url)
    } catch {
      return this
    }
    this.add(parsed.href)
    this.add(`${parsed.origin}${parsed.pathname}`)
    this.add(parsed.origin)
    this.add(parsed.host)
    this.add(decodeURIComponent(parsed.username))
    this.add(decodeURIComponent(parsed.password))
    for (const value of parsed.searchParams.values()) this.add(value)
    return this
  }

  private ordered(): string[] {
    this.sorted ??= [...this.secrets].sort((a, b) => b.length - a.length)
    return this.sorted
  }

  text(value: string): string {
    let out = value
    for (const secret of this.ordered()) if (out.includes(secret)) out = out.split(secret).join(REDACTED)
    return out
  }

  /** Every string in a JSON value (object keys too), in a copy; non-plain objects as they are. */
  value<T>(value: T): T {
    if (this.secrets.size === 0) return value
    return this.walk(value, 0) as T
  }

  private walk(value: unknown, depth: number): unknown {
    if (typeof value === 'string') return this.text(value)
    if (value === null || typeof value !== 'object') return value
    if (depth >= MAX_DEPTH) return REDACTED
    if (Array.isArray(value)) return value.map((item) => this.walk(item, depth + 1))
    const proto = Object.getPrototypeOf(value)
    if (proto !== Object.prototype && proto !== null) return value
    const out: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(value)) out[this.text(key)] = this.walk(item, depth + 1)
    return out
  }
}
