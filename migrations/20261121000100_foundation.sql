-- Tenants, members, API keys, content, the event outbox, rate-limit counters, notifications.
-- Every table holding tenant data has row-level security with the spec's rule: a row is visible
-- only when its tenant_id belongs to the calling user's tenants.

-- Helpers live in a schema that PostgREST does not expose.
create schema if not exists private;
revoke all on schema private from public;
grant usage on schema private to authenticated;
alter default privileges in schema private revoke execute on functions from public;

-- Supabase grants anon and authenticated ALL on every new table and sequence in public by default,
-- which would override the explicit (column) grants below and open them through PostgREST.
-- Every grant in these migrations is explicit, so turn that default off (a no-op elsewhere).
alter default privileges in schema public revoke all on tables from anon, authenticated;
alter default privileges in schema public revoke all on sequences from anon, authenticated;

create table public.tenants (
  id uuid primary key default gen_random_uuid(),
  name text not null check (length(name) between 1 and 200),
  plan text not null default 'free' check (plan in ('free', 'pro', 'business', 'enterprise')),
  settings jsonb not null default '{}',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table public.tenant_members (
  tenant_id uuid not null references public.tenants (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  role text not null check (role in ('owner', 'admin', 'member')),
  created_at timestamptz not null default now(),
  primary key (tenant_id, user_id)
);
create index tenant_members_user_id_idx on public.tenant_members (user_id);

-- security definer: reads memberships without recursing into tenant_members' own policy.
create function private.user_tenant_ids() returns setof uuid
language sql stable security definer set search_path = '' as $$
  select tenant_id from public.tenant_members where user_id = auth.uid()
$$;

create function private.has_tenant_role(target_tenant uuid, roles text[]) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (
    select 1 from public.tenant_members
    where tenant_id = target_tenant and user_id = auth.uid() and role = any (roles)
  )
$$;

grant execute on function private.user_tenant_ids(), private.has_tenant_role(uuid, text[]) to authenticated;

alter table public.tenants enable row level security;
create policy tenants_select on public.tenants for select to authenticated
  using (id in (select private.user_tenant_ids()));
create policy tenants_update on public.tenants for update to authenticated
  using ((select private.has_tenant_role(id, array['owner', 'admin'])));
grant select, update (name, settings, updated_at) on public.tenants to authenticated;

alter table public.tenant_members enable row level security;
create policy tenant_members_select on public.tenant_members for select to authenticated
  using (tenant_id in (select private.user_tenant_ids()));
grant select on public.tenant_members to authenticated;

-- Platform keys (svc_live_/svc_test_) and tool-server keys (mcp_live_/mcp_dev_/srv_).
create table public.api_keys (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references public.tenants (id) on delete cascade,
  created_by uuid references auth.users (id) on delete set null,
  name text not null check (length(name) between 1 and 100),
  family text not null check (family in ('platform', 'tool_server')),
  environment text not null check (environment in ('production', 'sandbox', 'development', 'service')),
  key_prefix text not null,
  key_hash text not null unique,
  scopes text[] not null default '{}',
  rate_limit_per_minute integer not null check (rate_limit_per_minute between 1 and 1000),
  expires_at timestamptz,
  last_used_at timestamptz,
  revoked_at timestamptz,
  created_at timestamptz not null default now()
);
create index api_keys_tenant_id_idx on public.api_keys (tenant_id, created_at desc, id);

alter table public.api_keys enable row level security;
create policy api_keys_select on public.api_keys for select to authenticated
  using (tenant_id in (select private.user_tenant_ids()));
create policy api_keys_insert on public.api_keys for insert to authenticated
  with check ((select private.has_tenant_role(tenant_id, array['owner', 'admin'])));
create policy api_keys_update on public.api_keys for update to authenticated
  using ((select private.has_tenant_role(tenant_id, array['owner', 'admin'])));
-- Column grants: a tenant may rename or revoke a key, never change its hash, scopes or owner.
grant select, insert on public.api_keys to authenticated;
grant update (name, revoked_at) on public.api_keys to authenticated;

create table public.sites (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references public.tenants (id) on delete cascade,
  name text not null check (length(name) between 1 and 200),
  domain text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, id)
);
create index sites_tenant_id_idx on public.sites (tenant_id, created_at, id);

create table public.articles (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references public.tenants (id) on delete cascade,
  site_id uuid not null,
  title text not null check (length(title) between 1 and 500),
  body text not null default '',
  status text not null default 'draft' check (status in ('draft', 'published')),
  published_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- An article can only belong to a site of its own tenant.
  foreign key (tenant_id, site_id) references public.sites (tenant_id, id) on delete cascade
);
create index articles_tenant_id_idx on public.articles (tenant_id, created_at, id);
create index articles_site_id_idx on public.articles (site_id);

alter table public.sites enable row level security;
create policy sites_all on public.sites for all to authenticated
  using (tenant_id in (select private.user_tenant_ids()))
  with check (tenant_id in (select private.user_tenant_ids()));
alter table public.articles enable row level security;
create policy articles_all on public.articles for all to authenticated
  using (tenant_id in (select private.user_tenant_ids()))
  with check (tenant_id in (select private.user_tenant_ids()));
grant select, insert, update, delete on public.sites, public.articles to authenticated;

-- Transactional outbox: a change and its event commit together; deliveries are derived from it.
create table public.event_outbox (
  id text primary key check (id like 'evt\_%'),
  seq bigint generated always as identity unique,
  tenant_id uuid not null references public.tenants (id) on delete cascade,
  type text not null,
  data jsonb not null,
  created_at timestamptz not null default now()
);
create index event_outbox_tenant_id_idx on public.event_outbox (tenant_id, seq);

alter table public.event_outbox enable row level security;
create policy event_outbox_select on public.event_outbox for select to authenticated
  using (tenant_id in (select private.user_tenant_ids()));
create policy event_outbox_insert on public.event_outbox for insert to authenticated
  with check (tenant_id in (select private.user_tenant_ids()));
grant select, insert on public.event_outbox to authenticated;

-- Fixed one-minute windows; the atomic upsert makes the count exact across instances.
create table private.rate_limit_counters (
  bucket text not null,
  window_start timestamptz not null,
  hits integer not null,
  primary key (bucket, window_start)
);

-- Envelope encryption: per-tenant data keys wrapped by the master key (see shared/vault.ts).
create table private.tenant_data_keys (
  tenant_id uuid not null references public.tenants (id) on delete cascade,
  version integer not null,
  wrapped_key bytea not null,
  master_version text not null,
  created_at timestamptz not null default now(),
  rewrapped_at timestamptz,
  primary key (tenant_id, version)
);

-- Outgoing notifications (e-mail). dedupe_key makes "notify once" a unique constraint.
create table public.notifications (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid references public.tenants (id) on delete cascade,
  kind text not null,
  recipient text not null,
  subject text not null,
  body text not null,
  dedupe_key text unique,
  status text not null default 'pending' check (status in ('pending', 'sent', 'failed')),
  attempts integer not null default 0,
  last_error text,
  created_at timestamptz not null default now(),
  sent_at timestamptz
);
create index notifications_pending_idx on public.notifications (created_at) where status = 'pending';
create index notifications_tenant_id_idx on public.notifications (tenant_id, created_at);

alter table public.notifications enable row level security;
create policy notifications_select on public.notifications for select to authenticated
  using (tenant_id in (select private.user_tenant_ids()));
grant select on public.notifications to authenticated;
