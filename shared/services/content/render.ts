import MarkdownIt from 'markdown-it'
import sanitizeHtml from 'sanitize-html'

/**
 * The one Markdown renderer: the Content API's `formats=html` and `formats=plaintext`, the
 * derived excerpt, and the dashboard's preview all come from here, so an editor shows what
 * readers get. It imports packages only (no database, no Deno or Node API), so it runs on Deno,
 * Node and in the browser (esbuild bundles it; docs/content.md).
 *
 * Markdown is rendered by markdown-it (CommonMark, raw HTML allowed as authors expect) and the
 * result is always passed through sanitize-html with an allow-list: no script or style elements,
 * no event-handler or style attributes (table alignment excepted, as a fixed list of values), and
 * links and images only to http(s) (links also mailto), so no `javascript:` or `data:` URL.
 * tests/content-render.test.ts holds it to a list of known XSS payloads.
 */

const markdown = new MarkdownIt({ html: true, linkify: true })

const alignment = { 'text-align': [/^(left|right|center)$/] }

const sanitizeOptions: sanitizeHtml.IOptions = {
  allowedTags: [
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'p',
    'br',
    'hr',
    'blockquote',
    'pre',
    'code',
    'em',
    'strong',
    'del',
    's',
    'sub',
    'sup',
    'kbd',
    'ul',
    'ol',
    'li',
    'a',
    'img',
    'figure',
    'figcaption',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
  ],
  allowedAttributes: {
    a: ['href', 'title'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    ol: ['start'],
    th: ['style'],
    td: ['style'],
    code: ['class'],
  },
  allowedClasses: { code: ['language-*'] },
  allowedStyles: { th: alignment, td: alignment },
  allowedSchemes: ['https', 'http', 'mailto'],
  allowedSchemesByTag: { img: ['https', 'http'] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  // script, style, textarea and the like lose their content too, not only their tags.
  disallowedTagsMode: 'discard',
  transformTags: {
    a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer' }),
  },
}
sanitizeOptions.allowedAttributes = { ...sanitizeOptions.allowedAttributes, a: ['href', 'title', 'rel'] }

/** Sanitized HTML for Markdown (raw HTML inside it is sanitized the same way). */
export function renderHtml(source: string): string {
  return sanitizeHtml(markdown.render(source), sanitizeOptions)
}

type Token = ReturnType<MarkdownIt['parse']>[number]

/** Raw HTML elements whose text is no text a reader sees. */
const HIDDEN_ELEMENT = /^<(script|style|textarea|noscript|template|iframe|object)\b/i

function inlineText(token: Token): string {
  let text = ''
  let hiddenUntil: string | null = null
  for (const child of token.children ?? []) {
    if (child.type === 'html_inline') {
      if (hiddenUntil && child.content.toLowerCase().startsWith(hiddenUntil)) hiddenUntil = null
      else if (!hiddenUntil) {
        const hidden = HIDDEN_ELEMENT.exec(child.content)
        if (hidden) hiddenUntil = `</${hidden[1]!.toLowerCase()}`
      }
    } else if (hiddenUntil) continue
    else if (child.type === 'text' || child.type === 'code_inline') text += child.content
    else if (child.type === 'softbreak' || child.type === 'hardbreak') text += '\n'
    else if (child.type === 'image') text += child.content
  }
  return text
}

/** The text of each block (paragraph, heading, list item, code) without markup or raw HTML. */
function blocks(source: string): string[] {
  const out: string[] = []
  for (const token of markdown.parse(source, {})) {
    if (token.type === 'inline') out.push(inlineText(token))
    else if (token.type === 'fence' || token.type === 'code_block') out.push(token.content.replace(/\n$/, ''))
  }
  return out.filter((b) => b.trim() !== '')
}

/** Text without markup: one block per paragraph, separated by a blank line. */
export function renderPlaintext(source: string): string {
  return blocks(source).join('\n\n')
}

export const EXCERPT_LENGTH = 300

/**
 * The first paragraph's text, whitespace collapsed, at most `max` characters (cut at a word,
 * with an ellipsis). Empty for an empty body.
 */
export function excerptOf(source: string, max = EXCERPT_LENGTH): string {
  const first = markdown
    .parse(source, {})
    .find((t, i, all) => t.type === 'inline' && all[i - 1]?.type === 'paragraph_open')
  const text = (first ? inlineText(first) : (blocks(source)[0] ?? '')).replace(/\s+/g, ' ').trim()
  if (text.length <= max) return text
  const cut = text.slice(0, max - 1)
  const atWord = cut.lastIndexOf(' ')
  return `${(atWord > max / 2 ? cut.slice(0, atWord) : cut).trimEnd()}…`
}
