/**
 * Awaits independent work at once and reports it in the order given: every promise settles
 * (nothing is left running unobserved), then the first rejection in list order is thrown, else
 * the values come back typed as a tuple. Unlike Promise.all, which rejects with whichever fails
 * first in time, the error a caller sees does not depend on timing.
 */
export async function allInOrder<const P extends readonly Promise<unknown>[]>(
  promises: P,
): Promise<{ -readonly [K in keyof P]: Awaited<P[K]> }> {
  const settled = await Promise.allSettled(promises)
  const values: unknown[] = []
  for (const r of settled) {
    if (r.status === 'rejected') throw r.reason
    values.push(r.value)
  }
  return values as { -readonly [K in keyof P]: Awaited<P[K]> }
}
