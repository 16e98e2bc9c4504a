-- The key-authenticated hot path without per-request writes (docs/adr/0004-rate-limits-in-postgres.md):
-- a change feed that tells every instance's verified-key and membership cache what to drop, rate
-- limits taken as leases of several tokens, and quota taken as reserved blocks.

-- What changed in authorization, for the instances' caches. Each row names a key (by its hash), a
-- user's membership of a tenant, or a tenant (its plan). Instances poll it (and are woken by
-- NOTIFY where their connection can LISTEN); rows older than a few minutes are of no use to
-- anyone and the prune-rate-limits job deletes them.
create table private.auth_changes (
  id bigint generated always as identity primary key,
  changed_at timestamptz not null default clock_timestamp(),
  key_hash text,
  user_id uuid,
  tenant_id uuid
);
create index auth_changes_changed_at_idx on private.auth_changes (changed_at);

-- Security definer: members revoke keys and leave tenants as role authenticated, which may not
-- write to private. Fails closed: if the row cannot be written the change itself is rolled back.
create function private.note_auth_change() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  r record := coalesce(new, old);
begin
  if tg_table_name = 'api_keys' then
    insert into private.auth_changes (key_hash, user_id, tenant_id) values (r.key_hash, r.created_by, r.tenant_id);
    if tg_op = 'UPDATE' and old.key_hash is distinct from new.key_hash then
      insert into private.auth_changes (key_hash) values (old.key_hash);
    end if;
  elsif tg_table_name = 'tenant_members' then
    insert into private.auth_changes (user_id, tenant_id) values (r.user_id, r.tenant_id);
    if tg_op = 'UPDATE' and (old.user_id, old.tenant_id) is distinct from (new.user_id, new.tenant_id) then
      insert into private.auth_changes (user_id, tenant_id) values (old.user_id, old.tenant_id);
    end if;
  else
    insert into private.auth_changes (tenant_id) values (r.id);
  end if;
  perform pg_notify('auth_changes', '');
  return null;
end
$$;
revoke execute on function private.note_auth_change() from public;

-- last_used_at is not in the column list: its minute-resolution updates change no authorization.
create trigger api_keys_auth_change
  after update of revoked_at, expires_at, scopes, rate_limit_per_minute, family, created_by, tenant_id, key_hash
  or delete on public.api_keys
  for each row execute function private.note_auth_change();
create trigger tenant_members_auth_change
  after insert or update or delete on public.tenant_members
  for each row execute function private.note_auth_change();
create trigger tenants_auth_change
  after update of plan or delete on public.tenants
  for each row execute function private.note_auth_change();

-- A lease of up to p_want tokens from a GCRA bucket, in one statement (the upsert locks the
-- bucket's row, so instances racing for it are serialised and never share a token). The tokens
-- granted are the arrival slots base + step, ..., base + granted * step. An instance may spend
-- the token of slot s until s + p_grace (a lease is spent over time); so that this lateness can
-- never admit more than a plain GCRA would, every take on the bucket keeps p_grace of the
-- period free (the burst is the limit less p_grace's worth of tokens). p_grace is a function of
-- the limit alone (rate-leases.ts), the same on every instance; 0 for small limits, where a lease
-- is one token and this is exactly private.take_rate_limit. Grants fewer than p_want (down to
-- none) when fewer fit. The base is the bucket's TAT, or now when that lies in the past (a full
-- bucket) or more than a period ahead (a clock that went back).
create function private.lease_rate_limit(
  p_bucket text,
  p_limit integer,
  p_want integer,
  p_grace interval,
  p_now timestamptz
)
returns table (granted integer, base timestamptz, tat timestamptz)
language plpgsql set search_path = '' as $$
declare
  v_step interval := interval '60 seconds' / p_limit;
  v_horizon timestamptz := p_now + interval '60 seconds' - p_grace;
  v_old timestamptz;
  v_base timestamptz;
  v_granted integer;
begin
  insert into private.rate_limit_buckets as b (bucket, tat)
  values (p_bucket, p_now)
  on conflict (bucket) do update set tat = b.tat
  returning b.tat into v_old;
  v_base := case when v_old > p_now + interval '60 seconds' or v_old < p_now then p_now else v_old end;
  v_granted := greatest(0, least(p_want,
    floor(extract(epoch from (v_horizon - v_base)) / extract(epoch from v_step) + 1e-9)::integer));
  if v_granted > 0 then
    update private.rate_limit_buckets b set tat = v_base + v_step * v_granted where b.bucket = p_bucket;
  end if;
  return query select v_granted, v_base, v_base + v_step * v_granted;
end
$$;
revoke execute on function private.lease_rate_limit(text, integer, integer, interval, timestamptz) from public;

-- Reserves up to p_want units of a product's monthly usage for a tenant: on a plan that refuses
-- overage (Free) only what still fits under the quota (down to none), otherwise all of it. The
-- units are counted at once (a reservation is usage), so instances reserving from the same
-- counter never exceed the quota together; an instance gives back what it did not use
-- (private.release_usage). Returns the plan, its quota and hard cap, the units granted and the
-- new total. No row for an unknown tenant.
create function private.reserve_usage(p_tenant uuid, p_product uuid, p_want bigint, p_period date)
returns table (plan text, quota bigint, hard_cap bigint, granted bigint, units bigint, alert_thresholds integer[])
language plpgsql set search_path = '' as $$
declare
  v_plan text;
  v_quota bigint;
  v_cap bigint;
  v_units bigint;
  v_granted bigint;
begin
  select t.plan, pq.monthly_quota, case when t.plan = 'free' then pq.monthly_quota end
  into v_plan, v_quota, v_cap
  from public.tenants t
  left join public.plan_quotas pq on pq.plan = t.plan and pq.product_id = p_product
  where t.id = p_tenant;
  if not found then
    return;
  end if;
  insert into public.usage_counters as c (tenant_id, product_id, period, units)
  values (p_tenant, p_product, p_period, 0)
  on conflict (tenant_id, product_id, period) do update set units = c.units
  returning c.units into v_units;
  v_granted := case when v_cap is null then p_want else greatest(0, least(p_want, v_cap - v_units)) end;
  if v_granted > 0 then
    update public.usage_counters c set units = c.units + v_granted
    where c.tenant_id = p_tenant and c.product_id = p_product and c.period = p_period
    returning c.units into v_units;
  end if;
  return query select v_plan, v_quota, v_cap, v_granted, v_units,
    (select array_agg(distinct a.threshold_percent) from public.usage_alerts a
     where a.tenant_id = p_tenant and a.product_id = p_product);
end
$$;
revoke execute on function private.reserve_usage(uuid, uuid, bigint, date) from public;

-- Gives back reserved units an instance did not use (at shutdown, or when the tenant's plan changed).
create function private.release_usage(p_tenant uuid, p_product uuid, p_units bigint, p_period date)
returns void
language sql set search_path = '' as $$
  update public.usage_counters c set units = greatest(0, c.units - p_units)
  where c.tenant_id = p_tenant and c.product_id = p_product and c.period = p_period;
$$;
revoke execute on function private.release_usage(uuid, uuid, bigint, date) from public;
