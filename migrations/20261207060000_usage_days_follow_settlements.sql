-- The per-day usage follows the monthly counter down as well as up.
--
-- A token reservation (20261201020100_usage_reservations.sql) counts a model call's most tokens
-- before the call and gives the unused part back when it settles. The day trigger added every
-- increase and ignored the decrease, so a day's chart showed every reservation whole (64,543
-- tokens on a day whose counter said 840). Since 20261207050100 the days live in the counter's own
-- row (daily_units); now a decrease is taken back from the day it is counted on and, when that day
-- holds less (a reservation settled after midnight), from the days before it in the same month,
-- latest first, so a month's days always add up to its counter, the quota's one source of truth
-- (docs/adr/0012-usage-per-day-by-trigger.md). It is the same row version, so still one write.

create or replace function private.usage_counters_by_day()
returns trigger
language plpgsql set search_path = '' as $$
declare
  added bigint := new.units - case when tg_op = 'UPDATE' then old.units else 0 end;
  today date := (now() at time zone 'UTC')::date;
  on_day date := least(greatest(today, new.period), (new.period + interval '1 month' - interval '1 day')::date);
  day_index integer := extract(day from on_day)::integer;
  to_remove bigint;
  taken bigint;
begin
  if added > 0 then
    new.daily_units[day_index] := new.daily_units[day_index] + added;
  elsif added < 0 then
    to_remove := -added;
    for i in reverse day_index..1 loop
      exit when to_remove = 0;
      taken := least(new.daily_units[i], to_remove);
      if taken > 0 then
        new.daily_units[i] := new.daily_units[i] - taken;
        to_remove := to_remove - taken;
      end if;
    end loop;
  end if;
  return new;
end
$$;
revoke execute on function private.usage_counters_by_day() from public;

-- Days the old triggers left too high (every reservation whole): a month's excess over its counter
-- comes off its latest days. The update leaves units as they are, so the trigger adds nothing.
update public.usage_counters c
set daily_units = fixed.days
from (
  select c2.tenant_id, c2.product_id, c2.period,
         array(
           select greatest(0, d.units - greatest(0, least(d.units, ex.excess - d.later)))
           from (
             select g, c2.daily_units[g] as units,
                    coalesce(sum(c2.daily_units[g]) over (order by g desc rows between unbounded preceding and 1 preceding), 0) as later
             from generate_series(1, 31) g
           ) d
           order by d.g
         ) as days
  from public.usage_counters c2
  cross join lateral (
    select (select sum(x) from unnest(c2.daily_units) x) - c2.units as excess
  ) ex
  where ex.excess > 0
) fixed
where c.tenant_id = fixed.tenant_id and c.product_id = fixed.product_id and c.period = fixed.period;
