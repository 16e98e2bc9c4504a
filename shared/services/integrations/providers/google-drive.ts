import { z } from 'zod'
import { enc, need } from './api.ts'
import { defineGoogleProvider } from './google.ts'
import { formatted, providerTool } from './provider.ts'

const fileId = z.string().describe('Drive file id')

// Google Drive API v3: https://developers.google.com/drive/api/reference/rest/v3
export const googleDrive = defineGoogleProvider({
  integration_id: 'cf225993-dd39-454a-92f3-d3ff2b1a7097',
  slug: 'google-drive',
  name: 'Google Drive',
  kind: 'cloud drive',
  category: 'storage',
  capabilities: ['read files', 'write files', 'share files'],
  scopes: { 'drive.file': 'drive.file', 'drive.readonly': 'drive.readonly' },
  account: { path: '/drive/v3/about?fields=user', id: 'user.permissionId', name: 'user.emailAddress' },
  tools: [
    providerTool({
      name: 'read_file',
      action: 'read',
      requiredScopes: ['drive.readonly'],
      description: 'Read a file (metadata and text content).',
      input: z.strictObject({ file_id: fileId }),
      run: async (api, a) => {
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
    }),
    providerTool({
      name: 'write_file',
      action: 'write',
      requiredScopes: ['drive.file'],
      description: 'Create or overwrite a file.',
      input: z.strictObject({
        name: z.string().describe('File name'),
        content: z.string().describe('File content'),
        mime_type: z.string().describe('MIME type').optional(),
        folder_id: z.string().describe('Parent folder id').optional(),
        file_id: z.string().describe('Overwrite this file').optional(),
      }),
      run: async (api, a) => {
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
    }),
    providerTool({
      name: 'share_file',
      action: 'write',
      requiredScopes: ['drive.file'],
      description: 'Share a file with a person.',
      input: z.strictObject({
        file_id: fileId,
        email: formatted('email', 'Address to share with'),
        role: z.enum(['reader', 'commenter', 'writer']),
      }),
      run: async (api, a) => {
        const r = await api({
          method: 'POST',
          path: `/drive/v3/files/${enc(a.file_id)}/permissions`,
          query: { sendNotificationEmail: true },
          json: { type: 'user', role: a.role, emailAddress: a.email },
        })
        return { permission_id: need(r.id, 'id'), role: r.role ?? a.role }
      },
    }),
  ],
})
