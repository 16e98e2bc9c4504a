import { ServiceError } from '@shared/infra/errors.ts'
import { type SlugHolder, slugGuard } from './slug-guard.ts'

/**
 * Articles' slugs, unique in their site (slug-guard.ts). An old slug of a live article (a redirect)
 * is reserved for it: an editor giving it to another article releases it (the caller then deletes
 * the redirect), a contributor cannot. The role is the database's own
 * (private.request_not_contributor), as in the policies that hold the rule.
 */
export const articleSlugs = slugGuard({
  table: 'public.articles',
  scope: 'site_id',
  label: 'title',
  fallback: 'article',
  taken: (slug: string, holder?: SlugHolder) =>
    holder
      ? new ServiceError(
          'CONFLICT',
          `The slug "${slug}" is taken on this site by the article ${holder.id} ("${holder.label}")`,
          // The field's message names the article by title, as an editor knows it; the id follows for a client.
          { details: [{ field: 'slug', message: `taken by the article "${holder.label}" (${holder.id})` }] },
        )
      : new ServiceError('CONFLICT', `The slug "${slug}" is taken on this site`, {
          details: [{ field: 'slug', message: 'taken by another article' }],
        }),
  violationIsSlug: (message) => message.includes('slug'),
  reserved: {
    async refuse(tx, siteId, slug, exceptId) {
      const [reserved] = await tx<{ id: string; title: string; releasable: boolean }[]>`
        select live.id, live.title, (select private.request_not_contributor()) as releasable
        from public.article_slug_redirects r join public.articles live on live.id = r.article_id
        where r.site_id = ${siteId} and r.slug = ${slug} and r.article_id is distinct from ${exceptId}
          and live.status in ('published', 'scheduled')`
      if (reserved && !reserved.releasable)
        throw new ServiceError(
          'CONFLICT',
          `The slug "${slug}" is reserved: readers' links to it lead to the article ${reserved.id} ("${reserved.title}"). An editor (member, admin or owner) can release it by giving it to an article`,
          {
            details: [
              { field: 'slug', message: `reserved for the article "${reserved.title}" (${reserved.id})` },
            ],
          },
        )
    },
    // A live article's old slug is not taken silently: only an editor's explicit slug releases it.
    like: (tx, siteId, base, pattern, exceptId) => tx`
      select r.slug from public.article_slug_redirects r join public.articles live on live.id = r.article_id
      where r.site_id = ${siteId} and r.article_id is distinct from ${exceptId}
        and live.status in ('published', 'scheduled')
        and (r.slug = ${base} or r.slug ~ ${pattern})`,
  },
})
