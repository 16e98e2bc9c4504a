// biome-ignore-all lint/suspicious/noExplicitAny: provider JSON is read field by field, each checked where it matters
import { z } from 'zod'
import { need, ProviderAuthError, ProviderError } from './api.ts'
import { defineProvider, providerTool } from './provider.ts'

/** Slack answers `ok: false` (on HTTP 200) with one of these when it refuses the token. */
const SLACK_AUTH_ERRORS = new Set([
  'invalid_auth',
  'not_authed',
  'token_expired',
  'token_revoked',
  'account_inactive',
])

// Slack Web API: https://api.slack.com/methods
export const slack = defineProvider({
  integration_id: '1a4e83d8-06e8-456a-a6fa-15ec90c9224f',
  slug: 'slack',
  name: 'Slack',
  kind: 'team chat',
  category: 'communication',
  connection_types: ['oauth'],
  capabilities: ['post messages', 'read channels', 'search'],
  oauth_scopes: ['chat:write', 'channels:read', 'search:read'],
  oauth: {
    authorizeUrl: 'https://slack.com/oauth/v2/authorize',
    tokenUrl: 'https://slack.com/api/oauth.v2.access',
    apiBaseUrl: 'https://slack.com/api',
    scopeSeparator: ',',
    pkce: false,
    tokenAuth: 'client_secret_post',
    account: { fromTokenResponse: { id: 'team.id', name: 'team.name' } },
    clientIdEnv: 'OAUTH_SLACK_CLIENT_ID',
    clientSecretEnv: 'OAUTH_SLACK_CLIENT_SECRET',
  },
  api: {
    readError(parsed) {
      if (parsed && parsed.ok === false) {
        const code = typeof parsed.error === 'string' ? parsed.error.slice(0, 100) : 'unknown_error'
        if (SLACK_AUTH_ERRORS.has(code))
          throw new ProviderAuthError(`slack refused the access token (${code})`)
        throw new ProviderError(`slack answered ${code}`)
      }
    },
  },
  tools: [
    providerTool({
      name: 'post_message',
      action: 'write',
      requiredScopes: ['chat:write'],
      description: 'Post a message to a Slack channel.',
      input: z.strictObject({
        channel: z.string().describe('Channel id, e.g. C0123456789'),
        text: z.string().max(40000).describe('Message text'),
        thread_ts: z.string().describe('Reply in this thread').optional(),
      }),
      run: async (api, a) => {
        const r = await api({
          method: 'POST',
          path: '/chat.postMessage',
          json: { channel: a.channel, text: a.text, ...(a.thread_ts && { thread_ts: a.thread_ts }) },
        })
        return { channel: need(r.channel, 'channel'), ts: need(r.ts, 'ts') }
      },
    }),
    providerTool({
      name: 'list_channels',
      action: 'read',
      requiredScopes: ['channels:read'],
      description: 'List the public channels of the workspace.',
      input: z.strictObject({
        limit: z.int().min(1).max(1000).optional(),
        cursor: z.string().describe('Pagination cursor').optional(),
      }),
      run: async (api, a) => {
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
    }),
    providerTool({
      name: 'search_messages',
      action: 'read',
      requiredScopes: ['search:read'],
      description: 'Search messages in the workspace.',
      input: z.strictObject({
        query: z.string().describe('Search query'),
        count: z.int().min(1).max(100).optional(),
      }),
      run: async (api, a) => {
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
    }),
  ],
})
