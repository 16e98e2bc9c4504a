import { mediaBucketSettings } from '@shared/services/media/bucket.ts'
import type postgres from 'postgres'

/**
 * The media bucket as the deployment must have it (docs/deploy.md, step 5): present, private, with
 * the size limit and image types of mediaBucketSettings. Also whether storage.objects carries the
 * media policies (a warning only: the functions authorize through public.media, and on Supabase
 * the policies are made by hand where the migration may not). Settings columns that a database
 * lacks (Supabase's schema before its Storage server first ran) are reported as unchecked.
 */
export async function checkMediaBucket(
  sql: postgres.Sql,
): Promise<{ failures: string[]; warnings: string[] }> {
  const failures: string[] = []
  const warnings: string[] = []
  const [bucket] = await sql<Record<string, unknown>[]>`
    select to_jsonb(b) as row from storage.buckets b where id = ${mediaBucketSettings.id}`.then((rows) =>
    rows.map((r) => r.row as Record<string, unknown>),
  )
  if (!bucket) return { failures: [`storage bucket ${mediaBucketSettings.id}: missing`], warnings }
  for (const key of ['public', 'file_size_limit', 'allowed_mime_types'] as const) {
    if (!(key in bucket)) {
      warnings.push(`storage bucket ${mediaBucketSettings.id}: no ${key} column here, not checked`)
      continue
    }
    const want = mediaBucketSettings[key]
    const have = key === 'file_size_limit' && bucket[key] !== null ? Number(bucket[key]) : bucket[key]
    const same = Array.isArray(want)
      ? Array.isArray(have) && [...have].sort().join() === [...want].sort().join()
      : have === want
    if (!same)
      failures.push(
        `storage bucket ${mediaBucketSettings.id}: ${key} is ${JSON.stringify(have)}, expected ${JSON.stringify(want)}`,
      )
  }
  const policies = await sql<{ policyname: string }[]>`
    select policyname from pg_policies where schemaname = 'storage' and tablename = 'objects' and policyname like 'media_objects_%'`
  if (policies.length < 5)
    warnings.push(
      `storage.objects: ${policies.length} of 5 media policies; create them as docs/deploy.md step 5 says`,
    )
  return { failures, warnings }
}
