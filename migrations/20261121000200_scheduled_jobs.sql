-- Scheduled jobs. In production pg_cron calls the function that owns the job through pg_net,
-- with the project URL and service-role key read from Supabase Vault (secrets 'project_url'
-- and 'service_role_key'; see README "Scheduled jobs on Supabase"). Where pg_cron is not
-- installed (the embedded database, a plain server without it) no job is created and the
-- local platform runs the same jobs in process.

create or replace function private.invoke_job(job_path text) returns bigint
language plpgsql security definer set search_path = '' as $$
declare
  request_id bigint;
begin
  select net.http_post(
    url := (select decrypted_secret from vault.decrypted_secrets where name = 'project_url') || '/functions/v1/' || job_path,
    headers := jsonb_build_object(
      'Content-Type', 'application/json',
      'apikey', (select decrypted_secret from vault.decrypted_secrets where name = 'service_role_key')
    ),
    body := '{}'::jsonb,
    timeout_milliseconds := 60000
  ) into request_id;
  return request_id;
end
$$;

-- Registers (or re-registers) a job when pg_cron is available; a no-op elsewhere.
create or replace function private.schedule_job(job_name text, schedule text, job_path text) returns void
language plpgsql as $$
begin
  if exists (select 1 from pg_extension where extname = 'pg_cron') then
    execute format('select cron.schedule(%L, %L, %L)', job_name, schedule,
                   format('select private.invoke_job(%L)', job_path));
  end if;
end
$$;

do $$
begin
  if exists (select 1 from pg_available_extensions where name = 'pg_cron') then
    begin
      create extension if not exists pg_cron;
    exception when others then
      -- Installed but not preloaded, or another database is cron.database_name: leave it.
      raise notice 'pg_cron is available but could not be enabled here: %', sqlerrm;
    end;
  end if;
end
$$;

select private.schedule_job('send-notifications', '* * * * *', 'tenants/jobs/send-notifications');
select private.schedule_job('prune-rate-limits', '*/5 * * * *', 'tenants/jobs/prune-rate-limits');
