-- The per-day usage (public.usage_daily) follows the monthly counter down as well as up.
--
-- A token reservation (20261201020100_usage_reservations.sql) counts a model call's most tokens
-- before the call and gives the unused part back when it settles. The trigger that feeds
-- usage_daily added every increase but ignored the decrease, so a day's chart showed every
-- reservation whole (64,543 tokens on a day whose counter said 840). Now a decrease is taken back
-- from the day it is counted on and, when that day holds less (a reservation settled after
-- midnight), from the days before it in the same month, latest first; so a month's days always add
-- up to its counter, the quota's one source of truth (docs/adr/0012-usage-per-day-by-trigger.md).

create or replace function private.usage_counters_to_daily()
returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  added bigint := new.units - case when tg_op = 'UPDATE' then old.units else 0 end;
  today date := (now() at time zone 'UTC')::date;
  last_day date := (new.period + interval '1 month' - interval '1 day')::date;
  on_day date := least(greatest(today, new.period), last_day);
  to_remove bigint;
  row_day date;
  row_units bigint;
begin
  if added > 0 then
    insert into public.usage_daily as d (tenant_id, product_id, day, units)
    values (new.tenant_id, new.product_id, on_day, added)
    on conflict (tenant_id, product_id, day) do update set units = d.units + excluded.units;
  elsif added < 0 then
    -- The counter's row lock (held by the statement firing this) serialises these for the product.
    to_remove := -added;
    for row_day, row_units in
      select d.day, d.units from public.usage_daily d
      where d.tenant_id = new.tenant_id and d.product_id = new.product_id
        and d.day between new.period and on_day and d.units > 0
      order by d.day desc
    loop
      update public.usage_daily set units = units - least(row_units, to_remove)
      where tenant_id = new.tenant_id and product_id = new.product_id and day = row_day;
      to_remove := to_remove - least(row_units, to_remove);
      exit when to_remove = 0;
    end loop;
  end if;
  return null;
end
$$;
revoke execute on function private.usage_counters_to_daily() from public;

-- Rows the old trigger left too high: a month's excess over its counter comes off its latest days.
with totals as (
  select d.tenant_id, d.product_id, date_trunc('month', d.day)::date as period, sum(d.units) as daily_sum
  from public.usage_daily d group by 1, 2, 3
), excess as (
  select t.tenant_id, t.product_id, t.period, t.daily_sum - coalesce(c.units, 0) as over
  from totals t
  left join public.usage_counters c
    on c.tenant_id = t.tenant_id and c.product_id = t.product_id and c.period = t.period
  where t.daily_sum > coalesce(c.units, 0)
), ranked as (
  select d.tenant_id, d.product_id, d.day, d.units, e.over,
         coalesce(sum(d.units) over (
           partition by d.tenant_id, d.product_id, e.period order by d.day desc
           rows between unbounded preceding and 1 preceding), 0) as later
  from public.usage_daily d
  join excess e on e.tenant_id = d.tenant_id and e.product_id = d.product_id
    and date_trunc('month', d.day)::date = e.period
)
update public.usage_daily d
set units = r.units - least(r.units, greatest(0, r.over - r.later))
from ranked r
where d.tenant_id = r.tenant_id and d.product_id = r.product_id and d.day = r.day
  and r.over > r.later;
