-- Affiliate catalogs (sync-affiliate; docs/affiliate.md). A destination is one site of the tenant
-- that articles embed products on; affiliate programs (a network, merchant ids, a feed or API
-- query, a tracking id, a vault credential of category Affiliate) are attached to it, and the
-- sync job imports their catalogs into affiliate_products. Members read everything; owners and
-- admins manage destinations and programs; only the service (the sync job) writes products.

insert into public.providers (id, slug, name, category, icon_url) values
  ('0b5f3c2e-6d1a-4e7b-9a42-3f8c1d2e5a60', 'awin', 'Awin', 'Affiliate', 'https://www.awin.com/favicon.ico')
on conflict (id) do nothing;

create table public.affiliate_destinations (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references public.tenants (id) on delete cascade,
  site_id uuid not null,
  name text not null check (length(name) between 1 and 200),
  schedule text check (schedule in ('hourly', 'every_6_hours', 'daily')),
  enabled boolean not null default true,
  next_run_at timestamptz,
  last_run_at timestamptz,
  last_job_id uuid,
  last_status text check (last_status in ('succeeded', 'failed')),
  last_error text,
  created_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default date_trunc('milliseconds', now()),
  updated_at timestamptz not null default date_trunc('milliseconds', now()),
  unique (tenant_id, id),
  unique (tenant_id, site_id),
  foreign key (tenant_id, site_id) references public.sites (tenant_id, id) on delete cascade
);
create index affiliate_destinations_tenant_id_idx on public.affiliate_destinations (tenant_id, created_at desc, id desc);
create index affiliate_destinations_due_idx on public.affiliate_destinations (next_run_at)
  where enabled and schedule is not null;

alter table public.affiliate_destinations enable row level security;
create policy affiliate_destinations_select on public.affiliate_destinations for select to authenticated
  using (tenant_id in (select private.user_tenant_ids()));
create policy affiliate_destinations_insert on public.affiliate_destinations for insert to authenticated
  with check ((select private.has_tenant_role(tenant_id, array['owner', 'admin'])));
create policy affiliate_destinations_update on public.affiliate_destinations for update to authenticated
  using ((select private.has_tenant_role(tenant_id, array['owner', 'admin'])));
create policy affiliate_destinations_delete on public.affiliate_destinations for delete to authenticated
  using ((select private.has_tenant_role(tenant_id, array['owner', 'admin'])));
grant select, insert, delete on public.affiliate_destinations to authenticated;
grant update (name, schedule, enabled, next_run_at, updated_at) on public.affiliate_destinations to authenticated;

create table public.affiliate_programs (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references public.tenants (id) on delete cascade,
  destination_id uuid not null,
  network text not null check (network in ('awin', 'cj', 'amazon', 'feed')),
  name text not null check (length(name) between 1 and 200),
  merchant_ids text[] not null default '{}',
  -- The network's own settings: feed ids and columns (Awin), a search query (CJ, Amazon), a feed
  -- URL and format (feed). Validated by the adapter's schema (shared/services/affiliate/schema.ts).
  config jsonb not null,
  tracking_id text check (length(tracking_id) <= 200),
  -- Which vault credential (category Affiliate) the sync uses; by name within the network's provider.
  credential_name text check (length(credential_name) <= 100),
  currency text check (currency ~ '^[A-Z]{3}$'),
  created_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default date_trunc('milliseconds', now()),
  updated_at timestamptz not null default date_trunc('milliseconds', now()),
  unique (tenant_id, id),
  foreign key (tenant_id, destination_id) references public.affiliate_destinations (tenant_id, id) on delete cascade
);
create index affiliate_programs_tenant_id_idx on public.affiliate_programs (tenant_id, destination_id, created_at, id);

alter table public.affiliate_programs enable row level security;
create policy affiliate_programs_select on public.affiliate_programs for select to authenticated
  using (tenant_id in (select private.user_tenant_ids()));
create policy affiliate_programs_insert on public.affiliate_programs for insert to authenticated
  with check ((select private.has_tenant_role(tenant_id, array['owner', 'admin'])));
create policy affiliate_programs_delete on public.affiliate_programs for delete to authenticated
  using ((select private.has_tenant_role(tenant_id, array['owner', 'admin'])));
grant select, insert, delete on public.affiliate_programs to authenticated;

-- One row per (program, external id). Prices are exact decimals (numeric). The last price is kept:
-- when a sync sees a new price, the old one moves to previous_price and price_changed_at is set.
create table public.affiliate_products (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references public.tenants (id) on delete cascade,
  destination_id uuid not null,
  program_id uuid not null,
  network text not null,
  external_id text not null check (length(external_id) between 1 and 500),
  merchant text,
  title text not null,
  description text,
  category text,
  price numeric not null check (price >= 0),
  sale_price numeric check (sale_price >= 0),
  currency text not null check (currency ~ '^[A-Z]{3}$'),
  availability text not null check (availability in ('in_stock', 'out_of_stock', 'preorder', 'backorder', 'unavailable')),
  image_url text,
  affiliate_url text not null,
  gtin text,
  raw jsonb not null,
  previous_price numeric,
  previous_sale_price numeric,
  price_changed_at timestamptz,
  -- The job whose sync last listed the product; a complete sync marks the others unavailable.
  last_sync_job_id uuid not null,
  last_synced_at timestamptz not null,
  created_at timestamptz not null default date_trunc('milliseconds', now()),
  unique (program_id, external_id),
  unique (tenant_id, id),
  foreign key (tenant_id, program_id) references public.affiliate_programs (tenant_id, id) on delete cascade
);
create index affiliate_products_tenant_id_idx on public.affiliate_products (tenant_id, destination_id, created_at desc, id desc);
create index affiliate_products_program_job_idx on public.affiliate_products (program_id, last_sync_job_id);

alter table public.affiliate_products enable row level security;
create policy affiliate_products_select on public.affiliate_products for select to authenticated
  using (tenant_id in (select private.user_tenant_ids()));
grant select on public.affiliate_products to authenticated;

-- sync-affiliate's sweep: scheduled destinations that are due, retries, and stalled sync jobs.
select private.schedule_job('sync-affiliate-sweep', '*/5 * * * *', 'sync-affiliate/jobs/sweep');
