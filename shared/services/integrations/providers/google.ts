import { defineProvider, type OAuthProvider, type ProviderDefinition } from './provider.ts'

/** Google's OAuth 2.0 endpoints and API host: one authorization server for all its APIs. */
const googleEndpoints = {
  authorizeUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
  tokenUrl: 'https://oauth2.googleapis.com/token',
  revocationUrl: 'https://oauth2.googleapis.com/revoke',
  apiBaseUrl: 'https://www.googleapis.com',
  scopeSeparator: ' ',
} as const

export interface GoogleProvider
  extends Omit<ProviderDefinition, 'connection_types' | 'oauth_scopes' | 'oauth' | 'api'> {
  /** Each of the entry's scopes (the spec's names) and Google's name for it under googleapis.com/auth/. */
  scopes: Record<string, string>
  /** The API call that names the connected account. */
  account: NonNullable<OAuthProvider['account']['endpoint']>
}

/**
 * A Google integration (Gmail, Calendar, Drive): connected by OAuth only, with PKCE and the client
 * secret in the token request's body, and offline access with consent asked every time, since
 * Google returns a refresh token only when the user consents. Its client credentials are
 * OAUTH_<SLUG>_CLIENT_ID and _CLIENT_SECRET, as for every provider.
 */
export function defineGoogleProvider({
  scopes,
  account,
  tools,
  ...entry
}: GoogleProvider): ProviderDefinition {
  const env = `OAUTH_${entry.slug.toUpperCase().replace(/-/g, '_')}`
  return defineProvider({
    integration_id: entry.integration_id,
    slug: entry.slug,
    name: entry.name,
    kind: entry.kind,
    category: entry.category,
    connection_types: ['oauth'],
    capabilities: entry.capabilities,
    oauth_scopes: Object.keys(scopes),
    oauth: {
      ...googleEndpoints,
      scopeNames: Object.fromEntries(
        Object.entries(scopes).map(([ours, google]) => [ours, `https://www.googleapis.com/auth/${google}`]),
      ),
      pkce: true,
      tokenAuth: 'client_secret_post',
      extraAuthorizeParams: { access_type: 'offline', prompt: 'consent' },
      account: { endpoint: account },
      clientIdEnv: `${env}_CLIENT_ID`,
      clientSecretEnv: `${env}_CLIENT_SECRET`,
    },
    tools,
  })
}
