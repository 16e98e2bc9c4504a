import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import Provider from 'oidc-provider'

/**
 * A real OAuth 2.0 authorization server on loopback (`oidc-provider`): authorization code with
 * PKCE, refresh tokens with rotation (a rotated token presented again is refused and revokes the
 * grant), RFC 7009 revocation. Its consent "screen" is a small JSON interaction that a test drives
 * over HTTP: approve as an account, or deny. It also counts every refresh token presented, so a
 * test can prove none was used twice.
 */

export interface OAuthServer {
  issuer: string
  clientId: string
  clientSecret: string
  /** Refresh-token uses by token value (each must stay at 1). */
  refreshUses: Map<string, number>
  /** Grants revoked: by the revocation endpoint, or because a rotated refresh token was replayed. */
  grantsRevoked: number
  provider: InstanceType<typeof Provider>
  /** Makes the token endpoint answer 503 for the next n requests. */
  failNextTokenRequests(n: number): void
  /** The account name the token response reports (Notion-style workspace_name). */
  accountNames: Map<string, string>
  /**
   * Follows an authorization URL through the provider like a browser: the login/consent
   * interaction is approved as `accountId` (or denied). Returns the final redirect to our callback.
   */
  authorize(authorizationUrl: string, decision: { approve: string } | { deny: true }): Promise<URL>
  close(): Promise<void>
}

export async function startOAuthServer(opts: {
  redirectUri: string
  scopes: string[]
  clientId?: string
  clientSecret?: string
  accessTokenTtlSeconds?: number
}): Promise<OAuthServer> {
  const server: Server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const clientId = opts.clientId ?? 'platform-client'
  const clientSecret = opts.clientSecret ?? 'platform-client-secret-0123456789abcdef'
  const refreshUses = new Map<string, number>()
  const accountNames = new Map<string, string>()
  let failTokens = 0
  let grantsRevoked = 0

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [opts.redirectUri],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    scopes: ['openid', 'offline_access', ...opts.scopes],
    pkce: { required: () => false },
    features: { devInteractions: { enabled: false }, revocation: { enabled: true } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(t: string): boolean }) =>
      client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    findAccount: async (_ctx: unknown, sub: string) => ({ accountId: sub, claims: async () => ({ sub }) }),
    cookies: { keys: ['test-cookie-key-0123456789'] },
    ttl: {
      AccessToken: opts.accessTokenTtlSeconds ?? 3600,
      AuthorizationCode: 60,
      Grant: 14 * 24 * 3600,
      Interaction: 600,
      Session: 3600,
      IdToken: 3600,
      RefreshToken: 14 * 24 * 3600,
    },
    renderError: async (ctx: { type: string; body: unknown }, out: unknown) => {
      ctx.type = 'json'
      ctx.body = out
    },
  })
  provider.proxy = false

  // Post-middleware: add the account's workspace name to token responses, as Notion does.
  provider.use(async (ctx: { path: string; status: number; body: unknown }, next: () => Promise<void>) => {
    await next()
    const body = ctx.body as Record<string, unknown> | undefined
    if (ctx.path === '/token' && ctx.status === 200 && body && typeof body.access_token === 'string') {
      const token = await provider.AccessToken.find(body.access_token)
      if (token) {
        body.workspace_id = token.accountId
        body.workspace_name = accountNames.get(token.accountId) ?? `Workspace of ${token.accountId}`
      }
    }
  })

  // Every refresh-token grant ends in grant.success or grant.error: count the token presented.
  const countRefresh = (ctx: { oidc?: { params?: Record<string, unknown> } }) => {
    const params = ctx.oidc?.params
    if (params?.grant_type !== 'refresh_token') return
    const rt = String(params.refresh_token ?? '')
    refreshUses.set(rt, (refreshUses.get(rt) ?? 0) + 1)
  }
  provider.on('grant.success', countRefresh)
  provider.on('grant.error', (ctx: { oidc?: { params?: Record<string, unknown> } }) => countRefresh(ctx))
  // oidc-provider revokes the whole grant when a rotated refresh token comes back.
  provider.on('grant.revoked', () => {
    grantsRevoked++
  })

  const handler = provider.callback()

  const readForm = (req: IncomingMessage) =>
    new Promise<URLSearchParams>((resolve, reject) => {
      let text = ''
      req.on('data', (c) => {
        text += c
      })
      req.on('end', () => resolve(new URLSearchParams(text)))
      req.on('error', reject)
    })

  async function interaction(
    req: IncomingMessage,
    res: ServerResponse,
    uid: string,
    action: string | undefined,
  ) {
    const details = await provider.interactionDetails(req, res)
    if (details.uid !== uid) throw new Error('interaction mismatch')
    if (req.method === 'GET' && !action) {
      res.setHeader('content-type', 'application/json')
      res.end(
        JSON.stringify({
          uid,
          prompt: details.prompt.name,
          scope: details.params.scope,
          client_id: details.params.client_id,
        }),
      )
      return
    }
    if (action === 'deny') {
      await provider.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'End-User denied consent' },
        { mergeWithLastSubmission: false },
      )
      return
    }
    const form = await readForm(req)
    const accountId = form.get('account') ?? 'user-1'
    const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) })
    grant.addOIDCScope(String(details.params.scope ?? ''))
    const grantId = await grant.save()
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    )
  }

  server.on('request', (req, res) => {
    const url = new URL(req.url ?? '/', issuer)
    const match = url.pathname.match(/^\/interaction\/([\w-]+)(?:\/(approve|deny))?$/)
    if (match) {
      interaction(req, res, match[1]!, match[2]).catch((err) => {
        res.statusCode = 400
        res.end(JSON.stringify({ error: String(err) }))
      })
      return
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      if (failTokens > 0) {
        failTokens--
        res.statusCode = 503
        res.setHeader('content-type', 'application/json')
        res.end(JSON.stringify({ error: 'temporarily_unavailable' }))
        return
      }
    }
    handler(req, res)
  })

  const cookieJar = new Map<string, string>()
  const remember = (res: Response) => {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';')
      const eq = pair!.indexOf('=')
      cookieJar.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1))
    }
  }
  const cookieHeader = () => [...cookieJar].map(([k, v]) => `${k}=${v}`).join('; ')

  return {
    issuer,
    clientId,
    clientSecret,
    refreshUses,
    accountNames,
    get grantsRevoked() {
      return grantsRevoked
    },
    provider,
    failNextTokenRequests(n) {
      failTokens = n
    },
    async authorize(authorizationUrl, decision) {
      cookieJar.clear()
      let url = new URL(authorizationUrl)
      for (let hop = 0; hop < 10; hop++) {
        if (url.origin !== issuer) return url // reached the client's redirect_uri
        const interactionMatch = url.pathname.match(/^\/interaction\/([\w-]+)$/)
        let res: Response
        if (interactionMatch) {
          // The consent screen: answer it the way the user's click would.
          const action = 'approve' in decision ? 'approve' : 'deny'
          res = await fetch(`${issuer}/interaction/${interactionMatch[1]}/${action}`, {
            method: 'POST',
            redirect: 'manual',
            headers: { cookie: cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
            body: 'approve' in decision ? new URLSearchParams({ account: decision.approve }).toString() : '',
          })
        } else {
          res = await fetch(url, { redirect: 'manual', headers: { cookie: cookieHeader() } })
        }
        remember(res)
        const location = res.headers.get('location')
        if (!location)
          throw new Error(`authorization stopped at ${url.pathname} with ${res.status}: ${await res.text()}`)
        await res.body?.cancel()
        url = new URL(location, url)
      }
      throw new Error('too many redirects')
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
