// biome-ignore-all lint/suspicious/noExplicitAny: provider JSON is read field by field, each checked where it matters
import { z } from 'zod'
import { enc, need } from './api.ts'
import { defineProvider, providerTool } from './provider.ts'

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

const pageSize = z.int().min(1).max(100)

// Notion API (version 2022-06-28): https://developers.notion.com/reference
export const notion = defineProvider({
  integration_id: '569b3123-1cc9-4d9c-95a1-6b23cc135515',
  slug: 'notion',
  name: 'Notion',
  kind: 'notes workspace',
  category: 'productivity',
  connection_types: ['oauth', 'mcp'],
  capabilities: ['create pages', 'search', 'read databases'],
  oauth_scopes: ['read_content', 'update_content', 'insert_content'],
  oauth: {
    authorizeUrl: 'https://api.notion.com/v1/oauth/authorize',
    tokenUrl: 'https://api.notion.com/v1/oauth/token',
    apiBaseUrl: 'https://api.notion.com',
    scopeSeparator: ' ',
    pkce: false,
    tokenAuth: 'client_secret_basic',
    extraAuthorizeParams: { owner: 'user' },
    account: { fromTokenResponse: { id: 'workspace_id', name: 'workspace_name' } },
    clientIdEnv: 'OAUTH_NOTION_CLIENT_ID',
    clientSecretEnv: 'OAUTH_NOTION_CLIENT_SECRET',
  },
  api: { headers: { 'notion-version': '2022-06-28' } },
  tools: [
    providerTool({
      name: 'create_page',
      action: 'write',
      requiredScopes: ['insert_content'],
      description: 'Create a page in a Notion database.',
      input: z.strictObject({
        database_id: z.string().describe('Id of the database the page is created in'),
        title: z.string().max(2000).describe('Page title'),
        content: z.string().describe('Page body (Markdown)').optional(),
        properties: z.looseObject({}).describe('Database property values').optional(),
      }),
      run: async (api, a) => {
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
    }),
    providerTool({
      name: 'search',
      action: 'read',
      requiredScopes: ['read_content'],
      description: 'Search pages and databases shared with the integration.',
      input: z.strictObject({
        query: z.string().describe('Text to search for'),
        page_size: pageSize.optional(),
      }),
      run: async (api, a) => {
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
    }),
    providerTool({
      name: 'query_database',
      action: 'read',
      requiredScopes: ['read_content'],
      description: 'Read the rows of a Notion database.',
      input: z.strictObject({
        database_id: z.string().describe('Database id'),
        filter: z.looseObject({}).optional(),
        page_size: pageSize.optional(),
      }),
      run: async (api, a) => {
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
    }),
  ],
})
