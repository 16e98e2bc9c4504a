-- Issue 44, items 1 and 2 (docs/adr/0029-published-only-key-is-its-own-caller.md): a published-only
-- claim (a platform key made with published_only, docs/content.md) sees no row of any table but the
-- published content it may read, and writes none anywhere. Until now only articles, their
-- revisions, tags and slug redirects looked at the claim; every other tenant table (orders,
-- sources and their feed URLs, jobs, keys, members...) answered it as it answers the key's creator.
--
-- One helper, private.request_published_only() (20261201040300), used two ways:
--   1. A restrictive policy `published_only_sees_nothing` on every table with row-level security in
--      schemas public and private, except the published content tables below: for such a claim no
--      row is visible and no row can be written. tests/rls.test.ts refuses a table with row-level
--      security that has neither this policy nor a documented exception, so a table added later
--      must opt in (CONTRIBUTING.md, "A new table").
--   2. The membership helpers (user_tenant_ids, has_tenant_role) find no membership for such a
--      claim, so every policy and definer function built on them refuses it too.
-- Policies name role authenticated, the role the platform's claims run as (claimsSetup), as the
-- published-only policies of 20261201040300 do.
-- The published content tables (sites, articles, article_revisions, tags, article_tags,
-- article_slug_redirects) keep their select policies (articles published only, no revision, tags
-- of published articles, redirects to published articles; sites all) and refuse every write.

do $$
declare
  t regclass;
  published_content constant regclass[] := array[
    'public.sites', 'public.articles', 'public.article_revisions', 'public.tags', 'public.article_tags',
    'public.article_slug_redirects']::regclass[];
  command text;
begin
  for t in
    select c.oid::regclass from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname in ('public', 'private') and c.relkind in ('r', 'p') and c.relrowsecurity
      and not c.relispartition
    order by 1
  loop
    if t = any (published_content) then
      foreach command in array array['insert', 'update', 'delete'] loop
        execute format(
          'create policy %I on %s as restrictive for %s to authenticated %s (not (select private.request_published_only()))',
          'published_only_writes_nothing_' || command, t, command,
          case command when 'insert' then 'with check' else 'using' end);
      end loop;
    else
      execute format(
        'create policy published_only_sees_nothing on %s as restrictive for all to authenticated
           using (not (select private.request_published_only()))
           with check (not (select private.request_published_only()))', t);
    end if;
  end loop;
end
$$;

-- Item 2: a tag is a published-only claim's only when a published article carries it (a tag that
-- only drafts carry tells a reader what is coming). article_tags already shows such a claim the
-- published articles' rows only; the status is checked here again so the rule stands on its own.
create policy tags_published_only on public.tags as restrictive for select to authenticated
  using (not (select private.request_published_only())
         or exists (select 1 from public.article_tags x join public.articles a on a.id = x.article_id
                    where x.tenant_id = tags.tenant_id and x.tag_id = tags.id and a.status = 'published'));

-- A published-only claim carries no membership: the helpers most policies and several definer
-- functions (tenant_member_list, is_member_email) build on find none for it. Same signatures,
-- results for every other caller and grants.
create or replace function private.user_tenant_ids() returns setof uuid
language plpgsql stable security definer set search_path = '' as $$
begin
  if private.request_published_only() then
    return;
  end if;
  return query select tm.tenant_id from public.tenant_members tm where tm.user_id = auth.uid();
end
$$;

create or replace function private.has_tenant_role(target_tenant uuid, roles text[]) returns boolean
language plpgsql stable security definer set search_path = '' as $$
begin
  if private.request_published_only() then
    return false;
  end if;
  return exists (
    select 1 from public.tenant_members tm
    where tm.tenant_id = target_tenant and tm.user_id = auth.uid() and tm.role = any (roles)
  );
end
$$;
