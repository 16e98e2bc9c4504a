-- Preview links (docs/content.md, docs/adr/0033-public-feeds.md "Preview links").
--
-- A link an editor makes to an article as it stands now (a draft, or a published article's edits
-- not yet published), readable without an account until it expires or is revoked. Only the
-- SHA-256 of the token is kept; token_prefix ('prv_' and four characters) is for display.
create table public.article_previews (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references public.tenants(id) on delete cascade,
  article_id uuid not null references public.articles(id) on delete cascade,
  token_hash text not null unique check (token_hash ~ '^[0-9a-f]{64}$'),
  token_prefix text not null check (length(token_prefix) <= 16),
  created_by uuid references auth.users(id) on delete set null,
  created_at timestamptz not null default date_trunc('milliseconds', now()),
  expires_at timestamptz not null,
  revoked_at timestamptz,
  check (expires_at > created_at and expires_at <= created_at + interval '30 days')
);
create index article_previews_tenant_id_idx on public.article_previews (tenant_id);
create index article_previews_article_idx on public.article_previews (article_id, created_at desc);

alter table public.article_previews enable row level security;
create policy article_previews_all on public.article_previews to authenticated
  using (tenant_id = (select private.request_tenant_id()))
  with check (tenant_id = (select private.request_tenant_id()));
-- A preview link shows a draft to anyone holding it: a release decision, the editors' (ADR 0027).
-- A contributor reads the links of its tenant and makes, changes and revokes none.
create policy article_previews_contributor_insert on public.article_previews as restrictive for insert
  to authenticated with check ((select private.request_not_contributor()));
create policy article_previews_contributor_update on public.article_previews as restrictive for update
  to authenticated using ((select private.request_not_contributor()));
create policy article_previews_contributor_delete on public.article_previews as restrictive for delete
  to authenticated using ((select private.request_not_contributor()));
create policy published_only_sees_nothing on public.article_previews as restrictive for all to authenticated
  using (not (select private.request_published_only()))
  with check (not (select private.request_published_only()));
-- The token's hash is written, never read back by the API role.
grant select (id, tenant_id, article_id, token_prefix, created_by, created_at, expires_at, revoked_at),
  insert (tenant_id, article_id, token_hash, token_prefix, created_by, created_at, expires_at),
  update (revoked_at)
  on public.article_previews to authenticated;

-- The link's article, found by the token's hash before any tenant is known: its tenant and the
-- user its read runs as (the link's maker, while still an editor of the tenant: a link dies with
-- its maker's membership or editor role, as a key does). Nothing for a revoked or expired link
-- (p_now is the platform's clock). The article is then read under row-level security with the
-- maker's claims. Executed by the owner pool only.
create function private.article_preview_by_token(p_hash text, p_now timestamptz)
returns table (token_hash text, tenant_id uuid, article_id uuid, acting_user_id uuid, expires_at timestamptz)
language sql stable set search_path = '' as $$
  select p.token_hash, p.tenant_id, p.article_id, p.created_by, p.expires_at
  from public.article_previews p
  join public.tenant_members m
    on m.tenant_id = p.tenant_id and m.user_id = p.created_by and m.role in ('owner', 'admin', 'member')
  where p.token_hash = p_hash and p.revoked_at is null and p.expires_at > p_now
$$;
revoke execute on function private.article_preview_by_token(text, timestamptz) from public;
