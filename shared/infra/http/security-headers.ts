/**
 * The security headers of every HTML answer, in one place: the function frame and the local
 * platform apply them to each page they send (HTML, or SVG, which runs script when opened), and the dashboard's build writes the
 * same values into the headers files of static hosts (_headers, vercel.json).
 *
 * - No page may be framed (`frame-ancestors 'none'`, and X-Frame-Options for browsers without
 *   CSP level 2): a framed consent or settings page is a clickjacking target.
 * - A Content-Security-Policy per kind of page; every policy forbids plugins, <base> and framing.
 * - `nosniff` on every answer, HTML or not, so a browser never runs a JSON or text answer as a
 *   page or a script.
 * - No Referer leaves a page: page URLs carry request ids and e-mail addresses in their query.
 */

export type CspDirectives = Record<string, string[]>

/** What every policy holds, whatever the page allows besides. */
const ALWAYS: CspDirectives = {
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'frame-ancestors': ["'none'"],
}

/** A policy from its directives, with those every page shares (which a page cannot loosen). */
export function contentSecurityPolicy(directives: CspDirectives): string {
  return Object.entries({ ...directives, ...ALWAYS })
    .map(([name, sources]) => [name, ...sources].join(' '))
    .join('; ')
}

/**
 * A page without script (the platform's index, the dev mailbox): nothing loads but its own
 * inline style and images from its origin; a form posts only to its origin.
 */
const STATIC_PAGE_CSP = contentSecurityPolicy({
  'default-src': ["'none'"],
  'style-src': ["'unsafe-inline'"],
  'img-src': ["'self'", 'data:'],
  'form-action': ["'self'"],
})

/**
 * The dashboard: its own script and style files only (no inline script, no eval); it calls the
 * API at `apiOrigins` (the Supabase project when hosted). `servedFrom` names the origin that
 * serves its files where that can differ from the page's own ('self'): the local platform behind
 * a front-end server on another origin. Inline `style` properties set from script (progress
 * bars) are CSSOM writes, which style-src does not govern. Images may come from any https origin:
 * an article's feature image and the images in its preview live on the publication's own hosts.
 */
export function dashboardCsp(apiOrigins: string[] = [], servedFrom: string[] = []): string {
  const own = ["'self'", ...servedFrom]
  return contentSecurityPolicy({
    'default-src': own,
    'script-src': own,
    'style-src': own,
    'img-src': [...own, 'data:', 'https:'],
    'connect-src': [...own, ...apiOrigins.filter((o) => !servedFrom.includes(o))],
    'form-action': ["'self'"],
  })
}

/** The headers every HTML answer carries besides its Content-Security-Policy. */
export const DOCUMENT_HEADERS: readonly [string, string][] = [
  ['X-Frame-Options', 'DENY'],
  ['X-Content-Type-Options', 'nosniff'],
  ['Referrer-Policy', 'no-referrer'],
]

/** A type a browser opens as a page that can run script: HTML, XHTML, SVG. */
const isDocument = (contentType: string | null | undefined): boolean =>
  /^\s*(text\/html|application\/xhtml\+xml|image\/svg\+xml)\b/i.test(contentType ?? '')

/**
 * The security headers a response needs, given its content type and any policy its route set:
 * nosniff always; for a document (HTML, or SVG opened on its own) the document headers and a
 * policy (the route's own, else the script-less page's).
 */
export function securityHeadersFor(
  contentType: string | null | undefined,
  routePolicy: string | null | undefined,
): [string, string][] {
  if (!isDocument(contentType)) return [['X-Content-Type-Options', 'nosniff']]
  return [...DOCUMENT_HEADERS, ['Content-Security-Policy', routePolicy || STATIC_PAGE_CSP]]
}

/**
 * Sets them on a response in place; a response whose headers are immutable (one passed on from
 * fetch()) is copied once. Returns the response to send.
 */
export function withSecurityHeaders(res: Response): Response {
  const headers = securityHeadersFor(
    res.headers.get('content-type'),
    res.headers.get('content-security-policy'),
  )
  try {
    for (const [name, value] of headers) res.headers.set(name, value)
    return res
  } catch {
    const copy = new Response(res.body, res)
    for (const [name, value] of headers) copy.headers.set(name, value)
    return copy
  }
}
