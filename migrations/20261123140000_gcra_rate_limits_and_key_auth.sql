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
language sql set search_path = '' as $$
  with upsert as (
    insert into private.rate_limit_buckets as b (bucket, tat)
    values (p_bucket, p_now + interval '60 seconds' / p_limit)
    on conflict (bucket) do update
      -- A TAT more than a period ahead can only come from a clock that went back: start afresh.
      set tat = private.gcra_base(b.tat, p_now) + interval '60 seconds' / p_limit
      where private.gcra_base(b.tat, p_now) + interval '60 seconds' / p_limit <= p_now + interval '60 seconds'
    returning b.tat
  )
  select exists (select 1 from upsert),
         coalesce((select u.tat from upsert u),
                  (select b.tat from private.rate_limit_buckets b where b.bucket = p_bucket))
$$;

-- Authenticates a platform or tool-server key by its hash, in one statement:
--   outcome 'ok'            the key is valid, within its limit and holds p_scope (if any); its
--                           claims (the key's creator and tenant) are returned, and with
--                           p_session_claims also left in the session setting app.key_claims
--   outcome 'rate_limited'  valid, but over its rate limit
--   outcome 'forbidden'     valid and within its limit, but without p_scope
--   outcome 'invalid'       unknown, revoked, expired, of another family, or its creator left the
--                           tenant; the client address's bucket (p_ip_bucket) was charged instead
--   outcome 'ip_limited'    invalid, and that address is over its limit too
-- It never raises for a bad key, so the counts it makes stand. A pipelined read runs it on its own
-- (autocommit, so the bucket's row lock ends with it), then opens the read's transaction with
-- request.jwt.claims taken from app.key_claims: one round trip, and requests of one key do not
-- queue behind each other's reads. app.key_claims is reset at every call, so a pooled connection
-- never carries a previous request's claims into this one.
-- Security definer: it reads key hashes and writes buckets that no tenant role may touch.
create function private.authenticate_key(
  p_key_hash text,
  p_family text,
  p_scope text,
  p_ip_bucket text,
  p_ip_limit integer,
  p_tool_limit integer,
  p_now timestamptz,
  p_session_claims boolean
)
returns table (
  outcome text,
  key_id uuid,
  tenant_id uuid,
  user_id uuid,
  scopes text[],
  rate_limit integer,
  tat timestamptz,
  last_used_at timestamptz
)
language plpgsql security definer set search_path = '' as $$
declare
  k record;
  rl record;
  lim integer;
  claims text;
begin
  if p_session_claims then
    perform set_config('app.key_claims', '', false);
  end if;
  select ak.id, ak.tenant_id, ak.created_by, ak.family, ak.scopes, ak.rate_limit_per_minute, ak.last_used_at
    into k
  from public.api_keys ak
  join public.tenant_members m on m.tenant_id = ak.tenant_id and m.user_id = ak.created_by
  where ak.key_hash = p_key_hash
    and ak.family = p_family
    and ak.revoked_at is null
    and (ak.expires_at is null or ak.expires_at > p_now);

  if k.id is null then
    select * into rl from private.take_rate_limit(p_ip_bucket, p_ip_limit, p_now);
    return query select case when rl.allowed then 'invalid' else 'ip_limited' end,
      null::uuid, null::uuid, null::uuid, null::text[], p_ip_limit, rl.tat, null::timestamptz;
    return;
  end if;

  lim := case when k.family = 'tool_server' then least(k.rate_limit_per_minute, p_tool_limit)
              else k.rate_limit_per_minute end;
  select * into rl from private.take_rate_limit('key:' || k.id, lim, p_now);
  if not rl.allowed then
    return query select 'rate_limited', k.id, k.tenant_id, k.created_by, k.scopes, lim, rl.tat, k.last_used_at;
    return;
  end if;
  if p_scope is not null and not (p_scope = any (k.scopes)) then
    return query select 'forbidden', k.id, k.tenant_id, k.created_by, k.scopes, lim, rl.tat, k.last_used_at;
    return;
  end if;
  claims := json_build_object(
    'sub', k.created_by,
    'role', 'authenticated',
    'app_metadata', json_build_object('tenant_id', k.tenant_id),
    'api_key_id', k.id
  )::text;
  if p_session_claims then
    perform set_config('app.key_claims', claims, false);
  end if;
  return query select 'ok', k.id, k.tenant_id, k.created_by, k.scopes, lim, rl.tat, k.last_used_at;
end
$$;

revoke execute on function private.gcra_base(timestamptz, timestamptz) from public;
revoke execute on function private.take_rate_limit(text, integer, timestamptz) from public;
revoke execute on function private.authenticate_key(text, text, text, text, integer, integer, timestamptz, boolean) from public;

drop table private.rate_limit_counters;

-- Metering as a function, so a pipelined request can meter the tenant its key authenticated as
-- (read from app.key_claims) without a round trip of its own. Counts `p_units` of a
-- product for the month holding p_period; Free refuses past its quota and counts nothing then.
-- No tenant (authentication failed): no row, nothing counted.
create function private.record_usage(p_tenant uuid, p_product uuid, p_units bigint, p_period date)
returns table (plan text, quota text, units text, alert_thresholds integer[])
language sql set search_path = '' as $$
  with q as (
    select t.plan, pq.monthly_quota as quota,
           -- Only Free refuses; paid plans go through and pay overage.
           case when t.plan = 'free' then pq.monthly_quota end as hard_cap
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

revoke execute on function private.record_usage(uuid, uuid, bigint, date) from public;
