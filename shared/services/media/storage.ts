import { serviceKeys } from '@shared/infra/config.ts'
import type { DepsWithoutDatabase } from '@shared/infra/deps.ts'
import { ServiceError } from '@shared/infra/errors.ts'
import { StorageClient } from '@supabase/storage-js'
import { MEDIA_BUCKET } from './bucket.ts'

/**
 * The media bucket through Supabase Storage's API (supabase-js's storage client), called with the
 * service role: the functions authorize every media operation through public.media's row-level
 * security first (an API key is not a Storage token), then read or write the object under the
 * tenant's prefix that the row names. On `npm start` the same calls reach the local Storage.
 */
export function mediaBucket(deps: Pick<DepsWithoutDatabase, 'config' | 'fetch' | 'storageFetch'>) {
  const base = deps.config.SUPABASE_URL
  const key = serviceKeys(deps.config)[0]
  if (!base || !key)
    throw new ServiceError('INTERNAL_ERROR', 'Storage is not configured (SUPABASE_URL and a secret key)')
  const fetchImpl = (deps.storageFetch ?? (deps.fetch as unknown as typeof fetch)) as typeof fetch
  return new StorageClient(
    `${base.replace(/\/+$/, '')}/storage/v1`,
    { apikey: key, authorization: `Bearer ${key}` },
    fetchImpl,
  ).from(MEDIA_BUCKET)
}

/** A Storage failure as the platform's error: the operation did not happen. */
export function storageFailed(what: string, err: { message?: string } | null): never {
  throw new ServiceError(
    'SERVICE_UNAVAILABLE',
    `Storage could not ${what}: ${(err?.message ?? 'no answer').slice(0, 200)}`,
    {
      retryAfter: 5,
    },
  )
}
