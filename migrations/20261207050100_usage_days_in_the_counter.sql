-- Issue 45 (item 3): metering writes one row per flush, not two.
--
-- Since migration 20261127060000 an AFTER trigger on public.usage_counters copied each change of a
-- counter into public.usage_daily: every usage flush wrote two rows in two tables (the month's
-- counter and the day's). The days now live in the counter's own row: daily_units holds the
-- month's units by day of the month (element 1 is the 1st), and a BEFORE trigger adds each
-- change to its day in the same row version the change writes. Every path that meters
-- (private.record_usage, reserve_usage, settle_call_usage and any later one) still feeds the days
-- without a change of its own; the dashboard's chart reads the array
-- (shared/services/usage/usage.ts). The day is the database's UTC date, kept inside the
-- counter's month, as before (docs/adr/0012-usage-per-day-by-trigger.md).

alter table public.usage_counters
  add column daily_units bigint[] not null default array_fill(0::bigint, array[31])
    check (cardinality(daily_units) = 31 and array_lower(daily_units, 1) = 1);

-- The days counted so far move into their counters.
update public.usage_counters c
set daily_units = array(
  select coalesce(d.units, 0)
  from generate_series(1, 31) g
  left join public.usage_daily d
    on d.tenant_id = c.tenant_id and d.product_id = c.product_id and d.day = c.period + (g - 1)
  order by g)
where exists (select 1 from public.usage_daily d where d.tenant_id = c.tenant_id and d.product_id = c.product_id);

drop trigger usage_counters_to_daily on public.usage_counters;
drop function private.usage_counters_to_daily();
drop table public.usage_daily;

create function private.usage_counters_by_day()
returns trigger
language plpgsql set search_path = '' as $$
declare
  added bigint := new.units - case when tg_op = 'UPDATE' then old.units else 0 end;
  today date := (now() at time zone 'UTC')::date;
  on_day date := least(greatest(today, new.period), (new.period + interval '1 month' - interval '1 day')::date);
begin
  if added > 0 then
    new.daily_units[extract(day from on_day)::integer] := new.daily_units[extract(day from on_day)::integer] + added;
  end if;
  return new;
end
$$;
revoke execute on function private.usage_counters_by_day() from public;

create trigger usage_counters_by_day
  before insert or update of units on public.usage_counters
  for each row execute function private.usage_counters_by_day();
