import {
  createLocalJWKSet,
  createRemoteJWKSet,
  decodeProtectedHeader,
  type JWTPayload,
  jwtVerify,
} from 'jose'
import { z } from 'zod'
import type { Config } from './config.ts'

/** The spec's user JWT claims. tenant_id may be absent for a user who has not joined a tenant yet. */
const userClaimsSchema = z.object({
  sub: z.uuid(),
  email: z.string().optional(),
  role: z.literal('authenticated'),
  exp: z.number().int(),
  app_metadata: z.object({ tenant_id: z.uuid().optional() }).loose().default({}),
})

type UserClaims = z.infer<typeof userClaimsSchema>

export interface JwtVerifier {
  /** Resolves to the claims, or null for any invalid, expired or foreign token. */
  verify(token: string): Promise<UserClaims | null>
}

const ASYMMETRIC = ['ES256', 'RS256', 'EdDSA']

/**
 * Supabase signs access tokens with asymmetric keys published as a JWKS (newer projects) or
 * with the legacy HS256 secret. Both are accepted; the header's alg picks the key, and only
 * the algorithms listed are ever honoured (no "none", no alg confusion).
 */
export function createJwtVerifier(
  config: Pick<Config, 'SUPABASE_JWKS' | 'SUPABASE_URL' | 'SUPABASE_JWT_SECRET'>,
): JwtVerifier {
  const jwks = config.SUPABASE_JWKS
    ? createLocalJWKSet(JSON.parse(config.SUPABASE_JWKS))
    : config.SUPABASE_URL
      ? createRemoteJWKSet(new URL('/auth/v1/.well-known/jwks.json', config.SUPABASE_URL))
      : null
  const secret = config.SUPABASE_JWT_SECRET ? new TextEncoder().encode(config.SUPABASE_JWT_SECRET) : null

  return {
    async verify(token) {
      try {
        const { alg } = decodeProtectedHeader(token)
        let payload: JWTPayload
        if (alg === 'HS256' && secret) {
          payload = (await jwtVerify(token, secret, { algorithms: ['HS256'], audience: 'authenticated' }))
            .payload
        } else if (alg && ASYMMETRIC.includes(alg) && jwks) {
          payload = (await jwtVerify(token, jwks, { algorithms: ASYMMETRIC, audience: 'authenticated' }))
            .payload
        } else {
          return null
        }
        const parsed = userClaimsSchema.safeParse(payload)
        return parsed.success ? parsed.data : null
      } catch {
        return null
      }
    },
  }
}
