// biome-ignore-all lint/suspicious/noExplicitAny: provider JSON is read field by field, each checked where it matters
import type { DepsWithoutDatabase, FunctionDeps } from '../../infra/deps.ts'
import { OutboundBlockedError, OutboundError } from '../../infra/outbound.ts'

/**
 * The catalog tools of the eight OAuth providers, each as calls of the provider's documented API
 * (request and response shapes as the providers publish them). The base URL is the provider's
 * apiBaseUrl, which OAUTH_PROVIDERS_OVERRIDE can re-point (tests use loopback servers).
 *
 * A call throws ProviderAuthError when the provider refuses the token (HTTP 401, or Slack's
 * `ok: false` with invalid_auth / token_expired), so the caller can refresh once and retry, and
 * ProviderError for anything else that is not a usable answer (error status, garbage, time-out).
 */

export class ProviderAuthError extends Error {
  override name = 'ProviderAuthError'
}

export class ProviderError extends Error {
  override name = 'ProviderError'
}

export interface ApiCall {
  method: 'GET' | 'POST' | 'PATCH'
  path: string
  query?: Record<string, string | number | boolean | undefined>
  json?: unknown
  body?: string
  contentType?: string
  /** Read the body as text rather than JSON (file downloads). */
  text?: boolean
}

export type Api = (call: ApiCall) => Promise<any>
type Args = Record<string, any>
type ToolImpl = (api: Api, args: Args) => Promise<unknown>

const MAX_TEXT = 256 * 1024
const enc = encodeURIComponent

const SLACK_AUTH_ERRORS = new Set([
  'invalid_auth',
  'not_authed',
  'token_expired',
  'token_revoked',
  'account_inactive',
])

/** Headers some providers require on every request. */
const providerHeaders: Record<string, Record<string, string>> = {
  github: {
    accept: 'application/vnd.github+json',
    'x-github-api-version': '2022-11-28',
    'user-agent': 'tenant-platform-tool-server',
  },
  notion: { 'notion-version': '2022-06-28' },
}

/** An Api bound to one connection's base URL and token, through the guarded fetch. */
export function providerApi(
  deps: DepsWithoutDatabase,
  slug: string,
  baseUrl: string,
  token: string,
  timeoutMs: number,
): Api {
  const base = baseUrl.replace(/\/+$/, '')
  return async (call) => {
    const url = new URL(`${base}${call.path}`)
    for (const [k, v] of Object.entries(call.query ?? {}))
      if (v !== undefined) url.searchParams.set(k, String(v))
    const headers: Record<string, string> = {
      authorization: `Bearer ${token}`,
      accept: 'application/json',
      ...providerHeaders[slug],
    }
    let body: string | undefined
    if (call.json !== undefined) {
      body = JSON.stringify(call.json)
      headers['content-type'] = 'application/json; charset=utf-8'
    } else if (call.body !== undefined) {
      body = call.body
      headers['content-type'] = call.contentType ?? 'text/plain'
    }
    let res: Response
    try {
      res = await deps.fetch(url, { method: call.method, headers, body, timeoutMs, redirect: 'error' })
    } catch (err) {
      if (err instanceof OutboundBlockedError)
        throw new ProviderError(`the provider address is refused: ${err.reason}`)
      if (err instanceof OutboundError)
        throw new ProviderError(
          err.kind === 'timeout'
            ? 'the provider did not answer in time'
            : `the provider is unreachable (${err.kind})`,
        )
      throw new ProviderError('the provider is unreachable')
    }
    if (res.status === 401) throw new ProviderAuthError(`${slug} refused the access token (HTTP 401)`)
    const text = await res.text()
    if (call.text && res.ok) return text.slice(0, MAX_TEXT)
    let parsed: any
    try {
      parsed = text ? JSON.parse(text) : {}
    } catch {
      throw new ProviderError(`${slug} answered HTTP ${res.status} with a body that is not JSON`)
    }
    if (slug === 'slack' && parsed && parsed.ok === false) {
      const code = typeof parsed.error === 'string' ? parsed.error.slice(0, 100) : 'unknown_error'
      if (SLACK_AUTH_ERRORS.has(code)) throw new ProviderAuthError(`slack refused the access token (${code})`)
      throw new ProviderError(`slack answered ${code}`)
    }
    if (!res.ok) {
      const message =
        (typeof parsed?.message === 'string' && parsed.message) ||
        (typeof parsed?.error?.message === 'string' && parsed.error.message) ||
        (typeof parsed?.error === 'string' && parsed.error) ||
        ''
      throw new ProviderError(
        `${slug} answered HTTP ${res.status}${message ? `: ${String(message).slice(0, 300)}` : ''}`,
      )
    }
    if (parsed === null || typeof parsed !== 'object')
      throw new ProviderError(`${slug} answered with an unexpected body`)
    if (slug === 'linear' && Array.isArray(parsed.errors) && parsed.errors.length > 0) {
      const first = parsed.errors[0] ?? {}
      const type = String(first.extensions?.type ?? first.extensions?.code ?? '').toLowerCase()
      if (type.includes('authentication')) throw new ProviderAuthError('linear refused the access token')
      throw new ProviderError(`linear answered: ${String(first.message ?? 'error').slice(0, 300)}`)
    }
    return parsed
  }
}

