-- Social sources and their scraped items (scrape-social; docs/pipeline.md). A source is one feed
-- or one scraping-provider run that feeds one site, with an optional schedule. Members read
-- sources and items; owners and admins manage sources; only the service (the scrape job) writes
-- items and a source's fetch state (conditional GET validators, last run).

create table public.sources (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references public.tenants (id) on delete cascade,
  site_id uuid not null,
  name text not null check (length(name) between 1 and 200),
  kind text not null check (kind in ('feed', 'apify')),
  config jsonb not null,
  schedule text check (schedule in ('every_15_minutes', 'hourly', 'every_6_hours', 'daily')),
  enabled boolean not null default true,
  next_run_at timestamptz,
  etag text,
  last_modified text,
  last_run_at timestamptz,
  last_job_id uuid,
  last_status text check (last_status in ('succeeded', 'failed')),
  last_error text,
  created_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default date_trunc('milliseconds', now()),
  updated_at timestamptz not null default date_trunc('milliseconds', now()),
  unique (tenant_id, id),
  foreign key (tenant_id, site_id) references public.sites (tenant_id, id) on delete cascade
);
create index sources_tenant_id_idx on public.sources (tenant_id, created_at desc, id desc);
create index sources_site_id_idx on public.sources (site_id);
create index sources_due_idx on public.sources (next_run_at) where enabled and schedule is not null;

alter table public.sources enable row level security;
create policy sources_select on public.sources for select to authenticated
  using (tenant_id in (select private.user_tenant_ids()));
create policy sources_insert on public.sources for insert to authenticated
  with check ((select private.has_tenant_role(tenant_id, array['owner', 'admin'])));
create policy sources_update on public.sources for update to authenticated
  using ((select private.has_tenant_role(tenant_id, array['owner', 'admin'])));
create policy sources_delete on public.sources for delete to authenticated
  using ((select private.has_tenant_role(tenant_id, array['owner', 'admin'])));
grant select, insert, delete on public.sources to authenticated;
grant update (name, site_id, config, schedule, enabled, next_run_at, etag, last_modified, updated_at)
  on public.sources to authenticated;

create table public.source_items (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references public.tenants (id) on delete cascade,
  source_id uuid not null,
  -- The item's guid (feeds), id (JSON Feed, Apify) or, failing those, its link.
  external_id text not null check (length(external_id) between 1 and 2000),
  url text,
  title text,
  text text,
  author text,
  media jsonb not null default '[]',
  published_at timestamptz,
  created_at timestamptz not null default date_trunc('milliseconds', now()),
  unique (source_id, external_id),
  unique (tenant_id, id),
  foreign key (tenant_id, source_id) references public.sources (tenant_id, id) on delete cascade
);
create index source_items_tenant_id_idx on public.source_items (tenant_id, source_id, created_at desc, id desc);

alter table public.source_items enable row level security;
create policy source_items_select on public.source_items for select to authenticated
  using (tenant_id in (select private.user_tenant_ids()));
grant select on public.source_items to authenticated;
