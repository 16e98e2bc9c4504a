// biome-ignore-all lint/suspicious/noExplicitAny: provider JSON is read field by field, each checked where it matters
import { z } from 'zod'
import { need, ProviderAuthError, ProviderError } from './api.ts'
import { defineProvider, providerTool } from './provider.ts'

// Linear GraphQL API: https://developers.linear.app
export const linear = defineProvider({
  integration_id: '84c9cfb6-51e1-4f6e-8813-4c0ca00ce913',
  slug: 'linear',
  name: 'Linear',
  kind: 'issue tracker',
  category: 'productivity',
  connection_types: ['oauth', 'mcp'],
  capabilities: ['create issues', 'read projects'],
  oauth_scopes: ['read', 'write'],
  oauth: {
    authorizeUrl: 'https://linear.app/oauth/authorize',
    tokenUrl: 'https://api.linear.app/oauth/token',
    revocationUrl: 'https://api.linear.app/oauth/revoke',
    apiBaseUrl: 'https://api.linear.app',
    scopeSeparator: ',',
    pkce: true,
    tokenAuth: 'client_secret_post',
    account: {
      endpoint: {
        path: '/graphql',
        method: 'POST',
        body: '{"query":"{ organization { id name } }"}',
        id: 'data.organization.id',
        name: 'data.organization.name',
      },
    },
    clientIdEnv: 'OAUTH_LINEAR_CLIENT_ID',
    clientSecretEnv: 'OAUTH_LINEAR_CLIENT_SECRET',
  },
  api: {
    // GraphQL reports errors in an HTTP 200 answer; an error answer is read by its HTTP status.
    readError(parsed, httpOk) {
      if (!httpOk || parsed === null || typeof parsed !== 'object') return
      if (Array.isArray(parsed.errors) && parsed.errors.length > 0) {
        const first = parsed.errors[0] ?? {}
        const type = String(first.extensions?.type ?? first.extensions?.code ?? '').toLowerCase()
        if (type.includes('authentication')) throw new ProviderAuthError('linear refused the access token')
        throw new ProviderError(`linear answered: ${String(first.message ?? 'error').slice(0, 300)}`)
      }
    },
  },
  tools: [
    providerTool({
      name: 'create_issue',
      action: 'write',
      requiredScopes: ['write'],
      description: 'Create an issue in a team.',
      input: z.strictObject({
        team_id: z.string().describe('Team id'),
        title: z.string().describe('Issue title'),
        description: z.string().describe('Markdown description').optional(),
        priority: z.int().min(0).max(4).optional(),
      }),
      run: async (api, a) => {
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
    }),
    providerTool({
      name: 'list_projects',
      action: 'read',
      requiredScopes: ['read'],
      description: 'List projects, optionally of one team.',
      input: z.strictObject({
        team_id: z.string().describe('Team id').optional(),
        first: z.int().min(1).max(250).optional(),
      }),
      run: async (api, a) => {
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
    }),
  ],
})