const need = (value: unknown, what: string) => {
  if (value === undefined || value === null) throw new ProviderError(`the provider answer has no ${what}`)
  return value
}

/** RFC 2822 message, base64url-encoded as Gmail's users.messages.send takes it in `raw`. */
function gmailRaw(args: Args): string {
  const clean = (s: string) => s.replace(/[\r\n]+/g, ' ')
  const lines = [
    `To: ${(args.to as string[]).map(clean).join(', ')}`,
    ...(args.cc?.length ? [`Cc: ${(args.cc as string[]).map(clean).join(', ')}`] : []),
    ...(args.bcc?.length ? [`Bcc: ${(args.bcc as string[]).map(clean).join(', ')}`] : []),
    `Subject: =?UTF-8?B?${base64(new TextEncoder().encode(clean(args.subject)))}?=`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset="UTF-8"',
    'Content-Transfer-Encoding: 8bit',
    '',
    String(args.body),
  ]
  return base64(new TextEncoder().encode(lines.join('\r\n')))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
}

function base64(bytes: Uint8Array): string {
  let bin = ''
  for (const b of bytes) bin += String.fromCharCode(b)
  return btoa(bin)
}

function gmailBody(payload: any): string | null {
  if (!payload) return null
  if (payload.mimeType === 'text/plain' && payload.body?.data) {
    const b64 = String(payload.body.data).replace(/-/g, '+').replace(/_/g, '/')
    const bin = atob(b64)
    return new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0))).slice(0, MAX_TEXT)
  }
  for (const part of payload.parts ?? []) {
    const found = gmailBody(part)
    if (found !== null) return found
  }
  return null
}

const header = (payload: any, name: string): string | null =>
  (payload?.headers ?? []).find((h: any) => String(h.name).toLowerCase() === name)?.value ?? null

/** Paragraph blocks from Markdown-ish text (one per paragraph, Notion's 2000-character text limit). */
function notionParagraphs(content: string | undefined) {
  if (!content) return undefined
  return content
    .split(/\n{2,}/)
    .filter((p) => p.trim())
    .slice(0, 100)
    .map((p) => ({
      object: 'block',
      type: 'paragraph',
      paragraph: { rich_text: [{ type: 'text', text: { content: p.slice(0, 2000) } }] },
    }))
}

