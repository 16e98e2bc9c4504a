-- Articles gain what a site needs to publish them (docs/content.md): a slug per site, an excerpt,
-- a feature image, tags, an author, and SEO fields. Sites gain a slug per tenant. Existing sites
-- and articles get slugs from their names and titles (duplicates numbered -2, -3, ...); nothing
-- else about them changes.

-- Lower-case ASCII words joined by hyphens, for the backfill below. The API makes slugs in
-- TypeScript (shared/services/content/slug.ts) with a fuller transliteration table; here the
-- common Latin letters with diacritics are folded and anything else becomes a separator. Empty
-- results fall back to `fallback`.
create function private.slug_from_text(p_text text, p_fallback text) returns text
language sql immutable set search_path = '' as $$
  select coalesce(nullif(left(trim(both '-' from left(trim(both '-' from regexp_replace(
    translate(replace(replace(replace(lower(p_text), 'ß', 'ss'), 'æ', 'ae'), 'œ', 'oe'),
      'àáâãäåāăąçćčďđèéêëēėęěğìíîïīįıķĺļľłñńņňòóôõöøōőŕřśşšťţùúûüūůűųýÿźżž',
      'aaaaaaaaacccddeeeeeeeegiiiiiiiklllnnnnnoooooooorrsssttuuuuuuuuyyzzz'),
    '[^a-z0-9]+', '-', 'g')), 120)), 120), ''), p_fallback)
$$;
revoke execute on function private.slug_from_text(text, text) from public;
-- Pure functions; the fill_slug trigger runs them as the inserting role.
grant execute on function private.slug_from_text(text, text) to authenticated;

-- Numbers duplicates within a group in creation order: the first keeps the slug, the next get -2,
-- -3, ... (skipping any number another row already holds).
create function private.unique_slug(p_taken text[], p_base text) returns text
language plpgsql immutable set search_path = '' as $$
declare
  candidate text := p_base;
  n integer := 1;
begin
  while candidate = any (p_taken) loop
    n := n + 1;
    candidate := left(p_base, 120 - length(n::text) - 1) || '-' || n;
  end loop;
  return candidate;
end
$$;
revoke execute on function private.unique_slug(text[], text) from public;
grant execute on function private.unique_slug(text[], text) to authenticated;

alter table public.sites add column slug text;
alter table public.articles
  add column slug text,
  add column excerpt text check (length(excerpt) <= 500),
  add column feature_image_url text check (feature_image_url ~ '^https://' and length(feature_image_url) <= 2000),
  add column feature_image_alt text check (length(feature_image_alt) <= 500),
  add column author_id uuid references auth.users (id) on delete set null,
  add column meta_title text check (length(meta_title) <= 300),
  add column meta_description text check (length(meta_description) <= 500),
  add column canonical_url text check (canonical_url ~ '^https://' and length(canonical_url) <= 2000);

do $$
declare
  r record;
  taken text[];
  v_slug text;
  last_group text := null;
begin
  for r in select id, tenant_id::text as grp, private.slug_from_text(name, 'site') as base
           from public.sites order by tenant_id, created_at, id loop
    if last_group is distinct from r.grp then taken := '{}'; last_group := r.grp; end if;
    v_slug := private.unique_slug(taken, r.base);
    update public.sites s set slug = v_slug where s.id = r.id;
    taken := taken || v_slug;
  end loop;
  last_group := null;
  for r in select id, site_id::text as grp, private.slug_from_text(title, 'article') as base
           from public.articles order by site_id, created_at, id loop
    if last_group is distinct from r.grp then taken := '{}'; last_group := r.grp; end if;
    v_slug := private.unique_slug(taken, r.base);
    update public.articles a set slug = v_slug where a.id = r.id;
    taken := taken || v_slug;
  end loop;
end
$$;

alter table public.sites
  alter column slug set not null,
  add constraint sites_slug_check check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and length(slug) <= 120),
  add constraint sites_tenant_id_slug_key unique (tenant_id, slug);
alter table public.articles
  alter column slug set not null,
  add constraint articles_slug_check check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and length(slug) <= 120),
  add constraint articles_site_id_slug_key unique (site_id, slug);
-- updated_at is left as it was: the backfill is no edit.

