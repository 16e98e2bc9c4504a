-- A draft that waits for review (review_requested_at, set by POST /v1/content/articles/{id}/submit,
-- cleared by publishing or scheduling; 20261202100000) is visible in the reads that list and find
-- articles: GET /v1/content's article items and GET /v1/content/sites/{site_id}/articles/{slug}
-- (which reported it as null while GET /v1/content/articles/{id} reported the real value). A
-- function's result type cannot change in place, so both are dropped and created again; otherwise
-- they are the functions of 20261201040400 and 20261202090000, comments included.
--
-- private.content_feed, as in 20261201040400: one statement that sets role and claims and reads
-- under row-level security, each arm at most limit + 1 rows in index order. Published-only keys see
-- published articles only through the articles_published_only policy (20261201040300). Sites have no
-- review: their review_requested_at is null.
drop function private.content_feed(text, uuid, integer, timestamptz, uuid, boolean, text, uuid, text, timestamptz, text[], text, uuid, timestamptz);

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
  p_words text[],
  p_tag text,
  p_author uuid,
  p_published_before timestamptz
)
returns table (object text, id uuid, site_id uuid, slug text, name text, domain text, status text,
               published_at timestamptz, created_at timestamptz, updated_at timestamptz,
               review_requested_at timestamptz)
language plpgsql set search_path = '' as $$
declare
  -- Status, publication, tags and authors are articles' fields: a filter on them leaves sites out.
  want_sites boolean := coalesce(p_type = 'site', true) and p_status is null and p_published_since is null
    and p_tag is null and p_author is null and p_published_before is null;
  want_articles boolean := coalesce(p_type = 'article', true);
begin
  if p_claims is not null then
    perform pg_catalog.set_config('request.tenant_id', p_tenant::text, true),
            pg_catalog.set_config('request.jwt.claims', p_claims, true),
            pg_catalog.set_config('role', 'authenticated', true);
  end if;
  if not p_newest_first then
    return query
      select c.* from (
        (select 'site'::text, s.id, null::uuid, s.slug, s.name, s.domain, null::text, null::timestamptz, s.created_at, s.updated_at, null::timestamptz
         from public.sites s
         where want_sites and s.tenant_id = p_tenant
           and (s.created_at, s.id) > (coalesce(p_after_at, '-infinity'), coalesce(p_after_id, '00000000-0000-0000-0000-000000000000'))
           and (p_site is null or s.id = p_site)
           and s.name ilike all (p_words)
         order by s.created_at, s.id
         limit p_limit + 1)
        union all
        (select 'article'::text, a.id, a.site_id, a.slug, a.title, null::text, a.status, a.published_at, a.created_at, a.updated_at, a.review_requested_at
         from public.articles a
         where want_articles and a.tenant_id = p_tenant
           and (a.created_at, a.id) > (coalesce(p_after_at, '-infinity'), coalesce(p_after_id, '00000000-0000-0000-0000-000000000000'))
           and (p_site is null or a.site_id = p_site)
           and (p_status is null or a.status = p_status)
           and (p_published_since is null or a.published_at >= p_published_since)
           and (p_published_before is null or a.published_at < p_published_before)
           and (p_author is null or a.author_id = p_author)
           and (p_tag is null or exists (
             select 1 from public.article_tags x join public.tags t on t.tenant_id = x.tenant_id and t.id = x.tag_id
             where x.article_id = a.id and t.slug = p_tag and t.tenant_id = p_tenant))
           and a.title ilike all (p_words)
         order by a.created_at, a.id
         limit p_limit + 1)
      ) c (object, id, site_id, slug, name, domain, status, published_at, created_at, updated_at, review_requested_at)
      order by c.created_at, c.id
      limit p_limit + 1;
  else
    return query
      select c.* from (
        (select 'site'::text, s.id, null::uuid, s.slug, s.name, s.domain, null::text, null::timestamptz, s.created_at, s.updated_at, null::timestamptz
         from public.sites s
         where want_sites and s.tenant_id = p_tenant
           and (s.created_at, s.id) < (coalesce(p_after_at, 'infinity'), coalesce(p_after_id, 'ffffffff-ffff-ffff-ffff-ffffffffffff'))
           and (p_site is null or s.id = p_site)
           and s.name ilike all (p_words)
         order by s.created_at desc, s.id desc
         limit p_limit + 1)
        union all
        (select 'article'::text, a.id, a.site_id, a.slug, a.title, null::text, a.status, a.published_at, a.created_at, a.updated_at, a.review_requested_at
         from public.articles a
         where want_articles and a.tenant_id = p_tenant
           and (a.created_at, a.id) < (coalesce(p_after_at, 'infinity'), coalesce(p_after_id, 'ffffffff-ffff-ffff-ffff-ffffffffffff'))
           and (p_site is null or a.site_id = p_site)
           and (p_status is null or a.status = p_status)
           and (p_published_since is null or a.published_at >= p_published_since)
           and (p_published_before is null or a.published_at < p_published_before)
           and (p_author is null or a.author_id = p_author)
           and (p_tag is null or exists (
             select 1 from public.article_tags x join public.tags t on t.tenant_id = x.tenant_id and t.id = x.tag_id
             where x.article_id = a.id and t.slug = p_tag and t.tenant_id = p_tenant))
           and a.title ilike all (p_words)
         order by a.created_at desc, a.id desc
         limit p_limit + 1)
      ) c (object, id, site_id, slug, name, domain, status, published_at, created_at, updated_at, review_requested_at)
      order by c.created_at desc, c.id desc
      limit p_limit + 1;
  end if;
