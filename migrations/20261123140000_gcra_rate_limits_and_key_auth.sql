-- Rate limits as GCRA (generic cell rate algorithm) instead of fixed one-minute windows, and key
-- authentication as one SQL function, so that a key-authenticated read can pipeline its
-- authentication, rate limit, scope check and claims with the read itself (one round trip).
-- See docs/adr/0004-rate-limits-in-postgres.md.

-- One row per bucket: its theoretical arrival time (TAT). A request is admitted when, after it,
-- the TAT lies at most one period (60 s) ahead of now; admitting moves the TAT one emission
-- interval (60 s / limit) further. A full bucket (TAT in the past) is the same as no row.
-- Unlogged for the same reason as the counters were: a crash at worst refills the buckets.
create unlogged table private.rate_limit_buckets (
  bucket text primary key,
  tat timestamptz not null
);

create function private.gcra_base(p_tat timestamptz, p_now timestamptz) returns timestamptz
language sql immutable set search_path = '' as $$
  select case when p_tat > p_now + interval '60 seconds' then p_now else greatest(p_tat, p_now) end
$$;

-- Takes one request from a bucket, atomically across instances: the upsert locks the row and
-- re-evaluates its condition on the newest version, so concurrent requests serialise. A refused
-- request does not move the TAT (hammering does not extend the wait). `tat` is the bucket's TAT
-- after the call (before it, when refused).
create function private.take_rate_limit(p_bucket text, p_limit integer, p_now timestamptz)
returns table (allowed boolean, tat timestamptz)
language plpgsql set search_path = '' as $$
declare
  v_tat timestamptz;
begin
  insert into private.rate_limit_buckets as b (bucket, tat)
  values (p_bucket, p_now + interval '60 seconds' / p_limit)
  on conflict (bucket) do update
    -- A TAT more than a period ahead can only come from a clock that went back: start afresh.
    set tat = private.gcra_base(b.tat, p_now) + interval '60 seconds' / p_limit
    where private.gcra_base(b.tat, p_now) + interval '60 seconds' / p_limit <= p_now + interval '60 seconds'
  returning b.tat into v_tat;
  if v_tat is not null then
    return query select true, v_tat;
    return;
  end if;
  -- Refused. The upsert locked the row; this statement's fresh snapshot sees its newest TAT (a
  -- read inside the upsert's statement would see the statement's older snapshot, and under
  -- concurrency report a shorter wait than the truth).
  return query select false, b.tat from private.rate_limit_buckets b where b.bucket = p_bucket;
end
$$;

-- Key authentication, in pieces that a request combines as it needs.
--
-- private.find_key: the key with this hash, if it is a credential at all: not revoked or expired,
-- of the family its prefix says, and its creator (whom it acts as) still a member of the tenant.
create function private.find_key(p_key_hash text, p_family text, p_tool_limit integer, p_now timestamptz)
returns table (
  key_id uuid,
  tenant_id uuid,
  user_id uuid,
  scopes text[],
  rate_limit integer,
  last_used_at timestamptz
)
language sql stable security definer set search_path = '' as $$
  select ak.id, ak.tenant_id, ak.created_by, ak.scopes,
         case when ak.family = 'tool_server' then least(ak.rate_limit_per_minute, p_tool_limit)
              else ak.rate_limit_per_minute end,
         ak.last_used_at
  from public.api_keys ak
  join public.tenant_members m on m.tenant_id = ak.tenant_id and m.user_id = ak.created_by
  where ak.key_hash = p_key_hash
    and ak.family = p_family
    and ak.revoked_at is null
    and (ak.expires_at is null or ak.expires_at > p_now)
$$;

-- private.charge_key: takes the request from the key's bucket, or from the client address's
-- bucket when the key is no credential (which also throttles key guessing). When the take is
-- refused it clears request.jwt.claims, so that statements after it in the same transaction
-- (metering) act for no tenant.
create function private.charge_key(
  p_key_hash text,
  p_family text,
  p_ip_bucket text,
  p_ip_limit integer,
  p_tool_limit integer,
  p_now timestamptz
)
returns table (valid boolean, allowed boolean, tat timestamptz, rate_limit integer)
language plpgsql security definer set search_path = '' as $$
declare
  k record;
  rl record;
