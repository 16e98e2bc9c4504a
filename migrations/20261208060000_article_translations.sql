-- Translations (docs/content.md "Translations"; docs/adr/0039-article-translations.md).
--
-- A site names its locales: default_locale, and the list of locales its articles may be in (the
-- default among them). An article has a locale (BCP 47, stored in its canonical form as
-- Intl.getCanonicalLocales gives it) and may be a translation of another article of its site:
-- translation_of names the group's source (never a translation), and a group holds at most one
-- article per locale (the source included). Each variant is an article of its own: its own slug
-- (unique in the site as any slug), state, revisions and schedule.
--
-- Existing sites and articles are English ('en'), the default for a site created without locales.

alter table public.sites
  add column default_locale text not null default 'en',
  add column locales text[] not null default '{en}';
alter table public.sites
  add constraint sites_locales_check check (
    cardinality(locales) between 1 and 50 and default_locale = any (locales)
    and length(default_locale) <= 35 and default_locale ~ '^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$');

-- Without a locale given, an article is in its site's default locale (the trigger below fills it
-- before the not-null check, so no write path has to name it).
alter table public.articles
  add column locale text not null default 'en',
  add column translation_of uuid references public.articles(id) on delete set null;
alter table public.articles alter column locale drop default;
alter table public.articles
  add constraint articles_locale_check check (length(locale) <= 35 and locale ~ '^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$'),
  add constraint articles_translation_of_check check (translation_of <> id);

-- One article per locale in a translation group (the source's id names the group). The index also
-- serves the reads that look a group's variants up.
create unique index articles_translation_locale_key on public.articles ((coalesce(translation_of, id)), locale);

create function private.article_locale_default() returns trigger
language plpgsql set search_path = '' as $$
begin
  if new.locale is null then
    select s.default_locale into new.locale from public.sites s where s.id = new.site_id;
  end if;
  return new;
end
$$;
revoke execute on function private.article_locale_default() from public;
create trigger articles_locale_default before insert on public.articles
  for each row execute function private.article_locale_default();

-- private.content_feed, as in 20261207040000, with p_locale: each translation group gives the
-- article in that locale, else the one in its site's default locale, else the group's source
-- (among the articles the caller sees and the status filter lets through); items name their locale.
drop function private.content_feed(text, uuid, integer, timestamptz, uuid, boolean, text, uuid, text, timestamptz, text[], text, uuid, timestamptz, boolean);

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
  p_review_requested boolean,
  p_locale text
)
returns table (object text, id uuid, site_id uuid, slug text, name text, domain text, status text,
               published_at timestamptz, created_at timestamptz, updated_at timestamptz,
               review_requested_at timestamptz, locale text)
