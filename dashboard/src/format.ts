/** Dates as the user's locale shows them, with the exact time on hover. */
export function when(iso: string | null | undefined): string {
  if (!iso) return '—'
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })
}

/** "3 minutes ago", "in 2 days": for last use and expiry. */
export function ago(iso: string | null | undefined, empty = 'never'): string {
  if (!iso) return empty
  const diff = new Date(iso).getTime() - Date.now()
  const abs = Math.abs(diff)
  const units: [Intl.RelativeTimeFormatUnit, number][] = [
    ['day', 86_400_000],
    ['hour', 3_600_000],
    ['minute', 60_000],
  ]
  const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' })
  for (const [unit, ms] of units) if (abs >= ms) return rtf.format(Math.round(diff / ms), unit)
  return diff < 0 ? 'just now' : 'in a moment'
}

export function percent(n: number | null | undefined, digits = 0): string {
  return n === null || n === undefined ? '—' : `${(n * 100).toFixed(digits)}%`
}

export function num(n: number | null | undefined): string {
  return n === null || n === undefined ? '—' : n.toLocaleString()
}

/** A link target from outside data (a feed item, a product), kept only when it is http(s). */
export function safeHref(url: string | null | undefined): string | undefined {
  return url && /^https?:\/\//i.test(url) ? url : undefined
}

/**
 * A domain as people paste it, cut to its host: `https://blog.acme.test/` and `blog.acme.test/`
 * become `blog.acme.test`. Text that is no host at all is returned trimmed, for the API to refuse
 * with its reason.
 */
export function hostOf(text: string): string {
  const trimmed = text.trim()
  if (!trimmed) return ''
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`)
    return url.hostname || trimmed
  } catch {
    return trimmed
  }
}