begin
  select * into k from private.find_key(p_key_hash, p_family, p_tool_limit, p_now);
  if k.key_id is null then
    select * into rl from private.take_rate_limit(p_ip_bucket, p_ip_limit, p_now);
  else
    select * into rl from private.take_rate_limit('key:' || k.key_id, k.rate_limit, p_now);
  end if;
  if not rl.allowed then
    perform set_config('request.jwt.claims', '', true);
  end if;
  return query select k.key_id is not null, rl.allowed, rl.tat, coalesce(k.rate_limit, p_ip_limit);
end
$$;

-- private.claim_key: for a pipelined read, sets the transaction's request.jwt.claims to the
-- key's creator and tenant when the key is a credential holding p_scope (if any); row-level
-- security then lets the read see that tenant's rows, and nothing otherwise.
create function private.claim_key(p_key_hash text, p_family text, p_scope text, p_tool_limit integer, p_now timestamptz)
returns table (
  key_id uuid,
  tenant_id uuid,
  user_id uuid,
  scopes text[],
  rate_limit integer,
  last_used_at timestamptz,
  scope_ok boolean
)
language plpgsql security definer set search_path = '' as $$
declare
  k record;
  ok boolean;
begin
  select * into k from private.find_key(p_key_hash, p_family, p_tool_limit, p_now);
  ok := k.key_id is not null and (p_scope is null or p_scope = any (k.scopes));
  perform set_config('request.jwt.claims', case when ok then json_build_object(
    'sub', k.user_id,
    'role', 'authenticated',
    'app_metadata', json_build_object('tenant_id', k.tenant_id),
    'api_key_id', k.key_id
  )::text else '' end, true);
  return query select k.key_id, k.tenant_id, k.user_id, k.scopes, k.rate_limit, k.last_used_at, ok;
end
$$;

revoke execute on function private.gcra_base(timestamptz, timestamptz) from public;
revoke execute on function private.take_rate_limit(text, integer, timestamptz) from public;
revoke execute on function private.find_key(text, text, integer, timestamptz) from public;
revoke execute on function private.charge_key(text, text, text, integer, integer, timestamptz) from public;
revoke execute on function private.claim_key(text, text, text, integer, timestamptz) from public;

drop table private.rate_limit_counters;

-- Metering as a function, so a pipelined request can meter the tenant its key authenticated as
-- (read from the transaction's claims) without a round trip of its own. Counts `p_units` of a
-- product for the month holding p_period; Free refuses past its quota and counts nothing then.
-- No tenant (authentication failed): no row, nothing counted.
create function private.record_usage(
  p_tenant uuid,
  p_product uuid,
  p_units bigint,
  p_period date,
  -- Units already spent (a provider's token usage): counted even past a Free quota.
  p_incurred boolean default false
)
returns table (plan text, quota text, units text, alert_thresholds integer[])
language sql set search_path = '' as $$
  with q as (
    select t.plan, pq.monthly_quota as quota,
           -- Only Free refuses; paid plans go through and pay overage.
           case when t.plan = 'free' and not p_incurred then pq.monthly_quota end as hard_cap
    from public.tenants t
    left join public.plan_quotas pq on pq.plan = t.plan and pq.product_id = p_product
    where t.id = p_tenant
  ), counted as (
    insert into public.usage_counters as c (tenant_id, product_id, period, units)
    select p_tenant, p_product, p_period, p_units
    from q where q.hard_cap is null or p_units <= q.hard_cap
    on conflict (tenant_id, product_id, period) do update
      set units = c.units + excluded.units
      where (select hard_cap from q) is null or c.units + excluded.units <= (select hard_cap from q)
    returning c.units
  )
  select q.plan, q.quota::text, (select units::text from counted),
         (select array_agg(distinct a.threshold_percent) from public.usage_alerts a
          where a.tenant_id = p_tenant and a.product_id = p_product)
  from q
$$;

revoke execute on function private.record_usage(uuid, uuid, bigint, date, boolean) from public;
