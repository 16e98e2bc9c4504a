-- Issue 25, item 4: the policies of the hot tables (sites and articles, read by GET /v1/content
-- on every key-authenticated request) compare tenant_id with one scalar per statement instead of
-- testing it against the set of all the caller's tenants (`tenant_id in (select
-- private.user_tenant_ids())`, a set-returning call hashed per table and statement).
-- docs/adr/0004-rate-limits-in-postgres.md.
--
-- The tenant a transaction acts for: the transaction-local setting request.tenant_id, which the
-- platform sets beside role and claims in the same set_config statement (claimsSetup); for a
-- caller that carries only request.jwt.claims (PostgREST, supabase-js), the tenant in its claims'
-- app_metadata.tenant_id, which the access token hook writes (the user's active tenant).
--
-- Anyone who can run SQL can set a setting, so the setting alone grants nothing: the tenant counts
-- only while auth.uid() (the claims' subject) is a member of it, checked here on every call.
-- Null otherwise (no user, no tenant, not a member), and `tenant_id = null` selects no row and
-- admits no write: fail closed. A value that is not a uuid is an error (22P02), also closed.
--
-- STABLE and wrapped as `(select ...)` in the policies, so PostgreSQL evaluates it once per
-- statement as an InitPlan, and the comparison with the indexed tenant_id column can drive the
-- index scan (a supabase-js `select * from sites` no longer scans every tenant's rows). The JSON
-- claims are parsed once per call, never per row.
create function private.request_tenant_id() returns uuid
language plpgsql stable security definer set search_path = '' as $$
declare
  tenant uuid := coalesce(
    nullif(current_setting('request.tenant_id', true), ''),
    nullif(auth.jwt() -> 'app_metadata' ->> 'tenant_id', '')
  )::uuid;
begin
  if tenant is null then
    return null;
  end if;
  if exists (select 1 from public.tenant_members m where m.tenant_id = tenant and m.user_id = auth.uid()) then
    return tenant;
  end if;
  return null;
end
$$;
revoke execute on function private.request_tenant_id() from public;
-- Policies run their expressions as the requesting role.
grant execute on function private.request_tenant_id() to authenticated;

-- A member still reads and writes only rows of a tenant it belongs to, now the one tenant the
-- transaction acts for; the other tenant tables keep user_tenant_ids() (all the caller's tenants).
drop policy sites_all on public.sites;
create policy sites_all on public.sites to authenticated
  using (tenant_id = (select private.request_tenant_id()))
  with check (tenant_id = (select private.request_tenant_id()));

drop policy articles_all on public.articles;
create policy articles_all on public.articles to authenticated
  using (tenant_id = (select private.request_tenant_id()))
  with check (tenant_id = (select private.request_tenant_id()));
