-- GET /v1/content?review=requested: only the drafts that wait for review (review_requested_at set,
-- 20261203000000). private.content_feed gains p_review_requested; true leaves sites out, as the
-- other article filters do. Otherwise the function of
-- 20261203000000: one statement that sets role and claims and reads under row-level security, each
-- arm at most limit + 1 rows in index order. Published-only keys see published articles only
-- through the articles_published_only policy (20261201040300), so the filter finds none for them.
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
  p_published_before timestamptz,
  p_review_requested boolean
)
returns table (object text, id uuid, site_id uuid, slug text, name text, domain text, status text,
               published_at timestamptz, created_at timestamptz, updated_at timestamptz,
               review_requested_at timestamptz)
language plpgsql set search_path = '' as $$
declare
  -- Status, publication, tags, authors and review are articles' fields: a filter on them leaves sites out.
  want_sites boolean := coalesce(p_type = 'site', true) and p_status is null and p_published_since is null
    and p_tag is null and p_author is null and p_published_before is null and p_review_requested is not true;
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
           and (p_review_requested is not true or a.review_requested_at is not null)
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
           and (p_review_requested is not true or a.review_requested_at is not null)
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
revoke execute on function private.content_feed(text, uuid, integer, timestamptz, uuid, boolean, text, uuid, text, timestamptz, text[], text, uuid, timestamptz, boolean) from public, anon, authenticated;
