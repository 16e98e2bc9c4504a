-- The request log (docs/request-log.md): one row per API request a tenant's key or signed-in member
-- made, written in batches by each instance's buffer (shared/infra/hot-path/request-log.ts), never
-- on the request path. Owners and admins read every row of their tenant; a member reads the rows
-- made as themselves (signed in, or with a key they created). Nobody writes through the API: the
-- buffer writes with the owner pool, and the prune-retention job deletes rows past
-- REQUEST_LOG_RETENTION_DAYS.

create table public.api_request_log (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references public.tenants (id) on delete cascade,
  at timestamptz not null,
  request_id text not null check (length(request_id) <= 128),
  method text not null check (length(method) <= 10),
  path text not null check (length(path) <= 512),
  status smallint not null check (status between 100 and 599),
  -- The key that made the request (null: a signed-in member). No foreign key: the row outlives
  -- nothing it names, and a key is revoked, never deleted, while its tenant lives.
  key_id uuid,
  -- The acting user: the member, or the key's creator.
  user_id uuid,
  latency_ms integer not null check (latency_ms >= 0),
  -- allowed | limited; null when no rate limit was taken.
  rate_limit text check (rate_limit in ('allowed', 'limited')),
  rate_remaining integer,
  -- counted | exceeded; null when the request was not metered.
  quota text check (quota in ('counted', 'exceeded'))
);
create index api_request_log_tenant_at_idx on public.api_request_log (tenant_id, at desc, id desc);
create index api_request_log_key_at_idx on public.api_request_log (key_id, at desc, id desc) where key_id is not null;
create index api_request_log_at_idx on public.api_request_log (at);

alter table public.api_request_log enable row level security;
create policy api_request_log_select on public.api_request_log for select to authenticated
  using ((select private.has_tenant_role(tenant_id, array['owner', 'admin']))
         or (tenant_id in (select private.user_tenant_ids()) and user_id = (select auth.uid())));
grant select on public.api_request_log to authenticated;

-- Rows older than the retention period, removed by the daily prune-retention job in the same
-- statement as the other prunes.
create function private.prune_request_log(p_now timestamptz, p_days integer)
returns jsonb
language plpgsql set search_path = '' as $$
declare
  n integer;
begin
  delete from public.api_request_log where at < p_now - make_interval(days => greatest(p_days, 1));
  get diagnostics n = row_count;
  return jsonb_build_object('request_log', n);
end
$$;
revoke all on function private.prune_request_log(timestamptz, integer) from public;
