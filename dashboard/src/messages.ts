import type { ApiError } from './api.ts'

/**
 * What each machine code of the API means to a person, and what they can do next: the one place
 * the dashboard turns an error into words (every page shows errors through ErrorNote). The API's
 * own message follows the sentence when it says more (which field, which product, which limit).
 * A code the API adds later falls back to its message alone, never to the bare code.
 */
export interface Explanation {
  /** What happened, in a sentence. */
  sentence: string
  /** What to do about it, when there is something to do. */
  next?: string
  /** Where the next step is done: a dashboard route and its label. */
  link?: { href: string; label: string }
}

/** A wait as people say it: "30 seconds", "5 minutes", "3 hours", "4 days". */
function seconds(n: number | undefined): string {
  if (n === undefined) return 'a moment'
  const [value, unit] =
    n < 90
      ? [n, 'second']
      : n < 5400
        ? [Math.ceil(n / 60), 'minute']
        : n < 172_800
          ? [Math.ceil(n / 3600), 'hour']
          : [Math.ceil(n / 86_400), 'day']
  return `${value} ${unit}${value === 1 ? '' : 's'}`
}

export function explain(e: ApiError): Explanation {
  switch (e.code) {
    case 'VALIDATION_ERROR':
      return {
        sentence: 'Some of what was entered is not accepted.',
        next: e.details.length
          ? 'Correct the fields named below and try again.'
          : 'Check the form and try again.',
      }
    case 'AUTH_REQUIRED':
      return { sentence: 'Your session has ended.', next: 'Sign in again (reload the page).' }
    case 'INSUFFICIENT_PERMISSIONS':
      return {
        sentence: 'Your role in this workspace does not allow this.',
        next: 'Someone whose role allows it can do it for you: Team lists who is who.',
        link: { href: '#/team', label: 'Team' },
      }
    case 'NOT_FOUND':
      return {
        sentence: 'It is not there any more: it was deleted, or it belongs to another workspace.',
        next: 'Reload the page to see what is there now.',
      }
    case 'CONFLICT':
      return {
        sentence: 'This clashes with something that already exists or is already under way.',
        next: 'Use another name, or wait for the running work to finish and reload.',
      }
    case 'RATE_LIMITED':
      return {
        sentence: 'Too many requests in a short time.',
        next: `Wait ${seconds(e.retryAfter)} and try again.`,
      }
    case 'QUOTA_EXCEEDED':
      return {
        sentence: 'This workspace has used up its monthly quota on its plan.',
        next: `To go on this month, move the workspace to a larger plan: plans are changed by billing, so ask whoever pays for the platform. Otherwise the quota starts again on the 1st (UTC), in ${seconds(e.retryAfter)}. Usage shows the plan and every quota.`,
        link: { href: '#/usage', label: 'Usage' },
      }
    case 'PAYLOAD_TOO_LARGE':
      return { sentence: 'That is too large to send.', next: 'Make it smaller and try again.' }
    case 'UNPROCESSABLE':
      return { sentence: 'The platform could not do this.', next: 'The reason below says what to change.' }
    case 'SERVICE_UNAVAILABLE':
      return {
        sentence: 'The platform is briefly unavailable.',
        next: `Try again in ${seconds(e.retryAfter)}.`,
      }
    case 'INTERNAL_ERROR':
      return {
        sentence: 'Something went wrong on the platform.',
        next: 'Try again; if it happens again, tell the platform’s operators the time it happened.',
      }
    case 'METHOD_NOT_ALLOWED':
    case 'NOT_ACCEPTABLE':
    case 'UNSUPPORTED_MEDIA_TYPE':
      return {
        sentence: 'The dashboard sent a request this platform does not take.',
        next: 'Reload the page: the dashboard may be older than the platform.',
      }
    case 'NETWORK':
      return { sentence: 'The platform could not be reached.', next: 'Check your connection and try again.' }
    default:
      return { sentence: e.message || 'Something went wrong.' }
  }
}

/** A field of a 400's details as a person reads it: `notification_target` → "notification target". */
export function fieldName(field: string): string {
  return field
    .replace(/^body\./, '')
    .replaceAll('_', ' ')
    .replaceAll('.', ' › ')
}

/** A call the API's messages name (`POST /v1/content/articles/{id}/publish`): its method and path. */
const apiCall = String.raw`(?:GET|POST|PUT|PATCH|DELETE) (?:/|…/)[^\s),;]*`

/** Calls the API's messages name, as what an editor presses or opens in the dashboard. */
const callWords: [RegExp, string][] = [
  [/POST \S*\/articles\/\S*\/publish\b/g, 'press Publish'],
  [/POST \S*\/articles\/\S*\/schedule\b/g, 'press Schedule'],
  [/POST \S*\/articles\/\S*\/submit\b/g, 'press Submit for review'],
  [/(?:with )?POST \/v1\/content\/tags\b/g, 'on the Tags page'],
  [/PATCH \/v1\/content\/sites\/\S*?(?=[\s),;]|$)/g, "the site's settings"],
  [/POST \/api\/credentials\/\S*\/rotate\b/g, 'Rotate on the Credentials page'],
  [/POST \/api\/credentials\b/g, 'the Credentials page'],
  [
    /(?:with )?POST \/api\/connections\/\S*\/permissions\b/g,
    "in the connection's permissions (Integrations)",
  ],
  [/POST \/v1\/assistant\/approvals\/\S*?(?=[\s),;]|$)/g, 'Approvals'],
  [/POST \/api\/webhooks\/\S*\/resume\b/g, 'Resume on the Webhooks page'],
  [/GET \/api\/webhooks\/\S*\/deliveries\b/g, 'the Webhooks page'],
]

/**
 * The API's own words, in the dashboard's: the API says tenant, people here say workspace; a call
 * it names (`POST …/publish`) becomes the button or page that makes it, and an aside naming any
 * other call is left out: editors press buttons, they do not send requests.
 */
export function inDashboardWords(message: string): string {
  let words = message.replace(
    /\b([Tt])enant(s?)\b/g,
    (_, t: string, plural: string) => `${t === 'T' ? 'W' : 'w'}orkspace${plural}`,
  )
  for (const [call, word] of callWords) words = words.replace(call, word)
  return (
    words
      // A record's id beside its name ("Kitchen" (e4c4…)) is for clients; people know it by the name.
      .replace(/\s*\([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\)/g, '')
      .replace(new RegExp(String.raw`\s*\((?:see |or )?${apiCall}[^)]*\)`, 'g'), '')
      .replace(new RegExp(String.raw`(?:with|see) ${apiCall}`, 'g'), 'in the dashboard')
      .replace(new RegExp(apiCall, 'g'), 'the API')
  )
}
