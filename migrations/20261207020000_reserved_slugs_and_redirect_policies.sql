-- A slug that redirects to a live article (published, or scheduled to be) is reserved for it:
-- readers hold links to it. An editor (member, admin, owner) releases it by giving the slug to
-- another article; a contributor cannot take it, nor write redirects other than those of its own
-- drafts. The same restrictive policies as the other content tables (ADR 0027), so a contributor's
-- claims used directly (the Data API) are refused what the API refuses.

-- Redirects: a contributor inserts or moves only those leading to its own drafts, and deletes only
-- those that lead to no live article (a stale one it replaces with its own draft's slug).
create policy article_slug_redirects_contributor_insert on public.article_slug_redirects as restrictive
  for insert to authenticated
  with check ((select private.request_not_contributor())
              or exists (select 1 from public.articles a
                         where a.id = article_id and a.author_id = (select auth.uid()) and a.status = 'draft'));
create policy article_slug_redirects_contributor_update on public.article_slug_redirects as restrictive
  for update to authenticated
  using ((select private.request_not_contributor())
         or exists (select 1 from public.articles a
                    where a.id = article_id and a.author_id = (select auth.uid()) and a.status = 'draft'))
  with check ((select private.request_not_contributor())
              or exists (select 1 from public.articles a
                         where a.id = article_id and a.author_id = (select auth.uid()) and a.status = 'draft'));
create policy article_slug_redirects_contributor_delete on public.article_slug_redirects as restrictive
  for delete to authenticated
  using ((select private.request_not_contributor())
         or not exists (select 1 from public.articles a
                        where a.id = article_id and a.status in ('published', 'scheduled')));

-- Whether the slug is an old slug of another live article of the site, in the request's tenant.
-- Definer: a policy on articles cannot read articles itself (recursion); fails closed (no tenant:
-- reserved).
create function private.slug_reserved_for_other(p_site_id uuid, p_slug text, p_article_id uuid)
returns boolean
language sql stable security definer set search_path = '' as $$
  select (select private.request_tenant_id()) is null
      or exists (select 1 from public.article_slug_redirects r
                 join public.articles live on live.id = r.article_id
                 where r.tenant_id = (select private.request_tenant_id())
                   and r.site_id = p_site_id and r.slug = p_slug and r.article_id <> p_article_id
                   and live.status in ('published', 'scheduled'))
$$;
revoke execute on function private.slug_reserved_for_other(uuid, text, uuid) from public;
grant execute on function private.slug_reserved_for_other(uuid, text, uuid) to authenticated;

-- A contributor's draft never holds a slug reserved by a redirect to another, live article: once
-- published it would take the old links over.
create policy articles_contributor_reserved_slug_insert on public.articles as restrictive
  for insert to authenticated
  with check ((select private.request_not_contributor())
              or not private.slug_reserved_for_other(site_id, slug, id));
create policy articles_contributor_reserved_slug_update on public.articles as restrictive
  for update to authenticated
  using (true)
  with check ((select private.request_not_contributor())
              or not private.slug_reserved_for_other(site_id, slug, id));
