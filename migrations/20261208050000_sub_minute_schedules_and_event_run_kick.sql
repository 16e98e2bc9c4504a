-- Issue 47 (item 2): sweeps no longer set the newsroom's pace (docs/adr/0038).
--
-- 1. Due work runs every 10 seconds on Supabase: pg_cron 1.5 and later take an interval of
--    1-59 seconds ('10 seconds') besides a cron line. pg_cron before 1.5 (Debian bookworm's 1.4)
--    refuses that syntax; there the job is registered every minute instead, with a notice, so the
--    migrations still apply (shared/infra/jobs/schedule.ts, registeredSchedule, says the same).
create or replace function private.schedule_job(job_name text, schedule text, job_path text) returns void
language plpgsql as $$
declare
  version int[];
  effective text := schedule;
begin
  if not exists (select 1 from pg_extension where extname = 'pg_cron') then
    return;
  end if;
  if schedule ~ '^[0-9]+ seconds$' then
    select string_to_array(split_part(extversion, '-', 1), '.')::int[] into version
    from pg_extension where extname = 'pg_cron';
    if version < array[1, 5] then
      effective := '* * * * *';
      raise notice 'pg_cron % takes no sub-minute schedule: % runs every minute instead of every %',
        array_to_string(version, '.'), job_name, schedule;
    end if;
  end if;
  execute format('select cron.schedule(%L, %L, %L)', job_name, effective,
                 format('select private.invoke_job(%L)', job_path));
end
$$;

-- Scheduled publishing and unpublishing: a publish_at is met within 10 s, not a minute.
select private.schedule_job('content-publish-scheduled', '10 seconds', 'content/jobs/publish-scheduled');
-- The assistant's safety net (event runs a kick missed, expired approvals, turns a stopped
-- instance left) and its scheduled automations.
select private.schedule_job('assistant-sweep', '10 seconds', 'assistant/jobs/sweep');

-- 2. An event's automation runs start at once. The fan-out trigger (private.automation_event_fan_out)
--    writes pending runs in the event's own transaction; on Supabase this trigger then asks the
--    assistant function to start them. pg_net sends the request only after the transaction
--    commits, so a rolled-back event starts nothing, and a transaction that queued no pending run
--    sends nothing. Like the webhook kick, it is a shortcut (the sweep starts what it misses), so
--    it never fails the write: without the Vault secrets or on a pg_net error it warns.
--    Where pg_net is missing (embedded, plain PostgreSQL) the writer's process kicks in process.
create or replace function private.kick_event_automation_runs() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if exists (select 1 from inserted where status = 'pending') then
    begin
      perform private.invoke_job('assistant/jobs/start-event-runs');
    exception when others then
      raise warning 'automation run kick skipped: %', sqlerrm;
    end;
  end if;
  return null;
end
$$;
revoke all on function private.kick_event_automation_runs() from public;

do $$
begin
  if exists (select 1 from pg_extension where extname = 'pg_net') then
    drop trigger if exists assistant_automation_runs_kick on public.assistant_automation_runs;
    create trigger assistant_automation_runs_kick
      after insert on public.assistant_automation_runs
      referencing new table as inserted
      for each statement execute function private.kick_event_automation_runs();
  end if;
end
$$;
