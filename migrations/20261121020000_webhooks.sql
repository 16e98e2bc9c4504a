-- Outbound webhooks: subscriptions, one delivery per (subscription, event), and the attempt log.
-- See docs/webhooks.md. All three tables hold tenant data: RLS with the spec's rule, tenant_id
-- indexed as the leading column. The dispatcher works on the owner connection (service role).

create table public.webhook_subscriptions (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references public.tenants (id) on delete cascade,
  url text not null check (length(url) between 1 and 2048),
  events text[] not null check (cardinality(events) between 1 and 10),
  description text check (length(description) <= 500),
  status text not null default 'active' check (status in ('active', 'paused')),
  paused_at timestamptz,
  paused_reason text check (paused_reason in ('failures', 'manual')),
  -- Bumped by the dispatcher on each automatic pause: "notify once per pause" is a dedupe key on it.
  pause_count integer not null default 0,
  -- Vault ciphertexts (purpose 'webhook-secret'): signing needs the plaintext, so not a hash.
  secret_ciphertext text not null,
  previous_secret_ciphertext text,
  previous_secret_expires_at timestamptz,
  created_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, id)
);
create index webhook_subscriptions_tenant_id_idx on public.webhook_subscriptions (tenant_id, created_at desc, id);

-- One row per (subscription, event): its state machine and the payload to send. The payload is
-- copied from the outbox so deliveries do not depend on outbox retention, and every attempt of
-- an event sends the same bytes.
create table public.webhook_deliveries (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null,
  subscription_id uuid not null,
  event_id text not null check (event_id like 'evt\_%'),
  event_type text not null,
  event_created_at timestamptz not null,
  data jsonb not null,
  is_test boolean not null default false,
  status text not null default 'pending' check (status in ('pending', 'succeeded', 'failed')),
  -- attempts: made so far (numbers the attempts); schedule_base: attempts when the current run of
  -- the retry schedule began (redeliver, recover and resume start a new run).
  attempts integer not null default 0,
  schedule_base integer not null default 0,
  next_attempt_at timestamptz,
  last_attempt_at timestamptz,
  -- Lease of the dispatcher sending the next attempt; an expired lease is claimable again.
  locked_until timestamptz,
  lease_id uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  foreign key (tenant_id, subscription_id) references public.webhook_subscriptions (tenant_id, id) on delete cascade,
  unique (subscription_id, event_id)
);
create index webhook_deliveries_tenant_id_idx on public.webhook_deliveries (tenant_id, created_at);
create index webhook_deliveries_due_idx on public.webhook_deliveries (next_attempt_at) where status = 'pending';
create index webhook_deliveries_subscription_idx on public.webhook_deliveries (subscription_id, status);

create table public.webhook_delivery_attempts (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null,
  subscription_id uuid not null,
  delivery_id uuid not null references public.webhook_deliveries (id) on delete cascade,
  event_id text not null,
  event_type text not null,
  attempt integer not null check (attempt >= 1),
  success boolean not null,
  status_code integer,
  duration_ms integer not null,
  response_excerpt text,
  error text,
  attempted_at timestamptz not null,
  next_attempt_at timestamptz,
  -- The same attempt of a delivery is recorded once, whichever dispatcher sent it.
  unique (delivery_id, attempt)
);
create index webhook_delivery_attempts_tenant_id_idx
  on public.webhook_delivery_attempts (tenant_id, subscription_id, attempted_at desc, id);

alter table public.webhook_subscriptions enable row level security;
create policy webhook_subscriptions_select on public.webhook_subscriptions for select to authenticated
  using (tenant_id in (select private.user_tenant_ids()));
create policy webhook_subscriptions_insert on public.webhook_subscriptions for insert to authenticated
  with check ((select private.has_tenant_role(tenant_id, array['owner', 'admin'])));
create policy webhook_subscriptions_update on public.webhook_subscriptions for update to authenticated
  using ((select private.has_tenant_role(tenant_id, array['owner', 'admin'])))
  with check ((select private.has_tenant_role(tenant_id, array['owner', 'admin'])));
create policy webhook_subscriptions_delete on public.webhook_subscriptions for delete to authenticated
  using ((select private.has_tenant_role(tenant_id, array['owner', 'admin'])));
grant select, insert, delete on public.webhook_subscriptions to authenticated;
grant update (url, events, description, status, paused_at, paused_reason, secret_ciphertext,
              previous_secret_ciphertext, previous_secret_expires_at, updated_at)
  on public.webhook_subscriptions to authenticated;

alter table public.webhook_deliveries enable row level security;
create policy webhook_deliveries_select on public.webhook_deliveries for select to authenticated
  using (tenant_id in (select private.user_tenant_ids()));
create policy webhook_deliveries_insert on public.webhook_deliveries for insert to authenticated
  with check ((select private.has_tenant_role(tenant_id, array['owner', 'admin'])) and is_test);
create policy webhook_deliveries_update on public.webhook_deliveries for update to authenticated
  using ((select private.has_tenant_role(tenant_id, array['owner', 'admin'])))
  with check ((select private.has_tenant_role(tenant_id, array['owner', 'admin'])));
-- Tenants may queue a test event and requeue deliveries; attempts and leases are the dispatcher's.
grant select, insert on public.webhook_deliveries to authenticated;
grant update (status, next_attempt_at, schedule_base, updated_at) on public.webhook_deliveries to authenticated;

alter table public.webhook_delivery_attempts enable row level security;
create policy webhook_delivery_attempts_select on public.webhook_delivery_attempts for select to authenticated
  using (tenant_id in (select private.user_tenant_ids()));
grant select on public.webhook_delivery_attempts to authenticated;

-- Fan-out: every event written to the outbox gets one delivery per subscription of its tenant
-- that names its type, in the writer's own transaction. So a delivery exists exactly when its
-- event commits: no cursor over the outbox's seq, which would skip an event whose transaction
-- took a lower seq but committed after a higher one. Paused subscriptions get deliveries too;
-- they are held until resume. Statement-level with a transition table: one insert per statement.
create function private.webhook_fan_out() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  insert into public.webhook_deliveries
    (tenant_id, subscription_id, event_id, event_type, event_created_at, data, next_attempt_at, created_at, updated_at)
  select e.tenant_id, s.id, e.id, e.type, e.created_at, e.data, e.created_at, e.created_at, e.created_at
  from new_events e
  join public.webhook_subscriptions s on s.tenant_id = e.tenant_id and e.type = any (s.events)
  on conflict (subscription_id, event_id) do nothing;
  return null;
end
$$;
revoke all on function private.webhook_fan_out() from public;

create trigger event_outbox_webhook_fan_out
  after insert on public.event_outbox
  referencing new table as new_events
  for each statement execute function private.webhook_fan_out();

-- Production: pg_cron calls the dispatcher every minute (no-op where pg_cron is missing; the
-- local platform polls every second and also runs it right after each outbox commit).
select private.schedule_job('webhook-dispatch', '* * * * *', 'webhooks/jobs/dispatch');
