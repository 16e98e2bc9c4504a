import type { FunctionDeps } from '@shared/infra/deps.ts'
import type { Provider } from './schema.ts'

/** The provider catalog, shared by every tenant (readable with the anon key too). */
export async function listProviders(
  deps: Pick<FunctionDeps, 'sql'>,
  category?: Provider['category'],
): Promise<{ data: Provider[] }> {
  const rows = await deps.sql<Provider[]>`
    select id, slug, name, category, icon_url from public.providers
    ${category ? deps.sql`where category = ${category}` : deps.sql``}
    order by category, name`
  return { data: rows.map((r) => ({ ...r })) }
}
