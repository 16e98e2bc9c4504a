import type { ServiceContext } from '@shared/infra/deps.ts'
import { ServiceError } from '@shared/infra/errors.ts'
import { decodeCursor } from '@shared/infra/pagination.ts'
import { getArticle } from '../content/article-reads.ts'
import { type ContentItem, listContent } from '../content/feed.ts'
import { getSite } from '../content/sites.ts'

/**
 * The tenant's content as MCP resources and the platform's prompts, transport-free (the tool
 * server's MCP handler serves them). Everything here needs the key's content:read scope, like
 * the tools that read the same rows. Resource URIs:
 *
 *   platform://sites/{site_id}         a site (JSON)
 *   platform://articles/{article_id}   an article with its body (JSON)
 *
 * resources/list pages through the feed (sites and articles, oldest first) with the feed's
 * keyset cursor.
 */

export const READ_SCOPE = 'content:read'
const PAGE_SIZE = 50
const JSON_TYPE = 'application/json'

export const resourceTemplates = [
  {
    uriTemplate: 'platform://sites/{site_id}',
    name: 'site',
    title: 'Site',
    description: "One of the tenant's sites",
    mimeType: JSON_TYPE,
  },
  {
    uriTemplate: 'platform://articles/{article_id}',
    name: 'article',
    title: 'Article',
    description: "One of the tenant's articles, with its body",
    mimeType: JSON_TYPE,
  },
]

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

function requireRead(scopes: string[]) {
  if (!scopes.includes(READ_SCOPE))
    throw new ServiceError('INSUFFICIENT_PERMISSIONS', `Resources need the scope ${READ_SCOPE}`)
}

const asResource = (item: ContentItem) =>
  item.object === 'site'
    ? {
        uri: `platform://sites/${item.id}`,
        name: `site-${item.id}`,
        title: (item as { name: string }).name,
        description: `Site ${(item as { domain: string | null }).domain ?? ''}`.trim(),
        mimeType: JSON_TYPE,
      }
    : {
        uri: `platform://articles/${item.id}`,
        name: `article-${item.id}`,
        title: (item as { title: string }).title,
        description: `Article (${(item as { status: string }).status})`,
        mimeType: JSON_TYPE,
      }

export async function listResources(ctx: ServiceContext, scopes: string[], cursor?: string) {
  requireRead(scopes)
  const after = decodeCursor(cursor)
  const page = await listContent(ctx, { limit: PAGE_SIZE, after })
  return {
    resources: page.data.map(asResource),
    ...(page.next_cursor && { nextCursor: page.next_cursor }),
  }
}

