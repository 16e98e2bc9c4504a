-- A turn's stream events, numbered per turn (the SSE id): a client that lost its stream re-attaches
-- on any instance with Last-Event-ID and reads the rest from here (docs/adr/0024-resumable-turn-streams.md).
-- Written only by the turn's runner (one at a time: the turn job's lease), through the owner pool;
-- read under RLS by whoever may see the turn. Bounded per turn by the turn's limits (model calls,
-- output tokens, tool calls); kept while the turn is open and for a day after (the assistant sweep
-- deletes older ones), and removed with the turn.
create table public.assistant_turn_events (
  tenant_id uuid not null,
  turn_id uuid not null,
  seq integer not null check (seq > 0),
  event text not null check (length(event) between 1 and 64),
  data jsonb not null,
  created_at timestamptz not null default date_trunc('milliseconds', now()),
  primary key (turn_id, seq),
  foreign key (tenant_id, turn_id) references public.assistant_turns (tenant_id, id) on delete cascade
);
create index assistant_turn_events_tenant_idx on public.assistant_turn_events (tenant_id);
create index assistant_turn_events_created_idx on public.assistant_turn_events (created_at);

alter table public.assistant_turn_events enable row level security;
create policy assistant_turn_events_select on public.assistant_turn_events for select to authenticated
  using (tenant_id in (select private.user_tenant_ids())
         and turn_id in (select id from public.assistant_turns));
grant select on public.assistant_turn_events to authenticated;
