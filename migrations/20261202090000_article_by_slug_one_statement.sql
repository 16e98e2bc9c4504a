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
               updated_at timestamptz, revision_id uuid, published_revision_id uuid, tags json,
               redirect_to text)
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
           a.created_at, a.updated_at, a.revision_id, a.published_revision_id,
           coalesce((select json_agg(json_build_object('id', t.id, 'name', t.name, 'slug', t.slug) order by x.position)
                     from public.article_tags x join public.tags t on t.tenant_id = x.tenant_id and t.id = x.tag_id
                     where x.article_id = a.id), '[]'::json),
           hit.redirect_to
    from public.articles a join hit on hit.id = a.id;
end
$$;
revoke execute on function private.article_by_slug(text, uuid, uuid, text) from public, anon, authenticated;
