// biome-ignore-all lint/suspicious/noExplicitAny: provider JSON is read field by field, each checked where it matters
import { z } from 'zod'
import { enc, MAX_TEXT, need } from './api.ts'
import { defineGoogleProvider } from './google.ts'
import { providerTool } from './provider.ts'

const sendInput = z.strictObject({
  to: z.array(z.string()).min(1).describe('Recipients'),
  cc: z.array(z.string()).describe('Copy recipients').optional(),
  bcc: z.array(z.string()).describe('Blind copy recipients').optional(),
  subject: z.string().describe('Subject'),
  body: z.string().describe('Plain-text body'),
})

/** RFC 2822 message, base64url-encoded as Gmail's users.messages.send takes it in `raw`. */
function gmailRaw(args: z.infer<typeof sendInput>): string {
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

// Gmail API: https://developers.google.com/gmail/api/reference/rest
export const gmail = defineGoogleProvider({
  integration_id: '55c3247b-943a-4c8c-86ea-345014cb3ef2',
  slug: 'gmail',
  name: 'Gmail',
  kind: 'e-mail',
  category: 'office-suite',
  capabilities: ['send', 'read', 'search'],
  scopes: { 'mail.send': 'gmail.send', 'mail.readonly': 'gmail.readonly' },
  account: { path: '/gmail/v1/users/me/profile', id: 'emailAddress', name: 'emailAddress' },
  tools: [
    providerTool({
      name: 'send_email',
      action: 'write',
      requiredScopes: ['mail.send'],
      description: 'Send an e-mail.',
      input: sendInput,
      run: async (api, a) => {
        const r = await api({
          method: 'POST',
          path: '/gmail/v1/users/me/messages/send',
          json: { raw: gmailRaw(a) },
        })
        return { id: need(r.id, 'id'), thread_id: r.threadId ?? null }
      },
    }),
    providerTool({
      name: 'read_email',
      action: 'read',
      requiredScopes: ['mail.readonly'],
      description: 'Read one message.',
      input: z.strictObject({ message_id: z.string().describe('Message id') }),
      run: async (api, a) => {
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
    }),
    providerTool({
      name: 'search_email',
      action: 'read',
      requiredScopes: ['mail.readonly'],
      description: 'Search messages (Gmail query syntax).',
      input: z.strictObject({
        query: z.string().describe('Search query'),
        max_results: z.int().min(1).max(100).optional(),
      }),
      run: async (api, a) => {
        const r = await api({
          method: 'GET',
          path: '/gmail/v1/users/me/messages',
          query: { q: a.query, maxResults: a.max_results ?? 20 },
        })
        return { messages: r.messages ?? [], result_size_estimate: r.resultSizeEstimate ?? 0 }
      },
    }),
  ],
})