language plpgsql set search_path = '' as $$
declare
  -- Status, publication, tags, authors and review are articles' fields: a filter on them leaves sites out.
  want_sites boolean := coalesce(p_type = 'site', true) and p_status is null and p_published_since is null
    and p_tag is null and p_author is null and p_published_before is null and p_review_requested is not true;
  want_articles boolean := coalesce(p_type = 'article', true);
  plain boolean := p_type is null and p_site is null and p_status is null and p_published_since is null
    and p_tag is null and p_author is null and p_published_before is null and p_review_requested is not true
    and coalesce(cardinality(p_words), 0) = 0 and p_locale is null;
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
          (select 'site'::text, s.id, null::uuid, s.slug, s.name, s.domain, null::text, null::timestamptz, s.created_at, s.updated_at, null::timestamptz, null::text
           from public.sites s
           where s.tenant_id = p_tenant
             and (s.created_at, s.id) > (coalesce(p_after_at, '-infinity'), coalesce(p_after_id, '00000000-0000-0000-0000-000000000000'))
           order by s.created_at, s.id
           limit p_limit + 1)
          union all
          (select 'article'::text, a.id, a.site_id, a.slug, a.title, null::text, a.status, a.published_at, a.created_at, a.updated_at, a.review_requested_at, a.locale
           from public.articles a
           where a.tenant_id = p_tenant
             and (a.created_at, a.id) > (coalesce(p_after_at, '-infinity'), coalesce(p_after_id, '00000000-0000-0000-0000-000000000000'))
           order by a.created_at, a.id
           limit p_limit + 1)
        ) c (object, id, site_id, slug, name, domain, status, published_at, created_at, updated_at, review_requested_at, locale)
        order by c.created_at, c.id
        limit p_limit + 1;
    else
      return query
        select c.* from (
          (select 'site'::text, s.id, null::uuid, s.slug, s.name, s.domain, null::text, null::timestamptz, s.created_at, s.updated_at, null::timestamptz, null::text
           from public.sites s
           where s.tenant_id = p_tenant
             and (s.created_at, s.id) < (coalesce(p_after_at, 'infinity'), coalesce(p_after_id, 'ffffffff-ffff-ffff-ffff-ffffffffffff'))
           order by s.created_at desc, s.id desc
           limit p_limit + 1)
          union all
          (select 'article'::text, a.id, a.site_id, a.slug, a.title, null::text, a.status, a.published_at, a.created_at, a.updated_at, a.review_requested_at, a.locale
           from public.articles a
           where a.tenant_id = p_tenant
             and (a.created_at, a.id) < (coalesce(p_after_at, 'infinity'), coalesce(p_after_id, 'ffffffff-ffff-ffff-ffff-ffffffffffff'))
           order by a.created_at desc, a.id desc
           limit p_limit + 1)
        ) c (object, id, site_id, slug, name, domain, status, published_at, created_at, updated_at, review_requested_at, locale)
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
        (select 'site'::text, s.id, null::uuid, s.slug, s.name, s.domain, null::text, null::timestamptz, s.created_at, s.updated_at, null::timestamptz, null::text
         from public.sites s
         where want_sites and s.tenant_id = p_tenant
           and (s.created_at, s.id) > (coalesce(p_after_at, '-infinity'), coalesce(p_after_id, '00000000-0000-0000-0000-000000000000'))
           and (p_site is null or s.id = p_site)
           and s.name ilike all (p_words)
         order by s.created_at, s.id
         limit p_limit + 1)
        union all
        (select 'article'::text, a.id, a.site_id, a.slug, a.title, null::text, a.status, a.published_at, a.created_at, a.updated_at, a.review_requested_at, a.locale
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
           and (p_locale is null or a.id = (
             select v.id from public.articles v
             where v.tenant_id = p_tenant and coalesce(v.translation_of, v.id) = coalesce(a.translation_of, a.id)
               and (p_status is null or v.status = p_status)
             order by v.locale = p_locale desc,
                      v.locale = (select st.default_locale from public.sites st where st.id = v.site_id) desc,
                      v.translation_of is null desc, v.id
             limit 1))
         order by a.created_at, a.id
         limit p_limit + 1)
      ) c (object, id, site_id, slug, name, domain, status, published_at, created_at, updated_at, review_requested_at, locale)
      order by c.created_at, c.id
      limit p_limit + 1;
  else
    return query
      select c.* from (
        (select 'site'::text, s.id, null::uuid, s.slug, s.name, s.domain, null::text, null::timestamptz, s.created_at, s.updated_at, null::timestamptz, null::text
         from public.sites s
         where want_sites and s.tenant_id = p_tenant
           and (s.created_at, s.id) < (coalesce(p_after_at, 'infinity'), coalesce(p_after_id, 'ffffffff-ffff-ffff-ffff-ffffffffffff'))
           and (p_site is null or s.id = p_site)
           and s.name ilike all (p_words)
         order by s.created_at desc, s.id desc
         limit p_limit + 1)
        union all
        (select 'article'::text, a.id, a.site_id, a.slug, a.title, null::text, a.status, a.published_at, a.created_at, a.updated_at, a.review_requested_at, a.locale
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
           and (p_locale is null or a.id = (
             select v.id from public.articles v
             where v.tenant_id = p_tenant and coalesce(v.translation_of, v.id) = coalesce(a.translation_of, a.id)
               and (p_status is null or v.status = p_status)
             order by v.locale = p_locale desc,
                      v.locale = (select st.default_locale from public.sites st where st.id = v.site_id) desc,
                      v.translation_of is null desc, v.id
             limit 1))
         order by a.created_at desc, a.id desc
         limit p_limit + 1)
      ) c (object, id, site_id, slug, name, domain, status, published_at, created_at, updated_at, review_requested_at, locale)
      order by c.created_at desc, c.id desc
      limit p_limit + 1;
  end if;
end
$$;
revoke execute on function private.content_feed(text, uuid, integer, timestamptz, uuid, boolean, text, uuid, text, timestamptz, text[], text, uuid, timestamptz, boolean, text) from public, anon, authenticated;