export const providerTools: Record<string, ToolImpl> = {
  // Slack Web API: https://api.slack.com/methods
  'slack:post_message': async (api, a) => {
    const r = await api({
      method: 'POST',
      path: '/chat.postMessage',
      json: { channel: a.channel, text: a.text, ...(a.thread_ts && { thread_ts: a.thread_ts }) },
    })
    return { channel: need(r.channel, 'channel'), ts: need(r.ts, 'ts') }
  },
  'slack:list_channels': async (api, a) => {
    const r = await api({
      method: 'GET',
      path: '/conversations.list',
      query: { types: 'public_channel', exclude_archived: true, limit: a.limit ?? 200, cursor: a.cursor },
    })
    const channels = need(r.channels, 'channels') as any[]
    return {
      channels: channels.map((c) => ({
        id: c.id,
        name: c.name,
        is_member: c.is_member,
        num_members: c.num_members,
      })),
      next_cursor: r.response_metadata?.next_cursor || null,
    }
  },
  'slack:search_messages': async (api, a) => {
    const r = await api({
      method: 'GET',
      path: '/search.messages',
      query: { query: a.query, count: a.count ?? 20 },
    })
    const m = need(r.messages, 'messages') as any
    return {
      total: m.total ?? 0,
      matches: (m.matches ?? []).map((x: any) => ({
        channel: x.channel?.id ?? null,
        ts: x.ts,
        text: x.text,
        user: x.user ?? x.username ?? null,
        permalink: x.permalink ?? null,
      })),
    }
  },

  // GitHub REST API: https://docs.github.com/rest
  'github:create_issue': async (api, a) => {
    const r = await api({
      method: 'POST',
      path: `/repos/${enc(a.owner)}/${enc(a.repo)}/issues`,
      json: { title: a.title, ...(a.body && { body: a.body }), ...(a.labels && { labels: a.labels }) },
    })
    return { number: need(r.number, 'number'), html_url: r.html_url, state: r.state, title: r.title }
  },
  'github:create_pull_request': async (api, a) => {
    const r = await api({
      method: 'POST',
      path: `/repos/${enc(a.owner)}/${enc(a.repo)}/pulls`,
      json: { title: a.title, head: a.head, base: a.base, ...(a.body && { body: a.body }) },
    })
    return { number: need(r.number, 'number'), html_url: r.html_url, state: r.state, title: r.title }
  },
  'github:list_repositories': async (api, a) => {
    const r = await api({
      method: 'GET',
      path: a.org ? `/orgs/${enc(a.org)}/repos` : '/user/repos',
      query: { per_page: 100 },
    })
    if (!Array.isArray(r)) throw new ProviderError('github answered with an unexpected body')
    return {
      repositories: r.map((x: any) => ({
        full_name: x.full_name,
        private: x.private,
        html_url: x.html_url,
        default_branch: x.default_branch,
      })),
    }
  },
  'github:get_repository': async (api, a) => {
    const r = await api({ method: 'GET', path: `/repos/${enc(a.owner)}/${enc(a.repo)}` })
    return {
      full_name: need(r.full_name, 'full_name'),
      description: r.description ?? null,
      private: r.private,
      html_url: r.html_url,
      default_branch: r.default_branch,
      open_issues_count: r.open_issues_count,
      stargazers_count: r.stargazers_count,
    }
  },

  // Notion API (version 2022-06-28): https://developers.notion.com/reference
  'notion:create_page': async (api, a) => {
    const r = await api({
      method: 'POST',
      path: '/v1/pages',
      json: {
        parent: { database_id: a.database_id },
        // "title" is the id of every database's title property, whatever its display name.
        properties: { ...(a.properties ?? {}), title: { title: [{ text: { content: a.title } }] } },
        ...(a.content && { children: notionParagraphs(a.content) }),
      },
    })
    return { id: need(r.id, 'id'), url: r.url ?? null }
  },
  'notion:search': async (api, a) => {
    const r = await api({
      method: 'POST',
      path: '/v1/search',
      json: { query: a.query, page_size: a.page_size ?? 20 },
    })
    return {
      results: (need(r.results, 'results') as any[]).map((x) => ({
        object: x.object,
        id: x.id,
        url: x.url ?? null,
      })),
      next_cursor: r.next_cursor ?? null,
    }
  },
  'notion:query_database': async (api, a) => {
    const r = await api({
      method: 'POST',
      path: `/v1/databases/${enc(a.database_id)}/query`,
      json: { ...(a.filter && { filter: a.filter }), page_size: a.page_size ?? 50 },
    })
    return {
      results: (need(r.results, 'results') as any[]).map((x) => ({
        id: x.id,
        url: x.url ?? null,
        properties: x.properties,
      })),
      next_cursor: r.next_cursor ?? null,
    }
  },

  // Linear GraphQL API: https://developers.linear.app
  'linear:create_issue': async (api, a) => {
    const r = await api({
      method: 'POST',
      path: '/graphql',
      json: {
        query:
          'mutation IssueCreate($input: IssueCreateInput!) { issueCreate(input: $input) { success issue { id identifier title url } } }',
        variables: {
          input: {
            teamId: a.team_id,
            title: a.title,
            ...(a.description && { description: a.description }),
            ...(a.priority !== undefined && { priority: a.priority }),
          },
        },
      },
    })
    const created = need(r.data?.issueCreate, 'issueCreate') as any
    if (!created.success) throw new ProviderError('linear did not create the issue')
    return created.issue
  },
  'linear:list_projects': async (api, a) => {
    const first = a.first ?? 50
    const r = a.team_id
      ? await api({
          method: 'POST',
          path: '/graphql',
          json: {
            query:
              'query($id: String!, $first: Int) { team(id: $id) { projects(first: $first) { nodes { id name state url } } } }',
            variables: { id: a.team_id, first },
          },
        })
      : await api({
          method: 'POST',
          path: '/graphql',
          json: {
            query: 'query($first: Int) { projects(first: $first) { nodes { id name state url } } }',
            variables: { first },
          },
        })
    const nodes = (a.team_id ? r.data?.team?.projects?.nodes : r.data?.projects?.nodes) as unknown
    return { projects: need(nodes, 'projects') }
  },

  // Figma REST API: https://www.figma.com/developers/api
  'figma:get_file': async (api, a) => {
    const r = await api({ method: 'GET', path: `/v1/files/${enc(a.file_key)}`, query: { depth: a.depth } })
    return {
      name: need(r.name, 'name'),
      last_modified: r.lastModified,
      version: r.version,
      document: r.document,
    }
  },
  'figma:export_assets': async (api, a) => {
    const r = await api({
      method: 'GET',
      path: `/v1/images/${enc(a.file_key)}`,
      query: { ids: (a.node_ids as string[]).join(','), format: a.format ?? 'png', scale: a.scale },
    })
    if (r.err) throw new ProviderError(`figma answered: ${String(r.err).slice(0, 300)}`)
    return { images: need(r.images, 'images') }
  },

  // Gmail API: https://developers.google.com/gmail/api/reference/rest
  'gmail:send_email': async (api, a) => {
    const r = await api({
      method: 'POST',
      path: '/gmail/v1/users/me/messages/send',
      json: { raw: gmailRaw(a) },
    })
    return { id: need(r.id, 'id'), thread_id: r.threadId ?? null }
  },
  'gmail:read_email': async (api, a) => {
    const r = await api({
      method: 'GET',
      path: `/gmail/v1/users/me/messages/${enc(a.message_id)}`,
      query: { format: 'full' },
    })
    return {
      id: need(r.id, 'id'),
      thread_id: r.threadId ?? null,
      snippet: r.snippet ?? null,
      from: header(r.payload, 'from'),
      to: header(r.payload, 'to'),
      subject: header(r.payload, 'subject'),
      date: header(r.payload, 'date'),
      body: gmailBody(r.payload),
    }
  },
  'gmail:search_email': async (api, a) => {
    const r = await api({
      method: 'GET',
      path: '/gmail/v1/users/me/messages',
      query: { q: a.query, maxResults: a.max_results ?? 20 },
    })
    return { messages: r.messages ?? [], result_size_estimate: r.resultSizeEstimate ?? 0 }
  },

  // Google Drive API v3: https://developers.google.com/drive/api/reference/rest/v3
  'google-drive:read_file': async (api, a) => {
    const meta = await api({
      method: 'GET',
      path: `/drive/v3/files/${enc(a.file_id)}`,
      query: { fields: 'id,name,mimeType,modifiedTime,size' },
    })
    const mime = String(need(meta.mimeType, 'mimeType'))
    let content: string | null = null
    if (mime === 'application/vnd.google-apps.document') {
      content = await api({
        method: 'GET',
        path: `/drive/v3/files/${enc(a.file_id)}/export`,
        query: { mimeType: 'text/plain' },
        text: true,
      })
    } else if (mime.startsWith('text/') || mime === 'application/json') {
      content = await api({
        method: 'GET',
        path: `/drive/v3/files/${enc(a.file_id)}`,
        query: { alt: 'media' },
        text: true,
      })
    }
    return {
      id: meta.id,
      name: meta.name,
      mime_type: mime,
      modified_time: meta.modifiedTime ?? null,
      content,
    }
  },
  'google-drive:write_file': async (api, a) => {
    const boundary = `tool-server-${crypto.randomUUID()}`
    const metadata = {
      name: a.name,
      ...(a.mime_type && { mimeType: a.mime_type }),
      ...(a.folder_id && !a.file_id && { parents: [a.folder_id] }),
    }
    const body = [
      `--${boundary}`,
      'Content-Type: application/json; charset=UTF-8',
      '',
      JSON.stringify(metadata),
      `--${boundary}`,
      `Content-Type: ${a.mime_type ?? 'text/plain'}`,
      '',
      String(a.content),
      `--${boundary}--`,
      '',
    ].join('\r\n')
    const r = await api({
      method: a.file_id ? 'PATCH' : 'POST',
      path: a.file_id ? `/upload/drive/v3/files/${enc(a.file_id)}` : '/upload/drive/v3/files',
      query: { uploadType: 'multipart', fields: 'id,name,mimeType' },
      body,
      contentType: `multipart/related; boundary=${boundary}`,
    })
    return { id: need(r.id, 'id'), name: r.name, mime_type: r.mimeType ?? null }
  },
  'google-drive:share_file': async (api, a) => {
    const r = await api({
      method: 'POST',
      path: `/drive/v3/files/${enc(a.file_id)}/permissions`,
      query: { sendNotificationEmail: true },
      json: { type: 'user', role: a.role, emailAddress: a.email },
    })
    return { permission_id: need(r.id, 'id'), role: r.role ?? a.role }
  },

  // Google Calendar API v3: https://developers.google.com/calendar/api/v3/reference
  'google-calendar:list_events': async (api, a) => {
    const r = await api({
      method: 'GET',
      path: `/calendar/v3/calendars/${enc(a.calendar_id ?? 'primary')}/events`,
      query: {
        timeMin: a.time_min,
        timeMax: a.time_max,
        singleEvents: true,
        orderBy: 'startTime',
        maxResults: 250,
      },
    })
    return {
      events: (need(r.items, 'items') as any[]).map((e) => ({
        id: e.id,
        summary: e.summary ?? null,
        start: e.start?.dateTime ?? e.start?.date ?? null,
        end: e.end?.dateTime ?? e.end?.date ?? null,
        html_link: e.htmlLink ?? null,
      })),
    }
  },
  'google-calendar:create_event': async (api, a) => {
    const r = await api({
      method: 'POST',
      path: `/calendar/v3/calendars/${enc(a.calendar_id ?? 'primary')}/events`,
      json: {
        summary: a.summary,
        start: { dateTime: a.start },
        end: { dateTime: a.end },
        ...(a.attendees && { attendees: (a.attendees as string[]).map((email) => ({ email })) }),
      },
    })
    return { id: need(r.id, 'id'), html_link: r.htmlLink ?? null, status: r.status ?? null }
  },
}
