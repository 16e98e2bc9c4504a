-- Issue 25, item 4: GET /v1/content reads the tenant's feed in one statement.
--
-- The read used to be four pipelined statements (BEGIN; select set_config(role, claims, tenant);
-- the feed query; COMMIT). Each statement is a protocol cycle of its own, ending in a Sync that
-- the server answers and flushes, and each is a query object in the driver: at 50 clients that
-- cost 1.7-2x the backend CPU of the bare query and 1.8x its Node CPU, with the policies costing
-- nearly nothing (docs/performance.md). The same steps now run inside one statement:
--
--   select * from private.content_feed_as_tenant($claims, $tenant, ...)
--
-- which sets role and claims for the rest of the transaction, exactly as claimsSetup does, and
-- returns private.content_feed(...) read as role authenticated. Row-level security stays the
-- single source of isolation: the sites and articles policies (tenant_id = (select
-- private.request_tenant_id()), which checks the claims' user is a member) decide what the
-- query sees; content_feed's own tenant filter only picks the active tenant among the caller's.
-- The settings are transaction-local; called as a statement of its own (the platform does), its
-- implicit transaction ends with it and so do they. Inside a caller's explicit transaction the
-- rest of that transaction stays role authenticated with these claims: narrower, never wider.
--
-- Only the platform's own role may call content_feed_as_tenant: with it, any caller could name
-- any claims. content_feed runs as its caller (security invoker) and is granted to authenticated,
-- which calls it here; as the database owner it is the benchmark's bare read of the same query.
--
-- The feed: a tenant's sites and articles in (created_at, id) order, a page by keyset. Each arm
-- reads at most limit + 1 rows in index order (sites_tenant_id_idx, articles_tenant_id_idx on
-- (tenant_id, created_at, id)) and the union is merged, so a page costs the same on the first
-- and on the thousandth. With no cursor the keyset bound is the first or last possible key, so
-- the same plan serves both. p_words are ILIKE patterns (escaped by the caller), all of which
-- must match; '{}' matches everything.
create function private.content_feed(
  p_tenant uuid,
  p_limit integer,
  p_after_at timestamptz,
  p_after_id uuid,
  p_newest_first boolean,
  p_type text,
  p_site uuid,
  p_status text,
  p_published_since timestamptz,
  p_words text[]
) returns table (
  object text, id uuid, site_id uuid, name text, domain text, status text,
  published_at timestamptz, created_at timestamptz, updated_at timestamptz
)
language plpgsql stable set search_path = '' as $$
declare
  -- Status and publication are articles' fields: a filter on them leaves sites out.
  want_sites boolean := coalesce(p_type = 'site', true) and p_status is null and p_published_since is null;
  want_articles boolean := coalesce(p_type = 'article', true);
begin
  -- One static query per direction: ORDER BY and the keyset comparison cannot take the direction
  -- as a parameter and still walk the index in order (EXECUTE would plan on every call).
  if not p_newest_first then
    return query
      select c.* from (
        (select 'site'::text, s.id, null::uuid, s.name, s.domain, null::text, null::timestamptz, s.created_at, s.updated_at
         from public.sites s
         where want_sites and s.tenant_id = p_tenant
           and (s.created_at, s.id) > (coalesce(p_after_at, '-infinity'), coalesce(p_after_id, '00000000-0000-0000-0000-000000000000'))
           and (p_site is null or s.id = p_site)
           and s.name ilike all (p_words)
         order by s.created_at, s.id
         limit p_limit + 1)
        union all
        (select 'article'::text, a.id, a.site_id, a.title, null::text, a.status, a.published_at, a.created_at, a.updated_at
         from public.articles a
         where want_articles and a.tenant_id = p_tenant
           and (a.created_at, a.id) > (coalesce(p_after_at, '-infinity'), coalesce(p_after_id, '00000000-0000-0000-0000-000000000000'))
           and (p_site is null or a.site_id = p_site)
           and (p_status is null or a.status = p_status)
           and (p_published_since is null or a.published_at >= p_published_since)
           and a.title ilike all (p_words)
         order by a.created_at, a.id
         limit p_limit + 1)
      ) c (object, id, site_id, name, domain, status, published_at, created_at, updated_at)
      order by c.created_at, c.id
      limit p_limit + 1;
  else
    return query
      select c.* from (
        (select 'site'::text, s.id, null::uuid, s.name, s.domain, null::text, null::timestamptz, s.created_at, s.updated_at
         from public.sites s
         where want_sites and s.tenant_id = p_tenant
           and (s.created_at, s.id) < (coalesce(p_after_at, 'infinity'), coalesce(p_after_id, 'ffffffff-ffff-ffff-ffff-ffffffffffff'))
           and (p_site is null or s.id = p_site)
           and s.name ilike all (p_words)
         order by s.created_at desc, s.id desc
         limit p_limit + 1)
        union all
        (select 'article'::text, a.id, a.site_id, a.title, null::text, a.status, a.published_at, a.created_at, a.updated_at
         from public.articles a
         where want_articles and a.tenant_id = p_tenant
           and (a.created_at, a.id) < (coalesce(p_after_at, 'infinity'), coalesce(p_after_id, 'ffffffff-ffff-ffff-ffff-ffffffffffff'))
           and (p_site is null or a.site_id = p_site)
           and (p_status is null or a.status = p_status)
           and (p_published_since is null or a.published_at >= p_published_since)
           and a.title ilike all (p_words)
         order by a.created_at desc, a.id desc
         limit p_limit + 1)
      ) c (object, id, site_id, name, domain, status, published_at, created_at, updated_at)
      order by c.created_at desc, c.id desc
      limit p_limit + 1;
  end if;
end
$$;
revoke execute on function private.content_feed(uuid, integer, timestamptz, uuid, boolean, text, uuid, text, timestamptz, text[]) from public, anon;
grant execute on function private.content_feed(uuid, integer, timestamptz, uuid, boolean, text, uuid, text, timestamptz, text[]) to authenticated;

create function private.content_feed_as_tenant(
  p_claims text,
  p_tenant uuid,
  p_limit integer,
  p_after_at timestamptz,
  p_after_id uuid,
  p_newest_first boolean,
  p_type text,
  p_site uuid,
  p_status text,
  p_published_since timestamptz,
  p_words text[]
) returns table (
  object text, id uuid, site_id uuid, name text, domain text, status text,
  published_at timestamptz, created_at timestamptz, updated_at timestamptz
)
language plpgsql set search_path = '' as $$
begin
  -- What claimsSetup sets, in the same order of effect: the tenant and the claims, then the role.
  perform pg_catalog.set_config('request.tenant_id', p_tenant::text, true),
          pg_catalog.set_config('request.jwt.claims', p_claims, true),
          pg_catalog.set_config('role', 'authenticated', true);
  return query select * from private.content_feed(p_tenant, p_limit, p_after_at, p_after_id,
    p_newest_first, p_type, p_site, p_status, p_published_since, p_words);
end
$$;
revoke execute on function private.content_feed_as_tenant(text, uuid, integer, timestamptz, uuid, boolean, text, uuid, text, timestamptz, text[]) from public, anon, authenticated;