end
$$;
revoke execute on function private.content_feed(text, uuid, integer, timestamptz, uuid, boolean, text, uuid, text, timestamptz, text[], text, uuid, timestamptz) from public, anon, authenticated;

-- private.article_by_slug, as in 20261202090000, with review_requested_at among the columns of
-- selectArticle.
drop function private.article_by_slug(text, uuid, uuid, text);

-- One article by its slug in a site (GET /v1/content/sites/{site_id}/articles/{slug}) in one
-- statement, as private.content_feed reads GET /v1/content: with claims given, the function sets
-- request.tenant_id, request.jwt.claims and role authenticated for the rest of the statement's
-- transaction and reads under row-level security; with claims null it reads as its caller (as the
-- database owner: the benchmarks' bare read of the same query). A pipelined transaction of four
-- statements (BEGIN, settings, read, COMMIT) cost the server and the driver a protocol cycle each.
--
-- Row-level security stays the single source of isolation: the articles, tags, article_tags and
-- article_slug_redirects policies decide what is visible (a published-only key sees published
-- articles only, through articles_published_only); p_tenant only picks the caller's active tenant.
-- Only the platform's own role may execute it, since it takes the claims as an argument.
--
-- The live slug first; an old slug only when no article holds it, and only for a published
-- article (redirect_to is then the slug it has now). The columns are those of selectArticle
-- (shared/services/content/articles.ts), tags in the article's order and the author's name.
create function private.article_by_slug(p_claims text, p_tenant uuid, p_site uuid, p_slug text)
returns table (id uuid, site_id uuid, slug text, title text, body text, excerpt text,
               feature_image_url text, feature_image_alt text, author_id uuid, author_name text,
               meta_title text, meta_description text, canonical_url text, status text,
               publish_at timestamptz, published_at timestamptz, created_at timestamptz,
               updated_at timestamptz, revision_id uuid, published_revision_id uuid,
               review_requested_at timestamptz, tags json, redirect_to text)
language plpgsql set search_path = '' as $$
begin
  if p_claims is not null then
    perform pg_catalog.set_config('request.tenant_id', p_tenant::text, true),
            pg_catalog.set_config('request.jwt.claims', p_claims, true),
            pg_catalog.set_config('role', 'authenticated', true);
  end if;
  return query
    with hit as (
      (select a.id, null::text as redirect_to from public.articles a
       where a.site_id = p_site and a.slug = p_slug and a.tenant_id = p_tenant)
      union all
      (select a.id, a.slug from public.article_slug_redirects r
       join public.articles a on a.id = r.article_id and a.status = 'published'
       where r.site_id = p_site and r.slug = p_slug and r.tenant_id = p_tenant)
      limit 1
    )
    select a.id, a.site_id, a.slug, a.title, a.body, a.excerpt, a.feature_image_url, a.feature_image_alt,
           a.author_id, (select n.name from private.author_names(array[a.author_id]) n),
           a.meta_title, a.meta_description, a.canonical_url, a.status, a.publish_at, a.published_at,
           a.created_at, a.updated_at, a.revision_id, a.published_revision_id, a.review_requested_at,
           coalesce((select json_agg(json_build_object('id', t.id, 'name', t.name, 'slug', t.slug) order by x.position)
                     from public.article_tags x join public.tags t on t.tenant_id = x.tenant_id and t.id = x.tag_id
                     where x.article_id = a.id), '[]'::json),
           hit.redirect_to
    from public.articles a join hit on hit.id = a.id;
end
$$;
revoke execute on function private.article_by_slug(text, uuid, uuid, text) from public, anon, authenticated;
