-- WebSub push for feed sources (docs/sources.md "Push (WebSub)", docs/adr/0042-websub-push-for-feeds.md).
--
-- One subscription per source whose feed names a hub. The callback address carries a token and the
-- hub signs what it pushes with a secret: both are kept encrypted by the vault (the jobs need them
-- back to renew), and the token's SHA-256 is what the callback compares. Written only by the server
-- (the scrape and push jobs, the callback on the owner pool); members read the state, never the
-- secrets. source_id goes null when the source is deleted so the unsubscribe job still finds the row.
create table public.source_push_subscriptions (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references public.tenants(id) on delete cascade,
  source_id uuid unique references public.sources(id) on delete set null,
  hub_url text not null check (length(hub_url) <= 2000),
  topic_url text not null check (length(topic_url) <= 2000),
  state text not null default 'pending'
    check (state in ('pending', 'active', 'denied', 'expired', 'unsubscribing')),
  token_hash text not null check (token_hash ~ '^[0-9a-f]{64}$'),
  token_ciphertext text not null,
  secret_ciphertext text not null,
  lease_seconds integer check (lease_seconds > 0),
  lease_expires_at timestamptz,
  renew_job_id uuid,
  last_error text check (length(last_error) <= 2000),
  last_push_at timestamptz,
  created_at timestamptz not null default date_trunc('milliseconds', now()),
  updated_at timestamptz not null default date_trunc('milliseconds', now())
);
create index source_push_subscriptions_tenant_id_idx on public.source_push_subscriptions (tenant_id);

alter table public.source_push_subscriptions enable row level security;
create policy source_push_subscriptions_select on public.source_push_subscriptions for select to authenticated
  using (tenant_id = (select private.request_tenant_id()));
create policy published_only_sees_nothing on public.source_push_subscriptions as restrictive for all
  to authenticated
  using (not (select private.request_published_only()))
  with check (not (select private.request_published_only()));
-- The state only: the token, its hash and the secret are never granted to the API role.
grant select (id, tenant_id, source_id, hub_url, topic_url, state, lease_seconds, lease_expires_at, last_error,
  last_push_at, created_at, updated_at)
  on public.source_push_subscriptions to authenticated;
