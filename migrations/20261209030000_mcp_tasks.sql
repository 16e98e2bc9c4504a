-- MCP tasks (docs/mcp.md "Tasks", docs/adr/0044-mcp-tasks-on-the-job-engine.md).
--
-- A tools/call that an MCP client asked to run as a task (MCP 2025-11-25, `params.task`): the work
-- is a job of the job engine (public.jobs, claimed with a lease by any instance), the task is this
-- row, which names it. Any instance answers tasks/get, tasks/result, tasks/list and tasks/cancel
-- from it, for the key that created the task only (key_id), within its tenant (RLS).
--
-- - The task's status follows its job (queued or running: working; succeeded: completed; failed:
--   failed) unless cancelled_at is set: cancelled. The job's handler reads cancelled_at and stops.
-- - The task and its result are kept for ttl_ms from creation (at most one hour): past expires_at
--   the API finds no such task, and the daily prune-retention job deletes the row.
create table public.mcp_tasks (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references public.tenants(id) on delete cascade,
  -- The tool-server key (or MCP client grant) that created the task: only it sees the task.
  key_id text not null check (length(key_id) between 1 and 100),
  tool text not null check (length(tool) between 1 and 200),
  job_id uuid not null references public.jobs(id) on delete cascade,
  ttl_ms integer not null check (ttl_ms between 1000 and 3600000),
  poll_interval_ms integer not null check (poll_interval_ms between 100 and 60000),
  created_at timestamptz not null,
  expires_at timestamptz not null,
  cancelled_at timestamptz,
  check (expires_at > created_at and expires_at <= created_at + interval '1 hour')
);
create index mcp_tasks_key_idx on public.mcp_tasks (tenant_id, key_id, created_at desc, id);
create index mcp_tasks_job_idx on public.mcp_tasks (job_id);
create index mcp_tasks_expires_idx on public.mcp_tasks (expires_at);

alter table public.mcp_tasks enable row level security;
create policy mcp_tasks_all on public.mcp_tasks to authenticated
  using (tenant_id = (select private.request_tenant_id()))
  with check (tenant_id = (select private.request_tenant_id()));
create policy published_only_sees_nothing on public.mcp_tasks as restrictive for all to authenticated
  using (not (select private.request_published_only()))
  with check (not (select private.request_published_only()));
-- A task is created and cancelled by the tool server as its caller; nothing else of it changes.
grant select, insert (tenant_id, key_id, tool, job_id, ttl_ms, poll_interval_ms, created_at, expires_at),
  update (cancelled_at)
  on public.mcp_tasks to authenticated;

-- The expired tasks, for prune-retention (its statement, so its transaction). p_now is the
-- platform's clock.
create function private.prune_mcp_tasks(p_now timestamptz)
returns jsonb
language plpgsql set search_path = '' as $$
declare
  n integer;
begin
  delete from public.mcp_tasks where expires_at < p_now;
  get diagnostics n = row_count;
  return jsonb_build_object('mcp_tasks', n);
end
$$;
revoke all on function private.prune_mcp_tasks(timestamptz) from public;
