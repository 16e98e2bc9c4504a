-- Events carry their cause (docs/adr/0030-events-carry-their-cause.md): who or what made the change
-- an event records, stored with the event in the outbox. An automation is never started by an event
-- its own runs caused, chains of automations stop at a fixed depth, and each automation starts at
-- most a fixed number of event runs an hour.
--
-- cause is one of
--   {"kind": "person", "user_id"}                  a signed-in member (the request's claims)
--   {"kind": "key", "key_id", "user_id"}           an API key, acting for its creator
--   {"kind": "automation", "run_id", "automation_id", "depth", "chain"}
--                                                  a tool an automation's run called; depth is the
--                                                  run's place in its chain (1: started by a person's
--                                                  event or a schedule), chain the automations in it
--   {"kind": "system"}                             the platform itself (jobs, deliveries, scheduler)
alter table public.event_outbox add column cause jsonb;

-- An event-started run's write tools wait for approval unless the automation's owner lists them here.
alter table public.assistant_automations add column unattended_tools text[] not null default '{}'
  check (cardinality(unattended_tools) <= 100);
grant update (unattended_tools) on public.assistant_automations to authenticated;

-- The cause, from the transaction that records the event. An automation's run is named in its
-- claims (automation_run_id, set by the platform for the run's tool calls, never by a client: a
-- Supabase session cannot carry it); the rest is read from the run and the event that started it,
-- so a claim cannot choose its own depth or chain. A run id that does not match a started run of
-- the claims' user in this tenant is ignored (the cause is then the person).
create function private.event_cause_from_request() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  claims jsonb := nullif(current_setting('request.jwt.claims', true), '')::jsonb;
  run record;
  parent jsonb;
begin
  if new.cause is not null then
    return new;
  end if;
  if claims is null or claims ->> 'sub' is null then
    new.cause := jsonb_build_object('kind', 'system');
    return new;
  end if;
  if claims ->> 'automation_run_id' ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
    select r.id, r.automation_id, r.event_id into run
    from public.assistant_automation_runs r
    join public.assistant_automations a on a.id = r.automation_id
    where r.id = (claims ->> 'automation_run_id')::uuid and r.tenant_id = new.tenant_id
      and r.status = 'started' and a.created_by = (claims ->> 'sub')::uuid;
    if found then
      select e.cause into parent from public.event_outbox e where e.id = run.event_id;
      new.cause := jsonb_build_object(
        'kind', 'automation', 'run_id', run.id, 'automation_id', run.automation_id,
        'depth', coalesce((parent ->> 'depth')::int, 0) + 1,
        'chain', coalesce(parent -> 'chain', '[]'::jsonb) || to_jsonb(run.automation_id::text));
      return new;
    end if;
  end if;
  if claims ? 'api_key_id' then
    new.cause := jsonb_build_object('kind', 'key', 'key_id', claims ->> 'api_key_id', 'user_id', claims ->> 'sub');
  else
    new.cause := jsonb_build_object('kind', 'person', 'user_id', claims ->> 'sub');
  end if;
  return new;
end
$$;
revoke execute on function private.event_cause_from_request() from public;
create trigger event_outbox_cause before insert on public.event_outbox
  for each row execute function private.event_cause_from_request();

-- The fan-out of ADR 0025, now refusing what the cause rules out: an automation in the event's
-- chain (its own runs caused it, directly or through others), an event at the chain's last depth
-- (3), and an automation that already has 20 event runs in the hour before the event (counted with
-- the rows this statement adds, so one statement of many events cannot pass it either).
create or replace function private.automation_event_fan_out() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  insert into public.assistant_automation_runs
    (tenant_id, automation_id, slot, event_id, event_type, status, created_at)
  select c.tenant_id, c.automation_id, c.created_at, c.event_id, c.type, 'pending', c.created_at
  from (
    select e.tenant_id, a.id as automation_id, e.created_at, e.id as event_id, e.type,
           row_number() over (partition by a.id order by e.seq) as nth
    from new_events e
    join public.assistant_automations a
      on a.tenant_id = e.tenant_id and a.trigger_event = e.type and a.enabled
    where not (e.cause ->> 'kind' = 'automation'
               and (coalesce(e.cause -> 'chain', '[]'::jsonb) ? a.id::text
                    or coalesce((e.cause ->> 'depth')::int, 0) >= 3))
  ) c
  where c.nth + (select count(*) from public.assistant_automation_runs r
                 where r.automation_id = c.automation_id and r.event_id is not null
                   and r.status <> 'failed' and r.created_at > c.created_at - interval '1 hour') <= 20
  on conflict (automation_id, event_id) where event_id is not null do nothing;
  return null;
end
$$;
