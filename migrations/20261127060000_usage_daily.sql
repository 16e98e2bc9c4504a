-- Usage per day, for the dashboard's chart of the month (GET /api/usage/daily). The monthly
-- counter (public.usage_counters) stays the one that quotas and billing read; a trigger on it
-- adds each change to the day it happened, so every path that meters (private.record_usage and
-- any later one) feeds the daily table without a change of its own. The day is the database's
-- UTC date, kept inside the counter's month (a call metered for a month at its very end counts
-- on that month's last day).
create table public.usage_daily (
  tenant_id uuid not null references public.tenants (id) on delete cascade,
  product_id uuid not null references public.products (id),
  day date not null,
  units bigint not null check (units >= 0),
  primary key (tenant_id, product_id, day)
);
create index usage_daily_product_idx on public.usage_daily (product_id);
alter table public.usage_daily enable row level security;
create policy usage_daily_select on public.usage_daily for select to authenticated
  using (tenant_id in (select private.user_tenant_ids()));
grant select on public.usage_daily to authenticated;

create function private.usage_counters_to_daily()
returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  added bigint := new.units - case when tg_op = 'UPDATE' then old.units else 0 end;
  today date := (now() at time zone 'UTC')::date;
  on_day date := least(greatest(today, new.period), (new.period + interval '1 month' - interval '1 day')::date);
begin
  if added > 0 then
    insert into public.usage_daily as d (tenant_id, product_id, day, units)
    values (new.tenant_id, new.product_id, on_day, added)
    on conflict (tenant_id, product_id, day) do update set units = d.units + excluded.units;
  end if;
  return null;
end
$$;
revoke execute on function private.usage_counters_to_daily() from public;

create trigger usage_counters_to_daily
  after insert or update of units on public.usage_counters
  for each row execute function private.usage_counters_to_daily();

-- Days already counted before this migration are not known: this month's units so far count on
-- the day the migration runs, so the month's chart adds up to its counter.
insert into public.usage_daily (tenant_id, product_id, day, units)
select tenant_id, product_id,
       least(greatest((now() at time zone 'UTC')::date, period), (period + interval '1 month' - interval '1 day')::date),
       units
from public.usage_counters where units > 0
on conflict do nothing;
