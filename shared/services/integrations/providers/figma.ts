import { z } from 'zod'
import { enc, need, ProviderError } from './api.ts'
import { defineProvider, providerTool } from './provider.ts'

// Figma REST API: https://www.figma.com/developers/api
export const figma = defineProvider({
  integration_id: 'c374bf17-53de-40b5-981c-96403f7d989f',
  slug: 'figma',
  name: 'Figma',
  kind: 'design tool',
  category: 'design',
  connection_types: ['oauth'],
  capabilities: ['read designs', 'export assets'],
  oauth_scopes: ['file_read'],
  oauth: {
    authorizeUrl: 'https://www.figma.com/oauth',
    tokenUrl: 'https://api.figma.com/v1/oauth/token',
    apiBaseUrl: 'https://api.figma.com',
    scopeSeparator: ',',
    scopeNames: { file_read: 'file_content:read' },
    pkce: true,
    tokenAuth: 'client_secret_basic',
    account: { endpoint: { path: '/v1/me', id: 'id', name: 'handle' } },
    clientIdEnv: 'OAUTH_FIGMA_CLIENT_ID',
    clientSecretEnv: 'OAUTH_FIGMA_CLIENT_SECRET',
  },
  tools: [
    providerTool({
      name: 'get_file',
      action: 'read',
      requiredScopes: ['file_read'],
      description: 'Read a design file (document tree).',
      input: z.strictObject({
        file_key: z.string().describe('File key from the file URL'),
        depth: z.int().min(1).max(10).optional(),
      }),
      run: async (api, a) => {
        const r = await api({
          method: 'GET',
          path: `/v1/files/${enc(a.file_key)}`,
          query: { depth: a.depth },
        })
        return {
          name: need(r.name, 'name'),
          last_modified: r.lastModified,
          version: r.version,
          document: r.document,
        }
      },
    }),
    providerTool({
      name: 'export_assets',
      action: 'read',
      requiredScopes: ['file_read'],
      description: 'Export nodes of a file as images.',
      input: z.strictObject({
        file_key: z.string().describe('File key'),
        node_ids: z.array(z.string()).describe('Node ids to export'),
        format: z.enum(['png', 'jpg', 'svg', 'pdf']).optional(),
        scale: z.number().min(0.01).max(4).optional(),
      }),
      run: async (api, a) => {
        const r = await api({
          method: 'GET',
          path: `/v1/images/${enc(a.file_key)}`,
          query: { ids: (a.node_ids as string[]).join(','), format: a.format ?? 'png', scale: a.scale },
        })
        if (r.err) throw new ProviderError(`figma answered: ${String(r.err).slice(0, 300)}`)
        return { images: need(r.images, 'images') }
      },
    }),
  ],
})
