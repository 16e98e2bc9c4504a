/**
 * The name each active connection's tools, resources and prompts carry: the integration's slug,
 * or, when the tenant has two or more active connections of that integration, the slug and the
 * first 8 hex digits of the connection's id ('github@1a2b3c4d'). One rule for all three, so a
 * connection's tools, resources and prompts are named alike and never like another's.
 */
export function connectionPrefixes(
  connections: readonly { id: string; integration_slug: string }[],
): Map<string, string> {
  const perSlug = new Map<string, number>()
  for (const c of connections) perSlug.set(c.integration_slug, (perSlug.get(c.integration_slug) ?? 0) + 1)
  return new Map(
    connections.map((c) => [
      c.id,
      (perSlug.get(c.integration_slug) ?? 0) > 1
        ? `${c.integration_slug}@${c.id.replace(/-/g, '').slice(0, 8)}`
        : c.integration_slug,
    ]),
  )
}
