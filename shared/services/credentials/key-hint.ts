const HINT_PREFIX = '...'
const HINT_VISIBLE = 6
/** What a secret of HINT_VISIBLE characters or fewer shows: nothing of itself. */
export const SHORT_SECRET_HINT = `${HINT_PREFIX}${'*'.repeat(HINT_VISIBLE)}`

/**
 * The key hint: '...' followed by the last 6 characters of the secret (the spec's rule).
 * Characters are Unicode code points, so a hint never splits a surrogate pair.
 *
 * A secret of 6 characters or fewer would be shown whole by that rule, so it gets the fixed
 * hint '...******' instead: a hint may identify a secret, never disclose it.
 */
export function keyHint(secret: string): string {
  const chars = Array.from(secret)
  if (chars.length <= HINT_VISIBLE) return SHORT_SECRET_HINT
  return HINT_PREFIX + chars.slice(-HINT_VISIBLE).join('')
}
