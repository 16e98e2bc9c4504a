-- Inbound commerce webhooks (Shopify, WooCommerce): connected stores, the delivery queue, and
-- the synced orders and products. See docs/commerce.md. Every table holds tenant data: RLS with
-- the spec's rule, tenant_id indexed. Receiving and processing run on the owner connection
-- (service role; the tenant is found from the store and every statement scopes by it).

create table public.commerce_stores (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references public.tenants (id) on delete cascade,
  platform text not null check (platform in ('shopify', 'woocommerce')),
  -- Shopify: the shop's myshopify.com host (matched against X-Shopify-Shop-Domain);
  -- WooCommerce: the site URL (informational; deliveries name the store in the path).
  shop text not null check (length(shop) between 1 and 2048),
  name text not null check (length(name) between 1 and 200),
  -- Vault ciphertext (purpose 'commerce-webhook-secret'): verifying needs the plaintext.
  secret_ciphertext text not null,
  secret_updated_at timestamptz not null default date_trunc('milliseconds', now()),
  created_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default date_trunc('milliseconds', now()),
  updated_at timestamptz not null default date_trunc('milliseconds', now()),
  unique (tenant_id, id),
  unique (tenant_id, platform, shop)
);
create index commerce_stores_tenant_id_idx on public.commerce_stores (tenant_id, created_at desc, id);
-- The receiver finds Shopify stores by domain across tenants (the signature then decides which).
create index commerce_stores_shop_idx on public.commerce_stores (platform, shop);

-- One row per delivery a shop sent: the queue itself. Inserted by the receiver in one statement
-- (dedupe on (store_id, webhook_id)); claimed by processors with FOR UPDATE SKIP LOCKED and a
-- lease. status: pending -> processed | failed (dead letter, replayable); ignored for topics
-- outside the five. The raw payload is kept only while it may still be processed.
create table public.commerce_deliveries (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null,
  store_id uuid not null,
  platform text not null,
  topic text not null check (length(topic) between 1 and 200),
  webhook_id text not null check (length(webhook_id) between 1 and 200),
  event_id text check (length(event_id) <= 200),
  triggered_at timestamptz,
  api_version text check (length(api_version) <= 50),
  payload bytea,
  payload_bytes integer not null,
  status text not null default 'pending' check (status in ('pending', 'processed', 'ignored', 'failed')),
  -- What processing did: applied, stale (older than what we hold), or the dead-letter reason.
  outcome text,
  last_error text,
  attempts integer not null default 0,
  -- attempts when the current run of the retry schedule began (a replay starts a new run).
  schedule_base integer not null default 0,
  next_attempt_at timestamptz,
  locked_until timestamptz,
  lease_id uuid,
  received_at timestamptz not null,
  processed_at timestamptz,
  updated_at timestamptz not null,
  foreign key (tenant_id, store_id) references public.commerce_stores (tenant_id, id) on delete cascade,
  unique (store_id, webhook_id)
);
create index commerce_deliveries_tenant_id_idx on public.commerce_deliveries (tenant_id, received_at desc, id);
create index commerce_deliveries_due_idx on public.commerce_deliveries (next_attempt_at) where status = 'pending';

create table public.commerce_orders (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null,
  store_id uuid not null,
  external_id text not null,
  order_number text,
  currency text not null,
  total_price numeric not null,
  subtotal_price numeric,
  total_tax numeric,
  total_discounts numeric,
  total_shipping numeric,
  financial_status text,
  fulfillment_status text,
  source_status text,
  -- The shop's customer id only: no names, e-mail, addresses or phone numbers are kept.
  customer_ref text,
  line_items jsonb not null,
  source_created_at timestamptz,
  source_updated_at timestamptz not null,
  created_at timestamptz not null,
  synced_at timestamptz not null,
  foreign key (tenant_id, store_id) references public.commerce_stores (tenant_id, id) on delete cascade,
  unique (store_id, external_id)
);
create index commerce_orders_tenant_id_idx on public.commerce_orders (tenant_id, created_at desc, id);

create table public.commerce_products (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null,
  store_id uuid not null,
  external_id text not null,
  -- Null on a tombstone whose create never arrived (products/delete before products/create).
  title text,
  handle text,
  status text,
  product_type text,
  vendor text,
  price_min numeric,
  price_max numeric,
  currency text,
  inventory_quantity integer,
  variants jsonb not null default '[]',
  images jsonb not null default '[]',
  source_created_at timestamptz,
  source_updated_at timestamptz not null,
  -- products/delete marks the product deleted (a tombstone) rather than removing the row.
  deleted_at timestamptz,
  created_at timestamptz not null,
  synced_at timestamptz not null,
  foreign key (tenant_id, store_id) references public.commerce_stores (tenant_id, id) on delete cascade,
  unique (store_id, external_id)
);
create index commerce_products_tenant_id_idx on public.commerce_products (tenant_id, created_at desc, id);

alter table public.commerce_stores enable row level security;
create policy commerce_stores_select on public.commerce_stores for select to authenticated
  using (tenant_id in (select private.user_tenant_ids()));
create policy commerce_stores_insert on public.commerce_stores for insert to authenticated
  with check ((select private.has_tenant_role(tenant_id, array['owner', 'admin'])));
create policy commerce_stores_update on public.commerce_stores for update to authenticated
  using ((select private.has_tenant_role(tenant_id, array['owner', 'admin'])))
  with check ((select private.has_tenant_role(tenant_id, array['owner', 'admin'])));
create policy commerce_stores_delete on public.commerce_stores for delete to authenticated
  using ((select private.has_tenant_role(tenant_id, array['owner', 'admin'])));
grant select (id, tenant_id, platform, shop, name, secret_updated_at, created_by, created_at, updated_at),
  insert, delete on public.commerce_stores to authenticated;
grant update (shop, name, secret_ciphertext, secret_updated_at, updated_at) on public.commerce_stores to authenticated;

alter table public.commerce_deliveries enable row level security;
create policy commerce_deliveries_select on public.commerce_deliveries for select to authenticated
  using (tenant_id in (select private.user_tenant_ids()));
create policy commerce_deliveries_update on public.commerce_deliveries for update to authenticated
  using ((select private.has_tenant_role(tenant_id, array['owner', 'admin'])))
  with check ((select private.has_tenant_role(tenant_id, array['owner', 'admin'])));
-- Tenants read the log (never the payload) and replay dead letters; the rest is the processor's.
grant select (id, tenant_id, store_id, platform, topic, webhook_id, event_id, triggered_at, api_version,
              payload_bytes, status, outcome, last_error, attempts, next_attempt_at, received_at,
              processed_at, updated_at)
  on public.commerce_deliveries to authenticated;
grant update (status, schedule_base, next_attempt_at, last_error, updated_at) on public.commerce_deliveries to authenticated;

alter table public.commerce_orders enable row level security;
create policy commerce_orders_select on public.commerce_orders for select to authenticated
  using (tenant_id in (select private.user_tenant_ids()));
grant select on public.commerce_orders to authenticated;

alter table public.commerce_products enable row level security;
create policy commerce_products_select on public.commerce_products for select to authenticated
  using (tenant_id in (select private.user_tenant_ids()));
grant select on public.commerce_products to authenticated;

-- Production: pg_cron sweeps due deliveries every minute (each receipt also kicks processing).
select private.schedule_job('commerce-process', '* * * * *', 'commerce-webhook/jobs/process');
