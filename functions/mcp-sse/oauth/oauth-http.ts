import { z } from '@hono/zod-openapi'
import type { AppEnv } from '@shared/infra/http/app-env.ts'
import { OAuthError } from '@shared/services/mcp-oauth/oauth-server.ts'
import type { Context } from 'hono'

/**
 * What the OAuth endpoints MCP clients call (RFC 6749/7591/7009 with PKCE and RFC 8707) share.
 * They answer with OAuth's error shape ({error, error_description}), which clients read, not
 * the platform's.
 */

const oauthErrorSchema = z
  .object({ error: z.string().openapi({ example: 'invalid_grant' }), error_description: z.string() })
  .openapi('OAuthError')

export const oauthError = (description: string) => ({
  description,
  content: { 'application/json': { schema: oauthErrorSchema } },
})

export const noStore = { 'cache-control': 'no-store', pragma: 'no-cache' }

export function answerOAuthError(c: Context<AppEnv>, err: unknown): Response {
  if (err instanceof OAuthError) return c.json(err.body(), err.status as 400, noStore)
  throw err
}

export const text = (max: number) => z.string().max(max)

const tokenParams = z.object({
  grant_type: text(100).optional(),
  code: text(200).optional(),
  redirect_uri: text(2000).optional(),
  client_id: text(2000).optional(),
  code_verifier: z.string().min(43).max(128).optional(),
  refresh_token: text(200).optional(),
  resource: text(2000).optional(),
  token: text(200).optional(),
  token_type_hint: text(50).optional(),
})

/** The token and revocation endpoints' parameters: a form (as OAuth sends them) or JSON. */
export async function formOrJson(c: Context<AppEnv>): Promise<z.infer<typeof tokenParams>> {
  const type = c.req.header('content-type') ?? ''
  const raw = /json/i.test(type)
    ? await c.req.json().catch(() => null)
    : Object.fromEntries(new URLSearchParams(await c.req.text()))
  const parsed = tokenParams.safeParse(raw ?? {})
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw new OAuthError('invalid_request', `${issue.path.join('.') || 'body'}: ${issue.message}`)
  }
  return parsed.data
}
