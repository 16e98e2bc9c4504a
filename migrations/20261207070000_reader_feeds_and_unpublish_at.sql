-- Reaching readers (docs/content.md, docs/adr/0033-public-feeds.md).
--
-- A site's reader settings: public_feeds makes its RSS, Atom and JSON feeds and its sitemap
-- public (off by default); article_url_pattern is where its articles live on the web
-- ('https://blog.example.com/{slug}'), used for the links of feeds, sitemaps and structured data;
-- article_schema_type is the schema.org type its structured data names.
alter table public.sites
  add column public_feeds boolean not null default false,
  add column article_url_pattern text
    check (article_url_pattern is null
           or (length(article_url_pattern) <= 500 and article_url_pattern like 'https://%'
               and position('{slug}' in article_url_pattern) > 0)),
  add column article_schema_type text not null default 'Article'
    check (article_schema_type in ('Article', 'NewsArticle', 'BlogPosting'));

-- A published article taken back to draft by the publish-scheduled job once unpublish_at has
-- come (one content.unpublished). A scheduled window is a publish_at before the unpublish_at.
alter table public.articles
  add column unpublish_at timestamptz,
  add constraint articles_unpublish_after_publish_check
    check (unpublish_at is null or publish_at is null or unpublish_at > publish_at);

-- The job's claim: published articles whose unpublish_at has come, oldest first.
create index articles_unpublish_due_idx on public.articles (unpublish_at, id)
  where status = 'published' and unpublish_at is not null;

-- A public feed's site, found by id before any tenant is known: the site's tenant and the acting
-- user its reads run as (the tenant's first owner, as for the service role's calls), only while
-- its feeds are public. Nothing else of the tenant is read here; the feed's rows are then read
-- under row-level security with published-only claims. Executed by the owner pool only.
create function private.public_feed_site(p_site uuid)
returns table (tenant_id uuid, acting_user_id uuid, name text, domain text, article_url_pattern text,
               article_schema_type text, updated_at timestamptz)
language sql stable set search_path = '' as $$
  select s.tenant_id, m.user_id, s.name, s.domain, s.article_url_pattern, s.article_schema_type, s.updated_at
  from public.sites s
  cross join lateral (
    select tm.user_id from public.tenant_members tm
    where tm.tenant_id = s.tenant_id and tm.role = 'owner'
    order by tm.created_at, tm.user_id limit 1
  ) m
  where s.id = p_site and s.public_feeds
$$;
revoke execute on function private.public_feed_site(uuid) from public;