-- private.article_by_slug, as in 20261207040000, with p_locale and the article's locale,
-- translation_of, alternates (the group's articles the caller sees: id, locale, slug, status) and
-- its site's link settings (for the alternates' URLs). With p_locale the slug's group gives the
-- article in that locale, else in the site's default locale, else the slug's own; an old slug
-- still answers with where it moved. Two statements, each of a fixed shape, so each keeps its
-- generic plan: the read without a locale (the hot one) does not carry the choice.
drop function private.article_by_slug(text, uuid, uuid, text);

create function private.article_by_slug(p_claims text, p_tenant uuid, p_site uuid, p_slug text, p_locale text)
returns table (id uuid, site_id uuid, slug text, title text, body text, excerpt text,
               feature_image_url text, feature_image_alt text, author_id uuid, author_name text,
               meta_title text, meta_description text, canonical_url text, status text,
               publish_at timestamptz, published_at timestamptz, created_at timestamptz,
               updated_at timestamptz, revision_id uuid, published_revision_id uuid,
               review_requested_at timestamptz, tags json, redirect_to text, body_excerpt text,
               locale text, translation_of uuid, alternates json, site_links json)
language plpgsql set search_path = '' as $$
begin
  if p_claims is not null then
    perform pg_catalog.set_config('request.tenant_id', p_tenant::text, true),
            pg_catalog.set_config('request.jwt.claims', p_claims, true),
            pg_catalog.set_config('role', 'authenticated', true);
  end if;
  if p_locale is null then
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
             hit.redirect_to, a.body_excerpt, a.locale, a.translation_of,
             (select json_agg(json_build_object('id', v.id, 'locale', v.locale, 'slug', v.slug, 'status', v.status) order by v.locale)
              from public.articles v
              where v.tenant_id = a.tenant_id and coalesce(v.translation_of, v.id) = coalesce(a.translation_of, a.id)),
             (select json_build_object('article_url_pattern', s.article_url_pattern, 'domain', s.domain)
              from public.sites s where s.id = a.site_id)
      from public.articles a join hit on hit.id = a.id;
  else
    return query
      with hit as (
        (select a.id, null::text as redirect_to from public.articles a
         where a.site_id = p_site and a.slug = p_slug and a.tenant_id = p_tenant)
        union all
        (select a.id, a.slug from public.article_slug_redirects r
         join public.articles a on a.id = r.article_id and a.status = 'published'
         where r.site_id = p_site and r.slug = p_slug and r.tenant_id = p_tenant)
        limit 1
      ),
      chosen as (
        select case when hit.redirect_to is not null then hit.id else (
                 select v.id from public.articles h join public.articles v
                   on v.tenant_id = h.tenant_id and coalesce(v.translation_of, v.id) = coalesce(h.translation_of, h.id)
                 where h.id = hit.id
                 order by v.locale = p_locale desc,
                          v.locale = (select st.default_locale from public.sites st where st.id = h.site_id) desc,
                          v.id = h.id desc
                 limit 1) end as id,
               hit.redirect_to
        from hit
      )
      select a.id, a.site_id, a.slug, a.title, a.body, a.excerpt, a.feature_image_url, a.feature_image_alt,
             a.author_id, (select n.name from private.author_names(array[a.author_id]) n),
             a.meta_title, a.meta_description, a.canonical_url, a.status, a.publish_at, a.published_at,
             a.created_at, a.updated_at, a.revision_id, a.published_revision_id, a.review_requested_at,
             coalesce((select json_agg(json_build_object('id', t.id, 'name', t.name, 'slug', t.slug) order by x.position)
                       from public.article_tags x join public.tags t on t.tenant_id = x.tenant_id and t.id = x.tag_id
                       where x.article_id = a.id), '[]'::json),
             chosen.redirect_to, a.body_excerpt, a.locale, a.translation_of,
             (select json_agg(json_build_object('id', v.id, 'locale', v.locale, 'slug', v.slug, 'status', v.status) order by v.locale)
              from public.articles v
              where v.tenant_id = a.tenant_id and coalesce(v.translation_of, v.id) = coalesce(a.translation_of, a.id)),
             (select json_build_object('article_url_pattern', s.article_url_pattern, 'domain', s.domain)
              from public.sites s where s.id = a.site_id)
      from public.articles a join chosen on chosen.id = a.id;
  end if;
end
$$;
revoke execute on function private.article_by_slug(text, uuid, uuid, text, text) from public, anon, authenticated;