-- A row inserted without a slug (by SQL, or a supabase-js client) gets one from its title or name,
-- numbered past the slugs its site (articles) or tenant (sites) already holds. The API sends its
-- own (shared/services/content/slug.ts); this keeps every other writer working.
create function private.fill_slug() returns trigger
language plpgsql set search_path = '' as $$
declare
  base text;
  taken text[];
begin
  if new.slug is not null then
    return new;
  end if;
  if tg_table_name = 'articles' then
    base := private.slug_from_text(new.title, 'article');
    select coalesce(array_agg(a.slug), '{}') into taken from public.articles a
    where a.site_id = new.site_id and (a.slug = base or a.slug like base || '-%');
  else
    base := private.slug_from_text(new.name, 'site');
    select coalesce(array_agg(s.slug), '{}') into taken from public.sites s
    where s.tenant_id = new.tenant_id and (s.slug = base or s.slug like base || '-%');
  end if;
  new.slug := private.unique_slug(taken, base);
  return new;
end
$$;
create trigger articles_fill_slug before insert on public.articles
  for each row execute function private.fill_slug();
create trigger sites_fill_slug before insert on public.sites
  for each row execute function private.fill_slug();

-- The tenant's tags: a name and a slug unique in the tenant; many per article.
create table public.tags (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references public.tenants (id) on delete cascade,
  name text not null check (length(name) between 1 and 100),
  slug text not null check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and length(slug) <= 120),
  created_at timestamptz not null default date_trunc('milliseconds', now()),
  updated_at timestamptz not null default date_trunc('milliseconds', now()),
  unique (tenant_id, id),
  unique (tenant_id, slug)
);
create index tags_tenant_id_idx on public.tags (tenant_id, created_at, id);

create table public.article_tags (
  tenant_id uuid not null references public.tenants (id) on delete cascade,
  article_id uuid not null references public.articles (id) on delete cascade,
  tag_id uuid not null,
  -- The order the article lists its tags in (the first is its primary tag).
  position smallint not null check (position between 0 and 19),
  primary key (article_id, tag_id),
  foreign key (tenant_id, tag_id) references public.tags (tenant_id, id) on delete cascade
);
create index article_tags_tag_id_idx on public.article_tags (tenant_id, tag_id, article_id);

-- Slugs a published article had before: a reader with an old link still finds it.
create table public.article_slug_redirects (
  tenant_id uuid not null references public.tenants (id) on delete cascade,
  site_id uuid not null,
  slug text not null,
  article_id uuid not null references public.articles (id) on delete cascade,
  created_at timestamptz not null default date_trunc('milliseconds', now()),
  primary key (site_id, slug),
  foreign key (tenant_id, site_id) references public.sites (tenant_id, id) on delete cascade
);
create index article_slug_redirects_tenant_id_idx on public.article_slug_redirects (tenant_id);
create index article_slug_redirects_article_id_idx on public.article_slug_redirects (article_id);

alter table public.tags enable row level security;
create policy tags_all on public.tags to authenticated
  using (tenant_id = (select private.request_tenant_id()))
  with check (tenant_id = (select private.request_tenant_id()));
alter table public.article_tags enable row level security;
create policy article_tags_all on public.article_tags to authenticated
  using (tenant_id = (select private.request_tenant_id()))
  with check (tenant_id = (select private.request_tenant_id()));
alter table public.article_slug_redirects enable row level security;
create policy article_slug_redirects_all on public.article_slug_redirects to authenticated
  using (tenant_id = (select private.request_tenant_id()))
  with check (tenant_id = (select private.request_tenant_id()));
grant select, insert, update, delete on public.tags, public.article_tags, public.article_slug_redirects
  to authenticated;

-- Authors are shown by name, not by e-mail: the name in the user's metadata, else the part of the
-- e-mail before the @. Only for members of the tenant the transaction acts for (fail closed: no
-- tenant, no rows), since auth.users is not readable by API roles.
create function private.author_names(p_ids uuid[]) returns table (id uuid, name text)
language sql stable security definer set search_path = '' as $$
  select u.id, coalesce(nullif(trim(u.raw_user_meta_data ->> 'full_name'), ''),
                        nullif(trim(u.raw_user_meta_data ->> 'name'), ''),
                        split_part(u.email, '@', 1))
  from auth.users u
  join public.tenant_members m on m.user_id = u.id and m.tenant_id = (select private.request_tenant_id())
  where u.id = any (p_ids)
$$;
revoke execute on function private.author_names(uuid[]) from public;
grant execute on function private.author_names(uuid[]) to authenticated;
