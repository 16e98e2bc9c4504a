-- Token reservations (docs/tenants-and-usage.md): before a model call, the call's most tokens
-- (its input's estimate and its maximum output) are counted on a plan that refuses overage (Free),
-- within the quota, in one statement under the counter's row lock; after the call the
-- reservation is settled to what the provider reported. So concurrent turns, automations and
-- generations on any number of instances cannot together pass the quota. Paid plans reserve
-- nothing (they pay overage) and are counted once, after the call.

create function private.reserve_call_usage(p_tenant uuid, p_product uuid, p_units bigint, p_period date)
returns table (allowed boolean, reserved bigint, plan text)
language sql set search_path = '' as $$
  with q as (
    select t.plan, case when t.plan = 'free' then pq.monthly_quota end as hard_cap
    from public.tenants t
    left join public.plan_quotas pq on pq.plan = t.plan and pq.product_id = p_product
    where t.id = p_tenant
  ), counted as (
    insert into public.usage_counters as c (tenant_id, product_id, period, units)
    select p_tenant, p_product, p_period, p_units
    from q where q.hard_cap is not null and p_units <= q.hard_cap
    on conflict (tenant_id, product_id, period) do update
      set units = c.units + excluded.units
      where c.units + excluded.units <= (select hard_cap from q)
    returning c.units
  )
  select q.hard_cap is null or exists (select 1 from counted),
         case when q.hard_cap is not null and exists (select 1 from counted) then p_units else 0 end,
         q.plan
  from q
$$;
revoke execute on function private.reserve_call_usage(uuid, uuid, bigint, date) from public;

-- Settles a reservation: the counter moves by what was spent less what was reserved (never
-- refused: the provider has spent it). Returns what private.record_usage returns, for alerts.
create function private.settle_call_usage(
  p_tenant uuid,
  p_product uuid,
  p_reserved bigint,
  p_units bigint,
  p_period date
)
returns table (plan text, quota text, units text, alert_thresholds integer[])
language sql set search_path = '' as $$
  with counted as (
    insert into public.usage_counters as c (tenant_id, product_id, period, units)
    values (p_tenant, p_product, p_period, greatest(0, p_units - p_reserved))
    on conflict (tenant_id, product_id, period) do update
      set units = greatest(0, c.units + p_units - p_reserved)
    returning c.units
  )
  select t.plan, pq.monthly_quota::text, (select units::text from counted),
         (select array_agg(distinct a.threshold_percent) from public.usage_alerts a
          where a.tenant_id = p_tenant and a.product_id = p_product)
  from public.tenants t
  left join public.plan_quotas pq on pq.plan = t.plan and pq.product_id = p_product
  where t.id = p_tenant
$$;
revoke execute on function private.settle_call_usage(uuid, uuid, bigint, bigint, date) from public;
