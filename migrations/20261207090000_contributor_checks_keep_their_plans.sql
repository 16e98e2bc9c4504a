-- The contributor checks keep their plans (issue 45; ADR 0032, "The membership helpers"; docs/performance.md).
--
-- private.request_not_contributor (20261202100000) is in the restrictive write policies of articles,
-- revisions, tags, article tags, redirects and sites (20 policies; an update of an article evaluates
-- it three times). It was a SQL function with SET search_path, so never inlined and planned on every
-- call, and it called private.request_role, a SQL security definer function, planned on every call
-- too: pg_stat_statements, 300 keyed updates of an article, 900 calls and 900 plans of each, 98 µs a
-- call (64 µs of it planning request_role's statement). As plpgsql, with the membership lookup in its
-- own statement, the plan is cached per connection.
--
-- Same answer: true unless the request's user is a member of the tenant the request acts for
-- (private.request_tenant_id(), which checks the membership) with the role 'contributor';
-- request_role() is distinct from 'contributor' said the same (null when there is no such
-- membership). It reads tenant_members, so it is now security definer (fixed search path, no
-- arguments, answers only about the caller's own membership); it does not call request_role.
--
-- private.slug_reserved_for_other (20261207020000), the contributor's restrictive policy on
-- articles' slugs, is a SQL security definer function evaluated per row written by a contributor:
-- planned per call for the same reason. Same body in plpgsql.

create or replace function private.request_not_contributor() returns boolean
language plpgsql stable security definer set search_path = '' as $$
begin
  return not exists (
    select 1 from public.tenant_members m
    where m.tenant_id = (select private.request_tenant_id()) and m.user_id = auth.uid() and m.role = 'contributor');
end
$$;
revoke execute on function private.request_not_contributor() from public;
grant execute on function private.request_not_contributor() to authenticated;

create or replace function private.slug_reserved_for_other(p_site_id uuid, p_slug text, p_article_id uuid)
returns boolean
language plpgsql stable security definer set search_path = '' as $$
declare
  tenant uuid := private.request_tenant_id();
begin
  return tenant is null
      or exists (select 1 from public.article_slug_redirects r
                 join public.articles live on live.id = r.article_id
                 where r.tenant_id = tenant
                   and r.site_id = p_site_id and r.slug = p_slug and r.article_id <> p_article_id
                   and live.status in ('published', 'scheduled'));
end
$$;
