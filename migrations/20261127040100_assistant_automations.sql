-- Automations (docs/assistant.md): an instruction the assistant runs on a schedule (a 5-field cron
-- expression, UTC) as the member who saved it, with triggered_by = 'automation'. Members read them;
-- owners and admins manage them. One run per (automation, slot), whichever instance's sweep
-- claims it first: the unique key makes a slot run exactly once.

create table public.assistant_automations (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references public.tenants (id) on delete cascade,
  name text not null check (length(name) between 1 and 200),
  instruction text not null check (length(instruction) between 1 and 32000),
  schedule text not null check (length(schedule) between 9 and 100),
  enabled boolean not null default true,
  next_run_at timestamptz,
  last_run_at timestamptz,
  created_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default date_trunc('milliseconds', now()),
  updated_at timestamptz not null default date_trunc('milliseconds', now()),
  unique (tenant_id, id)
);
create index assistant_automations_tenant_idx on public.assistant_automations (tenant_id, created_at desc, id desc);
create index assistant_automations_due_idx on public.assistant_automations (next_run_at) where enabled;

alter table public.assistant_automations enable row level security;
create policy assistant_automations_select on public.assistant_automations for select to authenticated
  using (tenant_id in (select private.user_tenant_ids()));
create policy assistant_automations_insert on public.assistant_automations for insert to authenticated
  with check ((select private.has_tenant_role(tenant_id, array['owner', 'admin'])));
create policy assistant_automations_update on public.assistant_automations for update to authenticated
  using ((select private.has_tenant_role(tenant_id, array['owner', 'admin'])));
create policy assistant_automations_delete on public.assistant_automations for delete to authenticated
  using ((select private.has_tenant_role(tenant_id, array['owner', 'admin'])));
grant select, insert, delete on public.assistant_automations to authenticated;
grant update (name, instruction, schedule, enabled, next_run_at, updated_at) on public.assistant_automations to authenticated;

create table public.assistant_automation_runs (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references public.tenants (id) on delete cascade,
  automation_id uuid not null,
  slot timestamptz not null,
  conversation_id uuid,
  turn_id uuid,
  -- started: the turn's own status says the rest (completed, awaiting_approval, failed, ...);
  -- failed: the turn could not start (no AI credential, the quota), with the reason.
  status text not null check (status in ('started', 'failed')),
  error text,
  created_at timestamptz not null default date_trunc('milliseconds', now()),
  unique (automation_id, slot),
  foreign key (tenant_id, automation_id) references public.assistant_automations (tenant_id, id) on delete cascade
);
create index assistant_automation_runs_tenant_idx on public.assistant_automation_runs (tenant_id, automation_id, slot desc);

alter table public.assistant_automation_runs enable row level security;
create policy assistant_automation_runs_select on public.assistant_automation_runs for select to authenticated
  using (tenant_id in (select private.user_tenant_ids()));
grant select on public.assistant_automation_runs to authenticated;
