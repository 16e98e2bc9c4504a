-- Published-only keys (docs/content.md): a platform key made with published_only reads published
-- articles, their sites and tags, and nothing more. The key's claims carry published_only: true,
-- and restrictive policies hide drafts, scheduled articles and every revision from such a
-- caller, so the database refuses what a missed check in code would let through.
alter table public.api_keys
  add column published_only boolean not null default false,
  add column allowed_origins text[] not null default '{}'
    check (cardinality(allowed_origins) <= 20),
  add constraint api_keys_published_only_check
    check (not published_only or (family = 'platform' and scopes = array['content:read']));
grant select (published_only, allowed_origins) on public.api_keys to authenticated;

-- True when the request's claims say published_only. Claims are set by the platform from the
-- verified key; a caller who can forge claims can only hide rows from itself with this one.
create function private.request_published_only() returns boolean
language sql stable set search_path = '' as $$
  select coalesce((nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'published_only')::boolean, false)
$$;
revoke execute on function private.request_published_only() from public;
grant execute on function private.request_published_only() to authenticated;

create policy articles_published_only on public.articles as restrictive for select to authenticated
  using (status = 'published' or not (select private.request_published_only()));
create policy article_revisions_published_only on public.article_revisions as restrictive for select
  to authenticated using (not (select private.request_published_only()));
create policy article_tags_published_only on public.article_tags as restrictive for select to authenticated
  using (not (select private.request_published_only())
         or exists (select 1 from public.articles a where a.id = article_id and a.status = 'published'));
create policy article_slug_redirects_published_only on public.article_slug_redirects as restrictive for select
  to authenticated
  using (not (select private.request_published_only())
         or exists (select 1 from public.articles a where a.id = article_id and a.status = 'published'));
