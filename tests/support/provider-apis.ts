import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * Loopback servers that answer as Slack's Web API and GitHub's REST API document: Slack's
 * `{ok, ...}` bodies (HTTP 200 with ok:false and an error code, including token_expired) and its
 * token rotation at oauth.v2.access; GitHub's 201 issue and pull-request objects, 401 with
 * "Bad credentials". Each records the requests it received and knows which access tokens are
 * valid, so a test can expire one.
 */

interface Received {
  method: string
  path: string
  headers: Record<string, string | string[] | undefined>
  body: string
}

export interface ProviderServer {
  url: string
  received: Received[]
  validTokens: Set<string>
  /** Refresh tokens presented at the token endpoint. */
  refreshes: string[]
  close(): Promise<void>
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const c of req) chunks.push(c as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

async function listen(
  handler: (
    req: IncomingMessage,
    body: string,
  ) => { status: number; body: unknown; raw?: string; hang?: boolean },
) {
  const received: Received[] = []
  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req)
    const url = new URL(req.url ?? '/', 'http://x')
    received.push({
      method: req.method ?? 'GET',
      path: url.pathname + url.search,
      headers: req.headers,
      body,
    })
    const out = handler(req, body)
    if (out.hang) return // never answers
    res.writeHead(out.status, { 'content-type': out.raw !== undefined ? 'text/html' : 'application/json' })
    res.end(out.raw ?? JSON.stringify(out.body))
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((r) => server.close(() => r()))
    },
  }
}

const bearer = (req: IncomingMessage) => (req.headers.authorization ?? '').replace(/^Bearer\s+/i, '')

export async function startSlack(opts: { clientId: string; clientSecret: string }): Promise<ProviderServer> {
  const validTokens = new Set<string>()
  const refreshes: string[] = []
  let n = 0
  const s = await listen((req, body) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    if (path === '/api/oauth.v2.access') {
      const form = new URLSearchParams(body)
      if (form.get('client_id') !== opts.clientId || form.get('client_secret') !== opts.clientSecret)
        return { status: 200, body: { ok: false, error: 'invalid_client_id' } }
      refreshes.push(form.get('refresh_token') ?? '')
      const access = `xoxe.xoxb-refreshed-${++n}`
      validTokens.add(access)
      return {
        status: 200,
        body: {
          ok: true,
          access_token: access,
          token_type: 'bot',
          expires_in: 43200,
          refresh_token: `xoxe-1-refresh-${n}`,
          scope: 'chat:write,channels:read,search:read',
        },
      }
    }
    const token = bearer(req)
    if (!token) return { status: 200, body: { ok: false, error: 'not_authed' } }
    if (!validTokens.has(token)) return { status: 200, body: { ok: false, error: 'token_expired' } }
    if (path === '/api/chat.postMessage') {
      const msg = JSON.parse(body) as { channel: string; text: string }
      if (msg.channel === 'C_GARBAGE') return { status: 200, body: null, raw: '<html>bad gateway</html>' }
      if (msg.channel === 'C_MISSING') return { status: 200, body: { ok: false, error: 'channel_not_found' } }
      return {
        status: 200,
        body: {
          ok: true,
          channel: msg.channel,
          ts: '1503435956.000247',
          message: { type: 'message', text: msg.text, user: 'U012AB3CD', ts: '1503435956.000247' },
        },
      }
    }
    if (path === '/api/conversations.list') {
      return {
        status: 200,
        body: {
          ok: true,
          channels: [
            { id: 'C012AB3CD', name: 'general', is_channel: true, is_member: true, num_members: 4 },
            { id: 'C061EG9T2', name: 'random', is_channel: true, is_member: false, num_members: 4 },
          ],
          response_metadata: { next_cursor: '' },
        },
      }
    }
    if (path === '/api/search.messages') {
      const query = new URL(req.url ?? '/', 'http://x').searchParams.get('query') ?? ''
      return {
        status: 200,
        body: {
          ok: true,
          query,
          messages: {
            total: 1,
            matches: [
              {
                channel: { id: 'C012AB3CD', name: 'general' },
                ts: '1503435956.000247',
                text: `found: ${query}`,
                user: 'U012AB3CD',
                username: 'ann',
                permalink: 'https://example.slack.com/archives/C012AB3CD/p1503435956000247',
              },
            ],
            pagination: { total_count: 1, page: 1, per_page: 20, page_count: 1, first: 1, last: 1 },
          },
        },
      }
    }
    return { status: 200, body: { ok: false, error: 'unknown_method' } }
  })
  return { ...s, validTokens, refreshes }
}