/** Parses a platform:// URI; anything else is NOT_FOUND (the caller's unknown resource). */
function parseResourceUri(uri: string): { kind: 'site' | 'article'; id: string } | null {
  const match = /^platform:\/\/(sites|articles)\/([^/?#]+)$/.exec(uri)
  if (!match || !UUID.test(match[2]!)) return null
  return { kind: match[1] === 'sites' ? 'site' : 'article', id: match[2]!.toLowerCase() }
}

export async function readResource(ctx: ServiceContext, scopes: string[], uri: string) {
  requireRead(scopes)
  const parsed = parseResourceUri(uri)
  if (!parsed) throw new ServiceError('NOT_FOUND', `No resource ${uri.slice(0, 200)}`)
  const value = parsed.kind === 'site' ? await getSite(ctx, parsed.id) : await getArticle(ctx, parsed.id)
  return { contents: [{ uri, mimeType: JSON_TYPE, text: JSON.stringify(value) }] }
}

/** The platform's prompts: ready-made requests that use its tools and resources. */
export const prompts = [
  {
    name: 'draft_article',
    title: 'Draft an article',
    description: 'Ask the model to write a draft article for one of the sites and save it as a draft.',
    arguments: [
      { name: 'site_id', description: 'The site to write for', required: true },
      { name: 'topic', description: 'What the article is about', required: true },
    ],
  },
  {
    name: 'review_article',
    title: 'Review an article',
    description: 'Ask the model to review an article (clarity, facts to check, title) before publishing.',
    arguments: [{ name: 'article_id', description: 'The article to review', required: true }],
  },
]

export async function getPrompt(
  ctx: ServiceContext,
  scopes: string[],
  name: string,
  args: Record<string, string> = {},
) {
  requireRead(scopes)
  const prompt = prompts.find((p) => p.name === name)
  if (!prompt) throw new ServiceError('NOT_FOUND', `No prompt named ${name.slice(0, 200)}`)
  const missing = prompt.arguments.filter((a) => a.required && !args[a.name]?.trim()).map((a) => a.name)
  if (missing.length)
    throw new ServiceError('VALIDATION_ERROR', `Missing arguments: ${missing.join(', ')}`, {
      details: missing.map((field) => ({ field, message: 'Required' })),
    })
  if (name === 'draft_article') {
    const siteId = args.site_id!.trim()
    if (!UUID.test(siteId)) throw new ServiceError('VALIDATION_ERROR', 'site_id must be a UUID')
    const site = await getSite(ctx, siteId)
    const topic = args.topic!.trim().slice(0, 500)
    return {
      description: `Draft an article for ${site.name}`,
      messages: [
        {
          role: 'user' as const,
          content: {
            type: 'text' as const,
            text: `Write an article about "${topic}" for the site "${site.name}". Save it with the platform__create_draft tool (site_id ${site.id}); do not publish it.`,
          },
        },
        {
          role: 'user' as const,
          content: {
            type: 'resource' as const,
            resource: { uri: `platform://sites/${site.id}`, mimeType: JSON_TYPE, text: JSON.stringify(site) },
          },
        },
      ],
    }
  }
  const articleId = args.article_id!.trim()
  if (!UUID.test(articleId)) throw new ServiceError('VALIDATION_ERROR', 'article_id must be a UUID')
  const article = await getArticle(ctx, articleId)
  return {
    description: `Review "${article.title}"`,
    messages: [
      {
        role: 'user' as const,
        content: {
          type: 'text' as const,
          text: 'Review this article before it is published: clarity, structure, claims that need a source, and a better title if there is one. Answer with a list of suggested changes.',
        },
      },
      {
        role: 'user' as const,
        content: {
          type: 'resource' as const,
          resource: {
            uri: `platform://articles/${article.id}`,
            mimeType: JSON_TYPE,
            text: JSON.stringify(article),
          },
        },
      },
    ],
  }
}

const MAX_COMPLETIONS = 100

/**
 * completion/complete: ids for the prompts' site_id / article_id arguments and the templates'
 * {site_id} / {article_id}, matched by the typed prefix of the id or of the name/title.
 */
export async function complete(
  ctx: ServiceContext,
  scopes: string[],
  ref: { type: string; name?: string; uri?: string },
  argument: { name: string; value: string },
) {
  const empty = { completion: { values: [] as string[], hasMore: false } }
  if (!scopes.includes(READ_SCOPE)) return empty
  const known =
    ref.type === 'ref/prompt'
      ? prompts.some((p) => p.name === ref.name)
      : ref.type === 'ref/resource' && resourceTemplates.some((t) => t.uriTemplate === ref.uri)
  if (!known) throw new ServiceError('NOT_FOUND', 'Unknown prompt or resource template')
  const type = argument.name === 'site_id' ? 'site' : argument.name === 'article_id' ? 'article' : null
  if (!type) return empty
  const typed = argument.value.trim().toLowerCase()
  const page = await listContent(ctx, { limit: MAX_COMPLETIONS, filter: { type } })
  const values = page.data
    .filter((item) => {
      const label = ('name' in item ? item.name : (item as { title: string }).title) ?? ''
      return item.id.startsWith(typed) || label.toLowerCase().startsWith(typed)
    })
    .map((item) => item.id)
  return { completion: { values, total: values.length, hasMore: page.next_cursor !== null } }
}
