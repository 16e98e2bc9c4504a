// biome-ignore-all lint/suspicious/noExplicitAny: provider JSON is read field by field, each checked where it matters
import { z } from 'zod'
import { enc, need, ProviderError } from './api.ts'
import { defineProvider, providerTool } from './provider.ts'

const owner = z.string().describe('Repository owner')
const repo = z.string().describe('Repository name')

// GitHub REST API: https://docs.github.com/rest
export const github = defineProvider({
  integration_id: '7612d71f-e72d-44fa-b77c-d6618911695a',
  slug: 'github',
  name: 'GitHub',
  kind: 'code hosting',
  category: 'development',
  connection_types: ['oauth', 'mcp'],
  capabilities: ['create issues', 'create pull requests', 'read repos'],
  oauth_scopes: ['repo', 'read:org'],
  oauth: {
    authorizeUrl: 'https://github.com/login/oauth/authorize',
    tokenUrl: 'https://github.com/login/oauth/access_token',
    apiBaseUrl: 'https://api.github.com',
    scopeSeparator: ' ',
    pkce: true,
    tokenAuth: 'client_secret_post',
    account: { endpoint: { path: '/user', id: 'id', name: 'login' } },
    clientIdEnv: 'OAUTH_GITHUB_CLIENT_ID',
    clientSecretEnv: 'OAUTH_GITHUB_CLIENT_SECRET',
  },
  api: {
    headers: {
      accept: 'application/vnd.github+json',
      'x-github-api-version': '2022-11-28',
      'user-agent': 'tenant-platform-tool-server',
    },
  },
  tools: [
    providerTool({
      name: 'create_issue',
      action: 'write',
      requiredScopes: ['repo'],
      description: 'Open an issue in a repository.',
      input: z.strictObject({
        owner,
        repo,
        title: z.string().describe('Issue title'),
        body: z.string().describe('Issue body (Markdown)').optional(),
        labels: z.array(z.string()).describe('Labels').optional(),
      }),
      run: async (api, a) => {
        const r = await api({
          method: 'POST',
          path: `/repos/${enc(a.owner)}/${enc(a.repo)}/issues`,
          json: { title: a.title, ...(a.body && { body: a.body }), ...(a.labels && { labels: a.labels }) },
        })
        return { number: need(r.number, 'number'), html_url: r.html_url, state: r.state, title: r.title }
      },
    }),
    providerTool({
      name: 'create_pull_request',
      action: 'write',
      requiredScopes: ['repo'],
      description: 'Open a pull request.',
      input: z.strictObject({
        owner,
        repo,
        title: z.string().describe('Title'),
        head: z.string().describe('Branch with the changes'),
        base: z.string().describe('Branch to merge into'),
        body: z.string().describe('Description').optional(),
      }),
      run: async (api, a) => {
        const r = await api({
          method: 'POST',
          path: `/repos/${enc(a.owner)}/${enc(a.repo)}/pulls`,
          json: { title: a.title, head: a.head, base: a.base, ...(a.body && { body: a.body }) },
        })
        return { number: need(r.number, 'number'), html_url: r.html_url, state: r.state, title: r.title }
      },
    }),
    providerTool({
      name: 'list_repositories',
      action: 'read',
      requiredScopes: ['repo'],
      description: 'List repositories of the user or an organisation.',
      input: z.strictObject({
        org: z.string().describe('Organisation login; the user when absent').optional(),
      }),
      run: async (api, a) => {
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
    }),
    providerTool({
      name: 'get_repository',
      action: 'read',
      requiredScopes: ['repo'],
      description: 'Read a repository and its metadata.',
      input: z.strictObject({ owner, repo }),
      run: async (api, a) => {
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
    }),
  ],
})
