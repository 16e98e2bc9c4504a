import { z } from '@hono/zod-openapi'
import { type ContentFormat, contentFormats } from '@shared/services/content/article-row.ts'
import { localeField } from '@shared/services/content/locales.ts'

/** The description of a metered route (meter: 'content'). */
export const metered =
  ' With an API key, metered as one Content API request (past the Free quota: 429 QUOTA_EXCEEDED); a signed-in member is not metered.'

/** Reads answer with an ETag; If-None-Match with the current one answers 304 without a body. */
export const cached =
  ' Answers with an ETag; a request with If-None-Match naming it gets 304 Not Modified and no body.'

/** The renderings named in `formats`, checked (shared by reads of one article and of a list). */
function parseFormats(s: string, ctx: z.RefinementCtx): ContentFormat[] {
  const wanted = s
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean)
  const unknown = wanted.filter((f) => !(contentFormats as readonly string[]).includes(f))
  if (unknown.length > 0 || wanted.length === 0) {
    ctx.addIssue({
      code: 'custom',
      message: `one or more of ${contentFormats.join(', ')}, comma-separated`,
    })
    return z.NEVER
  }
  return [...new Set(wanted)] as ContentFormat[]
}

/** `formats=markdown,html,plaintext`: which renderings of the body a read returns. */
export const formatsQuery = z.string().max(100).default('markdown').transform(parseFormats).openapi({
  description: `The body as markdown (the default, field body), html (sanitized, field html) and/or plaintext (field plaintext), comma-separated`,
  example: 'html',
  type: 'string',
})

/** `locale`: the article in that locale when its translation group has it (docs/content.md "Translations"). */
export const localeQuery = localeField().optional().openapi({
  description:
    "BCP 47. The article's translation in this locale, else in its site's default locale, else the article named (its locale says which it is)",
  example: 'fr',
})

/**
 * `formats` on a list: without it the list gives each article's summary; with it each article comes
 * whole (as a read by id gives it) with the body in those renderings, so a site's build reads a
 * page of articles in one request.
 */
export const listFormatsQuery = z.string().max(100).transform(parseFormats).optional().openapi({
  description:
    'Articles come whole (as GET /v1/content/articles/{id} gives them) with the body as markdown, html and/or plaintext, comma-separated; without it, each article is a summary',
  example: 'html',
  type: 'string',
})
