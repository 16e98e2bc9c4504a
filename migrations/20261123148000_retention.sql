-- Retention (issue 16, item 9): a daily job prunes what grows without bound, keeping what the
-- statistics and the delivery log promise to show. Periods come from the job's configuration
-- (RETENTION_* settings, see README "Retention"); the rate-limit rows are the prune-rate-limits
-- job's, not this one's.
--
-- - Webhook deliveries that finished (succeeded or failed) and their attempts, once their last
--   attempt is older than the delivery-log period (at least 30 days). Pending deliveries stay
--   (a paused subscription's backlog is delivered on resume).
-- - Outbox events: copied into their deliveries at insert (the fan-out trigger), so only the
--   Analytics API's event counts read them later. Whole days before the cutoff are rolled up
--   into public.event_counts_daily, which the Analytics API adds to the raw rows.
-- - Tool usage (public.integration_usage): whole days before the cutoff (at least 30 days, the
--   longest statistics period) are rolled up into public.integration_usage_daily, then deleted.

create table public.event_counts_daily (
  tenant_id uuid not null references public.tenants (id) on delete cascade,
  day date not null,
  type text not null,
  count integer not null check (count >= 0),
  primary key (tenant_id, day, type)
);
alter table public.event_counts_daily enable row level security;
create policy event_counts_daily_select on public.event_counts_daily for select to authenticated
  using (tenant_id in (select private.user_tenant_ids()));
grant select on public.event_counts_daily to authenticated;

create table public.integration_usage_daily (
  tenant_id uuid not null references public.tenants (id) on delete cascade,
  integration_id uuid not null,
  day date not null,
  total_calls integer not null,
  success_count integer not null,
  response_time_ms_sum bigint not null,
  assistant integer not null,
  automation integer not null,
  manual integer not null,
  primary key (tenant_id, integration_id, day)
);
alter table public.integration_usage_daily enable row level security;
create policy integration_usage_daily_select on public.integration_usage_daily for select to authenticated
  using (tenant_id in (select private.user_tenant_ids()));
grant select on public.integration_usage_daily to authenticated;

-- Finished deliveries by age, for the prune.
create index webhook_deliveries_finished_idx on public.webhook_deliveries (last_attempt_at)
  where status <> 'pending';
create index event_outbox_created_at_idx on public.event_outbox (created_at);
create index integration_usage_created_at_idx on public.integration_usage (created_at);

create function private.prune_retention(
  p_now timestamptz, p_delivery_days integer, p_outbox_days integer, p_tool_usage_days integer
) returns jsonb
language plpgsql set search_path = '' as $$
declare
  delivery_cutoff timestamptz := p_now - make_interval(days => greatest(p_delivery_days, 30));
  -- Roll-ups move whole UTC days only, so a day is either raw or aggregated, never both.
  outbox_cutoff timestamptz := date_trunc('day', (p_now - make_interval(days => greatest(p_outbox_days, 1))) at time zone 'UTC') at time zone 'UTC';
  usage_cutoff timestamptz := date_trunc('day', (p_now - make_interval(days => greatest(p_tool_usage_days, 30))) at time zone 'UTC') at time zone 'UTC';
  n_deliveries integer;
  n_attempts integer;
  n_events integer;
  n_usage integer;
begin
  delete from public.webhook_delivery_attempts a
  where a.attempted_at < delivery_cutoff
    and exists (select 1 from public.webhook_deliveries d where d.id = a.delivery_id and d.status <> 'pending');
  get diagnostics n_attempts = row_count;
  delete from public.webhook_deliveries
  where status <> 'pending' and coalesce(last_attempt_at, created_at) < delivery_cutoff;
  get diagnostics n_deliveries = row_count;

  with gone as (
    delete from public.event_outbox where created_at < outbox_cutoff returning tenant_id, created_at, type
  ), counted as (
    insert into public.event_counts_daily as c (tenant_id, day, type, count)
    select tenant_id, (created_at at time zone 'UTC')::date, type, count(*)::int from gone group by 1, 2, 3
    on conflict (tenant_id, day, type) do update set count = c.count + excluded.count
    returning 1
  )
  select count(*)::int into n_events from gone;

  with gone as (
    delete from public.integration_usage where created_at < usage_cutoff
    returning tenant_id, integration_id, created_at, success, response_time_ms, triggered_by
  ), rolled as (
    insert into public.integration_usage_daily as u
      (tenant_id, integration_id, day, total_calls, success_count, response_time_ms_sum, assistant, automation, manual)
    select tenant_id, integration_id, (created_at at time zone 'UTC')::date, count(*)::int,
           count(*) filter (where success)::int, coalesce(sum(response_time_ms), 0),
           count(*) filter (where triggered_by = 'assistant')::int,
           count(*) filter (where triggered_by = 'automation')::int,
           count(*) filter (where triggered_by = 'manual')::int
    from gone group by 1, 2, 3
    on conflict (tenant_id, integration_id, day) do update set
      total_calls = u.total_calls + excluded.total_calls,
      success_count = u.success_count + excluded.success_count,
      response_time_ms_sum = u.response_time_ms_sum + excluded.response_time_ms_sum,
      assistant = u.assistant + excluded.assistant,
      automation = u.automation + excluded.automation,
      manual = u.manual + excluded.manual
    returning 1
  )
  select count(*)::int into n_usage from gone;

  return jsonb_build_object('webhook_deliveries', n_deliveries, 'webhook_attempts', n_attempts,
                            'outbox_events', n_events, 'tool_usage', n_usage);
end
$$;
revoke all on function private.prune_retention(timestamptz, integer, integer, integer) from public;

select private.schedule_job('prune-retention', '15 4 * * *', 'tenants/jobs/prune-retention');
