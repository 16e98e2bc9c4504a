-- The approvals inbox and automations started by events (docs/assistant.md).
--
-- A tool call that needs approval waits until expires_at (the tenant's approval_ttl_hours, 24 by
-- default); the assistant sweep then records it as expired and the turn goes on as if it had been
-- denied. decision says how a call that waited was settled: approved or denied by decided_by at
-- decided_at, or expired at decided_at.

alter table public.assistant_settings
  add column approval_ttl_hours integer not null default 24 check (approval_ttl_hours between 1 and 720);
grant update (approval_ttl_hours) on public.assistant_settings to authenticated;

alter table public.assistant_tool_calls
  add column expires_at timestamptz,
  add column decision text check (decision in ('approved', 'denied', 'expired'));
update public.assistant_tool_calls set expires_at = created_at + interval '24 hours'
  where status = 'awaiting_approval';
-- The inbox, newest first, and the sweep's due approvals.
create index assistant_tool_calls_approvals_idx
  on public.assistant_tool_calls (tenant_id, created_at desc, id desc) where expires_at is not null;
create index assistant_tool_calls_expiring_idx
  on public.assistant_tool_calls (expires_at) where status = 'awaiting_approval';

-- An automation runs on a schedule or on a platform event of its tenant, never both.
alter table public.assistant_automations alter column schedule drop not null;
alter table public.assistant_automations
  add column trigger_event text check (trigger_event in
    ('content.published', 'content.updated', 'source.items_added', 'order.created', 'order.updated')),
  add constraint assistant_automations_one_trigger check ((schedule is null) <> (trigger_event is null));
grant update (trigger_event) on public.assistant_automations to authenticated;
create index assistant_automations_event_idx on public.assistant_automations (tenant_id, trigger_event)
  where enabled and trigger_event is not null;

-- One run per (automation, event): queued as pending in the transaction that records the event,
-- and started by whichever instance's sweep claims it first. Scheduled runs keep one per slot.
alter table public.assistant_automation_runs
  add column event_id text,
  add column event_type text;
alter table public.assistant_automation_runs drop constraint assistant_automation_runs_status_check;
alter table public.assistant_automation_runs
  add constraint assistant_automation_runs_status_check check (status in ('pending', 'started', 'failed'));
alter table public.assistant_automation_runs drop constraint assistant_automation_runs_automation_id_slot_key;
create unique index assistant_automation_runs_slot_key on public.assistant_automation_runs (automation_id, slot)
  where event_id is null;
create unique index assistant_automation_runs_event_key on public.assistant_automation_runs (automation_id, event_id)
  where event_id is not null;
create index assistant_automation_runs_pending_idx on public.assistant_automation_runs (created_at)
  where status = 'pending';

create function private.automation_event_fan_out() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  insert into public.assistant_automation_runs
    (tenant_id, automation_id, slot, event_id, event_type, status, created_at)
  select e.tenant_id, a.id, e.created_at, e.id, e.type, 'pending', e.created_at
  from new_events e
  join public.assistant_automations a
    on a.tenant_id = e.tenant_id and a.trigger_event = e.type and a.enabled
  on conflict (automation_id, event_id) where event_id is not null do nothing;
  return null;
end
$$;
revoke execute on function private.automation_event_fan_out() from public;

create trigger event_outbox_automation_fan_out
  after insert on public.event_outbox
  referencing new table as new_events
  for each statement execute function private.automation_event_fan_out();
