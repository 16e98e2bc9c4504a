-- One job engine for the server functions' background work (scrape-social, generate-article,
-- sync-affiliate, ...): see docs/adr/0006-job-engine.md and shared/infra/jobs/engine.ts.
-- A job is queued in the transaction of the request that asks for it, claimed by any instance
-- under a lease (FOR UPDATE SKIP LOCKED), and finished with a result or an error. Tenants read
-- their own jobs; only the service (the functions' own connection) writes them.

create table public.jobs (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references public.tenants (id) on delete cascade,
  kind text not null check (kind ~ '^[a-z][a-z0-9_.:-]{0,62}$'),
  input jsonb not null default '{}',
  status text not null default 'queued' check (status in ('queued', 'running', 'succeeded', 'failed')),
  attempts integer not null default 0 check (attempts >= 0),
  max_attempts integer not null default 5 check (max_attempts between 1 and 20),
  run_after timestamptz not null default date_trunc('milliseconds', now()),
  lease_until timestamptz,
  result jsonb,
  error text check (length(error) <= 2000),
  created_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default date_trunc('milliseconds', now()),
  updated_at timestamptz not null default date_trunc('milliseconds', now()),
  started_at timestamptz,
  finished_at timestamptz
);
create index jobs_tenant_id_idx on public.jobs (tenant_id, created_at desc, id desc);
-- What a worker looks at: queued jobs that are due, and running jobs whose lease may have run out.
create index jobs_ready_idx on public.jobs (kind, run_after) where status = 'queued';
create index jobs_running_idx on public.jobs (kind, lease_until) where status = 'running';

alter table public.jobs enable row level security;
create policy jobs_select on public.jobs for select to authenticated
  using (tenant_id in (select private.user_tenant_ids()));
grant select on public.jobs to authenticated;

-- Jobs are queued only through this function, inside the transaction of the request. A tenant
-- caller (claims present) may only queue for its own tenants, and becomes created_by; service
-- paths (no claims: scheduled work) scope by tenant themselves. Like private.record_event, it
-- lives in schema private, which the Data API does not expose, so no member queues jobs directly.
create function private.enqueue_job(job_tenant uuid, job_kind text, job_input jsonb, job_max_attempts integer,
                                    job_run_after timestamptz, job_at timestamptz)
returns public.jobs
language plpgsql security definer set search_path = '' as $$
declare
  created public.jobs;
begin
  if auth.uid() is not null and not exists (
    select 1 from public.tenant_members where tenant_id = job_tenant and user_id = auth.uid()
  ) then
    raise exception 'not a member of tenant %', job_tenant using errcode = '42501';
  end if;
  insert into public.jobs (tenant_id, kind, input, max_attempts, run_after, created_by, created_at, updated_at)
  values (job_tenant, job_kind, job_input, job_max_attempts, job_run_after, auth.uid(), job_at, job_at)
  returning * into created;
  return created;
end
$$;

revoke all on function private.enqueue_job(uuid, text, jsonb, integer, timestamptz, timestamptz) from public;
grant execute on function private.enqueue_job(uuid, text, jsonb, integer, timestamptz, timestamptz) to authenticated;
