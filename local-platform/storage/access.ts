import type { RequestClaims } from '@shared/infra/db.ts'
import type { FunctionDeps } from '@shared/infra/deps.ts'
import { matchesPublishableKey, matchesServiceKey } from '@shared/infra/supabase-key-match.ts'
import { importJWK, jwtVerify, SignJWT } from 'jose'
import type { LocalEnv } from '../local-env.ts'

/**
 * Who calls the local Storage, read as Supabase Storage reads it: the service role (a secret key:
 * row-level security does not apply), a signed-in user (an access token: every statement on
 * storage.objects runs as role authenticated with the token's claims, so the policies decide),
 * or anon (the publishable key alone: public buckets only).
 */
export type StorageCaller = { kind: 'service' } | { kind: 'user'; claims: RequestClaims } | { kind: 'anon' }

export class StorageError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 415,
    readonly error: string,
    message: string,
  ) {
    super(message)
  }
  /** Supabase Storage's body ({statusCode, error, message}) plus the platform's `code`. */
  body() {
    return { statusCode: String(this.status), error: this.error, code: this.error, message: this.message }
  }
}

export async function storageCaller(deps: FunctionDeps, headers: Headers): Promise<StorageCaller> {
  const bearer = /^Bearer\s+(.+)$/i.exec(headers.get('authorization') ?? '')?.[1]?.trim()
  const apikey = headers.get('apikey')?.trim()
  const token = bearer ?? apikey
  if (!token) throw new StorageError(401, 'Unauthorized', 'headers must have required property authorization')
  if (matchesServiceKey(deps.config, token)) return { kind: 'service' }
  if (matchesPublishableKey(deps.config, token)) return { kind: 'anon' }
  const claims = await deps.jwt.verify(token)
  if (!claims) throw new StorageError(403, 'Unauthorized', 'invalid signature')
  return {
    kind: 'user',
    claims: {
      sub: claims.sub,
      role: 'authenticated',
      ...(claims.email && { email: claims.email }),
      app_metadata: { tenant_id: claims.app_metadata.tenant_id ?? '' },
    },
  }
}

/** What a signed URL's token names: the object and, for a rendition, its transformation. */
export interface SignedObject {
  url: string
  transformations?: string
}

/**
 * Signed URLs: a JWT over `<bucket>/<name>` that expires, as Supabase Storage issues them. Signed
 * with the local platform's own key and without the `authenticated` audience, so such a token is
 * never accepted as an access token.
 */
export function urlSigner(localEnv: Pick<LocalEnv, 'jwtPrivateJwk' | 'jwtPublicJwk' | 'jwtKid'>) {
  const privateKey = importJWK(localEnv.jwtPrivateJwk, 'ES256')
  const publicKey = importJWK(localEnv.jwtPublicJwk, 'ES256')
  return {
    async sign(object: SignedObject, expiresInSeconds: number, now: Date): Promise<string> {
      const iat = Math.floor(now.getTime() / 1000)
      return new SignJWT({ ...object })
        .setProtectedHeader({ alg: 'ES256', kid: localEnv.jwtKid, typ: 'JWT' })
        .setAudience('storage-signed-url')
        .setIssuedAt(iat)
        .setExpirationTime(iat + expiresInSeconds)
        .sign(await privateKey)
    },
    async verify(token: string, now: Date): Promise<SignedObject | null> {
      try {
        const { payload } = await jwtVerify(token, await publicKey, {
          algorithms: ['ES256'],
          audience: 'storage-signed-url',
          currentDate: now,
        })
        return typeof payload.url === 'string'
          ? {
              url: payload.url,
              ...(typeof payload.transformations === 'string' && {
                transformations: payload.transformations,
              }),
            }
          : null
      } catch {
        return null
      }
    },
  }
}
