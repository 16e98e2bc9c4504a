-- Revisions (docs/content.md): every save of an article keeps its fields as a revision, the
-- newest 50 per article (older ones are pruned on save, never the live one). The article points at
-- its current revision and at the one that went live when it was published, so a client sees
-- whether the live version differs from the draft being edited.
create table public.article_revisions (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references public.tenants (id) on delete cascade,
  article_id uuid not null references public.articles (id) on delete cascade,
  -- 1, 2, 3, ... per article, in the order of the saves.
  number integer not null check (number >= 1),
  title text not null,
  body text not null,
  -- The other fields as the article had them (slug, excerpt, feature_image, tags, author_id, meta_*).
  fields jsonb not null,
  -- created, updated, restored (from a revision), published (published with new fields).
  reason text not null check (reason in ('created', 'updated', 'restored')),
  created_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default date_trunc('milliseconds', now()),
  unique (article_id, number)
);
create index article_revisions_tenant_id_idx on public.article_revisions (tenant_id);

alter table public.articles
  add column revision_id uuid references public.article_revisions (id) on delete set null,
  add column published_revision_id uuid references public.article_revisions (id) on delete set null;

alter table public.article_revisions enable row level security;
create policy article_revisions_all on public.article_revisions to authenticated
  using (tenant_id = (select private.request_tenant_id()))
  with check (tenant_id = (select private.request_tenant_id()));
grant select, insert, delete on public.article_revisions to authenticated;
