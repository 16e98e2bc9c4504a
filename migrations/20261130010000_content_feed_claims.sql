-- Issue 25: the content feed's wrapper folded into the feed (GET /v1/content and the MCP content
-- resources and tools).
--
-- Migration 20261129010000 read the feed in one statement through two functions:
-- content_feed_as_tenant set role and claims, then returned private.content_feed(...), a second
-- PL/pgSQL call whose rows were gathered twice (each function's RETURN QUERY fills a tuplestore).
-- Measured on this machine with pgbench (4 clients, prepared, backend CPU from the postmaster's
-- reaped children): the bare read 45-49 us a call, the two functions 71-74 us, the same settings
-- and query in one function 67-70 us. So there is now one function, private.content_feed, which
-- takes the claims as its first argument:
--
--   claims given: sets request.tenant_id, request.jwt.claims and role authenticated for the rest
--                 of the transaction and reads under row-level security (the platform's reads);
--   claims null:  reads as its caller; as the database owner, the benchmarks' bare read of the
--                 same query.
--
-- Row-level security stays the single source of isolation, as before: the sites and articles
-- policies (tenant_id = (select private.request_tenant_id()), which checks the claims' user is a
-- member) decide what the query sees; p_tenant only picks the active tenant among the caller's.
-- Only the platform's own role may execute it, since it takes the claims as an argument (no API
-- role: tests/function-privileges.test.ts). The MCP content reads (listContent), which ran the
-- old content_feed as authenticated inside a four-statement transaction, call it the same way as
-- GET /v1/content.
--
-- The feed: a tenant's sites and articles in (created_at, id) order, a page by keyset. Each arm
-- reads at most limit + 1 rows in index order (sites_tenant_id_idx, articles_tenant_id_idx on
-- (tenant_id, created_at, id)) and the union is merged, so a page costs the same on the first
-- and on the thousandth. With no cursor the keyset bound is the first or last possible key, so
-- the same plan serves both. p_words are ILIKE patterns (escaped by the caller), all of which
-- must match; '{}' matches everything.
drop function private.content_feed_as_tenant(text, uuid, integer, timestamptz, uuid, boolean, text, uuid, text, timestamptz, text[]);
drop function private.content_feed(uuid, integer, timestamptz, uuid, boolean, text, uuid, text, timestamptz, text[]);

create function private.content_feed(
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
declare
  -- Status and publication are articles' fields: a filter on them leaves sites out.
  want_sites boolean := coalesce(p_type = 'site', true) and p_status is null and p_published_since is null;
  want_articles boolean := coalesce(p_type = 'article', true);
begin
  if p_claims is not null then
    -- What claimsSetup sets: the tenant and the claims, then the role. Transaction-local; the
    -- queries below are planned after the switch, so row-level security applies to them (a plan
    -- made for the owner is not reused: a plan that depends on the role is replanned for another).
    perform pg_catalog.set_config('request.tenant_id', p_tenant::text, true),
            pg_catalog.set_config('request.jwt.claims', p_claims, true),
            pg_catalog.set_config('role', 'authenticated', true);
  end if;
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
revoke execute on function private.content_feed(text, uuid, integer, timestamptz, uuid, boolean, text, uuid, text, timestamptz, text[]) from public, anon, authenticated;
