-- Hot reads that keep their plans (issue 45; docs/performance.md, "Budgets"; ADR 0032).
--
-- Since 20261201040400 the statement inside private.content_feed was planned on every call: its
-- optional filters, `(p_x is null or col = p_x)`, fold away in a custom plan, so PostgreSQL's plan
-- cache never found the generic plan as cheap and planned again each time (about 170-190 µs of
-- backend CPU a bare read, 270-300 µs a keyed one, pg_stat_statements: plans = calls). The plain
-- page (no filter) now has statements of its own, whose generic plans the cache keeps; filtered
-- reads keep the one statement for any combination. Otherwise the function of 20261203000100.
--
-- private.author_names was a SQL function that cannot be inlined (security definer): PostgreSQL
-- plans a SQL function's statement on every call. As plpgsql its statement's plan is cached per
-- connection. Same arguments, result and privileges.
--
-- Articles gain body_excerpt: the excerpt derived from the body (the first paragraph's text,
-- shared/services/content/render.ts excerptOf), stored when the body is written so that a read does
-- not parse the markdown. A write that changes the body without giving body_excerpt clears it (a
-- trigger), and a read with none derives it as before: the answer is the same either way.
-- private.article_by_slug returns it.
--
-- private.request_published_only becomes plpgsql for the same reason as author_names (below).

create or replace function private.content_feed(
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
  plain boolean := p_type is null and p_site is null and p_status is null and p_published_since is null
    and p_tag is null and p_author is null and p_published_before is null and p_review_requested is not true
    and coalesce(cardinality(p_words), 0) = 0;
begin
  if p_claims is not null then
    perform pg_catalog.set_config('request.tenant_id', p_tenant::text, true),
            pg_catalog.set_config('request.jwt.claims', p_claims, true),
            pg_catalog.set_config('role', 'authenticated', true);
  end if;
  if plain then
    -- The plain page (no filter; a cursor or none): a statement whose shape does not depend on
    -- which filters are given, so its generic plan costs what a custom one does and the plan cache
    -- keeps it after a connection's first five calls.
    if not p_newest_first then
      return query
        select c.* from (
          (select 'site'::text, s.id, null::uuid, s.slug, s.name, s.domain, null::text, null::timestamptz, s.created_at, s.updated_at, null::timestamptz
           from public.sites s
           where s.tenant_id = p_tenant
             and (s.created_at, s.id) > (coalesce(p_after_at, '-infinity'), coalesce(p_after_id, '00000000-0000-0000-0000-000000000000'))
           order by s.created_at, s.id
           limit p_limit + 1)
          union all
          (select 'article'::text, a.id, a.site_id, a.slug, a.title, null::text, a.status, a.published_at, a.created_at, a.updated_at, a.review_requested_at
           from public.articles a
           where a.tenant_id = p_tenant
             and (a.created_at, a.id) > (coalesce(p_after_at, '-infinity'), coalesce(p_after_id, '00000000-0000-0000-0000-000000000000'))
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
           where s.tenant_id = p_tenant
             and (s.created_at, s.id) < (coalesce(p_after_at, 'infinity'), coalesce(p_after_id, 'ffffffff-ffff-ffff-ffff-ffffffffffff'))
           order by s.created_at desc, s.id desc
           limit p_limit + 1)
          union all
          (select 'article'::text, a.id, a.site_id, a.slug, a.title, null::text, a.status, a.published_at, a.created_at, a.updated_at, a.review_requested_at
           from public.articles a
           where a.tenant_id = p_tenant
             and (a.created_at, a.id) < (coalesce(p_after_at, 'infinity'), coalesce(p_after_id, 'ffffffff-ffff-ffff-ffff-ffffffffffff'))
           order by a.created_at desc, a.id desc
           limit p_limit + 1)
        ) c (object, id, site_id, slug, name, domain, status, published_at, created_at, updated_at, review_requested_at)
        order by c.created_at desc, c.id desc
        limit p_limit + 1;
    end if;
    return;
  end if;
  -- Filters given: one statement for any combination. Its custom plans fold the absent filters
  -- away, so PostgreSQL plans it on each call (about 170-300 µs); filtered reads are the rarer ones.
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


-- Articles: the excerpt derived from the body, stored at write time, with the md5 of the body it
-- was derived from. A write that stores a body without its excerpt (a job, a migration, SQL by
-- hand) leaves body_excerpt null (a trigger), so a stored one never describes another body: the
-- read then derives it, as before.
alter table public.articles add column body_excerpt text, add column body_excerpt_md5 text;

create function private.clear_stale_body_excerpt() returns trigger
language plpgsql set search_path = '' as $$
begin
  if new.body_excerpt_md5 is distinct from pg_catalog.md5(new.body) then
    new.body_excerpt := null;
    new.body_excerpt_md5 := null;
  end if;
  return new;
end
$$;
revoke execute on function private.clear_stale_body_excerpt() from public;
create trigger articles_clear_stale_body_excerpt before insert or update of body, body_excerpt, body_excerpt_md5
  on public.articles for each row execute function private.clear_stale_body_excerpt();

-- An empty body's excerpt is empty (excerptOf('')); other bodies get theirs when next written, and
-- are derived on read meanwhile (the markdown parse is the platform's, not SQL's).
update public.articles set body_excerpt = '', body_excerpt_md5 = md5(body) where body = '';

create or replace function private.author_names(p_ids uuid[]) returns table (id uuid, name text)
language plpgsql stable security definer set search_path = '' as $$
begin
  return query
    select u.id, coalesce(nullif(trim(u.raw_user_meta_data ->> 'full_name'), ''),
                          nullif(trim(u.raw_user_meta_data ->> 'name'), ''),
                          split_part(u.email, '@', 1))::text
    from auth.users u
    join public.tenant_members m on m.user_id = u.id and m.tenant_id = (select private.request_tenant_id())
    where u.id = any (p_ids);
end
$$;

-- private.request_published_only (20261201040300), which the published-only policies call once per
-- statement, was a SQL function with SET search_path: never inlined, so planned on every call
-- (about 20 µs; on each read by slug of an article with tags, pg_stat_statements: plans = calls).
-- As plpgsql its statement's plan is cached per connection. Same result, privileges and grants.
create or replace function private.request_published_only() returns boolean
language plpgsql stable set search_path = '' as $fn$
begin
  return coalesce((nullif(pg_catalog.current_setting('request.jwt.claims', true), '')::jsonb ->> 'published_only')::boolean, false);
end
$fn$;

-- private.article_by_slug, as in 20261203000000, with body_excerpt among its columns.
drop function private.article_by_slug(text, uuid, uuid, text);

create function private.article_by_slug(p_claims text, p_tenant uuid, p_site uuid, p_slug text)
returns table (id uuid, site_id uuid, slug text, title text, body text, excerpt text,
               feature_image_url text, feature_image_alt text, author_id uuid, author_name text,
               meta_title text, meta_description text, canonical_url text, status text,
               publish_at timestamptz, published_at timestamptz, created_at timestamptz,
               updated_at timestamptz, revision_id uuid, published_revision_id uuid,
               review_requested_at timestamptz, tags json, redirect_to text, body_excerpt text)
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
           hit.redirect_to, a.body_excerpt
    from public.articles a join hit on hit.id = a.id;
end
$$;
revoke execute on function private.article_by_slug(text, uuid, uuid, text) from public, anon, authenticated;