export async function startGitHub(): Promise<ProviderServer> {
  const validTokens = new Set<string>()
  let number = 1346
  const s = await listen((req, body) => {
    if (!validTokens.has(bearer(req)))
      return {
        status: 401,
        body: { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' },
      }
    const path = new URL(req.url ?? '/', 'http://x').pathname
    const issue = path.match(/^\/repos\/([^/]+)\/([^/]+)\/(issues|pulls)$/)
    if (issue && req.method === 'POST') {
      const [, owner, repo, kind] = issue
      if (repo === 'slow') return { status: 200, body: null, hang: true }
      const input = JSON.parse(body) as { title: string }
      number++
      return {
        status: 201,
        body: {
          id: 1296269,
          number,
          title: input.title,
          state: 'open',
          html_url: `https://github.com/${owner}/${repo}/${kind === 'issues' ? 'issues' : 'pull'}/${number}`,
        },
      }
    }
    // The account lookup after consent (GET /user).
    if (path === '/user' && req.method === 'GET')
      return { status: 200, body: { id: 583231, login: 'octocat', type: 'User' } }
    const repo = path.match(/^\/repos\/([^/]+)\/([^/]+)$/)
    if (repo && req.method === 'GET')
      return {
        status: 200,
        body: {
          id: 1296269,
          full_name: `${repo[1]}/${repo[2]}`,
          description: 'This your first repo!',
          private: false,
          html_url: `https://github.com/${repo[1]}/${repo[2]}`,
          default_branch: 'main',
          open_issues_count: 3,
          stargazers_count: 80,
        },
      }
    if (path === '/user/repos' || /^\/orgs\/[^/]+\/repos$/.test(path))
      return {
        status: 200,
        body: [
          {
            full_name: path === '/user/repos' ? 'octocat/Hello-World' : `${path.split('/')[2]}/Spoon-Knife`,
            private: false,
            html_url: 'https://github.com/octocat/Hello-World',
            default_branch: 'main',
          },
        ],
      }
    return { status: 404, body: { message: 'Not Found' } }
  })
  return { ...s, validTokens, refreshes: [] }
}

/**
 * One loopback server answering, by path, as Notion, Linear (GraphQL), Gmail, Google Drive,
 * Google Calendar and Figma document their answers (trimmed to the fields the tools read).
 * Every bearer token is accepted; requests are recorded.
 */
export async function startOtherProviders(): Promise<ProviderServer> {
  const s = await listen((req, body) => {
    const url = new URL(req.url ?? '/', 'http://x')
    const p = url.pathname
    if (p === '/v1/pages' && req.method === 'POST')
      return {
        status: 200,
        body: { object: 'page', id: '59833787-2cf9-4fdf-8782-e53db20768a5', url: 'https://www.notion.so/p' },
      }
    if (p === '/v1/search' && req.method === 'POST') {
      const q = JSON.parse(body) as { query: string }
      return {
        status: 200,
        body: {
          object: 'list',
          results: [
            {
              object: 'page',
              id: 'b55c9c91-384d-452b-81db-d1ef79372b75',
              url: `https://www.notion.so/${q.query}`,
            },
          ],
          next_cursor: null,
          has_more: false,
        },
      }
    }
    const notionQuery = p.match(/^\/v1\/databases\/([^/]+)\/query$/)
    if (notionQuery && req.method === 'POST')
      return {
        status: 200,
        body: {
          object: 'list',
          results: [
            {
              object: 'page',
              id: '2e01e904-febd-43a0-ad02-8eedb903a82c',
              url: 'https://www.notion.so/row',
              properties: { Name: { id: 'title', type: 'title', title: [{ plain_text: 'Row one' }] } },
            },
          ],
          next_cursor: 'cursor-2',
          has_more: true,
        },
      }
    // The account lookups after consent, one per provider, as each documents its "who am I".
    if (p === '/drive/v3/about' && url.searchParams.get('fields') === 'user')
      return {
        status: 200,
        body: { user: { kind: 'drive#user', permissionId: '0123456789', emailAddress: 'ann@example.com' } },
      }
    if (p === '/v1/me')
      return { status: 200, body: { id: '99887766', handle: 'ann', email: 'ann@example.com' } }
    if (p === '/gmail/v1/users/me/profile')
      return {
        status: 200,
        body: { emailAddress: 'ann@example.com', messagesTotal: 10, threadsTotal: 8, historyId: '1' },
      }
    if (p === '/calendar/v3/calendars/primary' && req.method === 'GET')
      return {
        status: 200,
        body: { kind: 'calendar#calendar', id: 'ann@example.com', summary: 'Ann Example', timeZone: 'UTC' },
      }
    if (p === '/graphql' && body.includes('organization'))
      return { status: 200, body: { data: { organization: { id: 'org-1', name: 'Acme' } } } }
    if (p === '/graphql') {
      const q = JSON.parse(body) as {
        query: string
        variables: { input?: { title: string }; id?: string; first?: number }
      }
      const project = { id: 'p1', name: 'Launch', state: 'started', url: 'https://linear.app/p/launch' }
      if (q.query.includes('team(id:'))
        return {
          status: 200,
          body: { data: { team: { projects: { nodes: [{ ...project, name: `Team ${q.variables.id}` }] } } } },
        }
      if (q.query.includes('projects('))
        return { status: 200, body: { data: { projects: { nodes: [project] } } } }
      if (q.query.includes('issueCreate'))
        return {
          status: 200,
          body: {
            data: {
              issueCreate: {
                success: true,
                issue: {
                  id: 'a1b2',
                  identifier: 'ENG-42',
                  title: q.variables.input!.title,
                  url: 'https://linear.app/i/ENG-42',
                },
              },
            },
          },
        }
    }
    if (p === '/gmail/v1/users/me/messages' && req.method === 'GET')
      return {
        status: 200,
        body: { messages: [{ id: '18c1f', threadId: '18c1f' }], resultSizeEstimate: 1 },
      }
    if (p === '/gmail/v1/users/me/messages/18c1f' && url.searchParams.get('format') === 'full')
      return {
        status: 200,
        body: {
          id: '18c1f',
          threadId: '18c1f',
          snippet: 'Hello there',
          payload: {
            mimeType: 'multipart/alternative',
            headers: [
              { name: 'From', value: 'Ann <ann@example.com>' },
              { name: 'To', value: 'bob@example.com' },
              { name: 'Subject', value: 'Hello' },
              { name: 'Date', value: 'Tue, 24 Nov 2026 10:00:00 +0000' },
            ],
            parts: [
              { mimeType: 'text/html', body: { data: Buffer.from('<p>Hello</p>').toString('base64url') } },
              {
                mimeType: 'text/plain',
                body: { data: Buffer.from('Hello there, Grüße').toString('base64url') },
              },
            ],
          },
        },
      }
    if (p === '/gmail/v1/users/me/messages/send')
      return { status: 200, body: { id: '18c1f', threadId: '18c1f', labelIds: ['SENT'] } }
    if (p === '/calendar/v3/calendars/primary/events' && req.method === 'GET')
      return {
        status: 200,
        body: {
          kind: 'calendar#events',
          items: [
            {
              id: 'evt1',
              summary: 'Review',
              start: { dateTime: '2026-11-24T10:00:00Z' },
              end: { dateTime: '2026-11-24T11:00:00Z' },
              htmlLink: 'https://calendar.google.com/e',
            },
            { id: 'evt2', start: { date: '2026-11-25' }, end: { date: '2026-11-26' } },
          ],
        },
      }
    if (p === '/calendar/v3/calendars/primary/events' && req.method === 'POST')
      return {
        status: 200,
        body: {
          kind: 'calendar#event',
          id: 'evt1',
          status: 'confirmed',
          htmlLink: 'https://calendar.google.com/e',
        },
      }
    if (p === '/drive/v3/files/doc1' && url.searchParams.get('fields'))
      return {
        status: 200,
        body: { id: 'doc1', name: 'Notes', mimeType: 'application/vnd.google-apps.document' },
      }
    if (p === '/drive/v3/files/doc1/export') return { status: 200, body: null, raw: 'Hello from Drive' }
    if (p === '/upload/drive/v3/files' || p === '/upload/drive/v3/files/doc1') {
      const name = body.match(/"name":"([^"]*)"/)?.[1] ?? ''
      return {
        status: 200,
        body: { kind: 'drive#file', id: p.endsWith('doc1') ? 'doc1' : 'new1', name, mimeType: 'text/plain' },
      }
    }
    if (p === '/drive/v3/files/doc1/permissions' && req.method === 'POST') {
      const perm = JSON.parse(body) as { role: string }
      return { status: 200, body: { kind: 'drive#permission', id: 'perm1', type: 'user', role: perm.role } }
    }
    if (p === '/v1/files/FILEKEY')
      return {
        status: 200,
        body: {
          name: 'Design',
          lastModified: '2026-11-20T09:00:00Z',
          version: '123',
          document: { id: '0:0', name: 'Document', type: 'DOCUMENT', children: [] },
        },
      }
    if (p === '/v1/images/FILEKEY')
      return { status: 200, body: { err: null, images: { '1:2': 'https://figma-alpha-api.s3/1-2.png' } } }
    return { status: 404, body: { error: { code: 404, message: 'Not Found' } } }
  })
  return { ...s, validTokens: new Set(), refreshes: [] }
}
