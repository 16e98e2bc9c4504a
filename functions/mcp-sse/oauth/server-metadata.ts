import { toolScopes } from '@functions/mcp-sse/oauth/scopes.ts'
import { mcpUrl } from '@functions/mcp-sse/public-url.ts'
import { z } from '@hono/zod-openapi'
import type { AppEnv } from '@shared/infra/http/app-env.ts'
import { errorResponses, jsonContent } from '@shared/infra/http/openapi.ts'
import type { Context } from 'hono'

/**
 * The authorization server metadata (RFC 8414), served at two addresses (routes/oauth/metadata.ts
 * and routes/oauth/openid-configuration.ts) because clients look for it at either.
 */

const metadataSchema = z
  .object({
    issuer: z.string().url().openapi({ example: 'http://127.0.0.1:54321/mcp' }),
    authorization_endpoint: z.string().url(),
    token_endpoint: z.string().url(),
    registration_endpoint: z.string().url(),
    revocation_endpoint: z.string().url(),
    response_types_supported: z.array(z.string()),
    grant_types_supported: z.array(z.string()),
    code_challenge_methods_supported: z.array(z.string()),
    token_endpoint_auth_methods_supported: z.array(z.string()),
    revocation_endpoint_auth_methods_supported: z.array(z.string()),
    scopes_supported: z.array(z.string()),
    client_id_metadata_document_supported: z.boolean().openapi({
      description: 'A client_id may be the https URL of the client’s metadata document',
    }),
  })
  .openapi('AuthorizationServerMetadata')

export type AuthorizationServerMetadata = z.infer<typeof metadataSchema>

export function serverMetadata(c: Context<AppEnv>): AuthorizationServerMetadata {
  const issuer = mcpUrl(c)
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    registration_endpoint: `${issuer}/oauth/register`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    scopes_supported: [...toolScopes],
    client_id_metadata_document_supported: true,
  }
}

export const METADATA_DESCRIPTION =
  'The tool server is its own OAuth 2.1 authorization server for MCP clients (issuer {mcp_url}): dynamic client registration or client ID metadata documents, PKCE S256, resource indicators, refresh and revocation.'

export const metadataResponses = { 200: jsonContent(metadataSchema, 'The metadata'), ...errorResponses(429) }

export const metadataCache = { 'cache-control': 'public, max-age=300' }
