-- The tenant's AI assistant (functions/assistant; docs/assistant.md).
--
-- A conversation belongs to the member who started it: members see their own, owners and admins
-- see every conversation of the tenant (they approve tool calls and audit what the assistant did).
-- Turns, messages and tool calls are written only by the service (the turn runner, which scopes
-- every statement by tenant); tenants read them under row-level security through the conversation.

create table public.assistant_settings (
  tenant_id uuid primary key references public.tenants (id) on delete cascade,
  -- null: the provider of the tenant's AI credential (OpenAI-compatible first, then Anthropic).
  provider text check (provider in ('openai', 'anthropic')),
  model text check (length(model) between 1 and 100),
  credential_environment text not null default 'production'
    check (credential_environment in ('development', 'staging', 'production')),
  instructions text check (length(instructions) <= 4000),
  updated_by uuid references auth.users (id) on delete set null,
  updated_at timestamptz not null default date_trunc('milliseconds', now())
);

alter table public.assistant_settings enable row level security;
create policy assistant_settings_select on public.assistant_settings for select to authenticated
  using (tenant_id in (select private.user_tenant_ids()));
create policy assistant_settings_insert on public.assistant_settings for insert to authenticated
  with check ((select private.has_tenant_role(tenant_id, array['owner', 'admin'])));
create policy assistant_settings_update on public.assistant_settings for update to authenticated
  using ((select private.has_tenant_role(tenant_id, array['owner', 'admin'])));
grant select, insert on public.assistant_settings to authenticated;
grant update (provider, model, credential_environment, instructions, updated_by, updated_at)
  on public.assistant_settings to authenticated;

create table public.assistant_conversations (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references public.tenants (id) on delete cascade,
  title text not null check (length(title) between 1 and 200),
  created_by uuid references auth.users (id) on delete set null,
  input_tokens bigint not null default 0,
  output_tokens bigint not null default 0,
  last_message_at timestamptz,
  created_at timestamptz not null default date_trunc('milliseconds', now()),
  updated_at timestamptz not null default date_trunc('milliseconds', now()),
  unique (tenant_id, id)
);
create index assistant_conversations_tenant_idx
  on public.assistant_conversations (tenant_id, created_at desc, id desc);
create index assistant_conversations_creator_idx on public.assistant_conversations (created_by);

alter table public.assistant_conversations enable row level security;
create policy assistant_conversations_select on public.assistant_conversations for select to authenticated
  using (tenant_id in (select private.user_tenant_ids())
         and (created_by = (select auth.uid())
              or (select private.has_tenant_role(tenant_id, array['owner', 'admin']))));
create policy assistant_conversations_insert on public.assistant_conversations for insert to authenticated
  with check (tenant_id in (select private.user_tenant_ids()) and created_by = (select auth.uid()));
create policy assistant_conversations_update on public.assistant_conversations for update to authenticated
  using (tenant_id in (select private.user_tenant_ids())
         and (created_by = (select auth.uid())
              or (select private.has_tenant_role(tenant_id, array['owner', 'admin']))));
create policy assistant_conversations_delete on public.assistant_conversations for delete to authenticated
  using (tenant_id in (select private.user_tenant_ids())
         and (created_by = (select auth.uid())
              or (select private.has_tenant_role(tenant_id, array['owner', 'admin']))));
grant select, insert, delete on public.assistant_conversations to authenticated;
grant update (title, updated_at) on public.assistant_conversations to authenticated;

-- One assistant turn: the user's message and everything the assistant did to answer it. At most
-- one open turn per conversation (the partial unique index): a second request gets 409.
create table public.assistant_turns (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references public.tenants (id) on delete cascade,
  conversation_id uuid not null,
  status text not null check (status in ('running', 'awaiting_approval', 'completed', 'failed', 'stopped')),
  triggered_by text not null check (triggered_by in ('assistant', 'automation')),
  provider text not null check (provider in ('openai', 'anthropic')),
  model text not null,
  credential_environment text not null,
  -- The platform tools' scopes: a key's own, or every scope for a signed-in user.
  scopes text[] not null default '{}',
  job_id uuid,
  steps integer not null default 0,
  input_tokens bigint not null default 0,
  output_tokens bigint not null default 0,
  error text,
  created_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default date_trunc('milliseconds', now()),
  updated_at timestamptz not null default date_trunc('milliseconds', now()),
  finished_at timestamptz,
  unique (tenant_id, id),
  foreign key (tenant_id, conversation_id)
    references public.assistant_conversations (tenant_id, id) on delete cascade
);
create index assistant_turns_conversation_idx on public.assistant_turns (tenant_id, conversation_id, created_at);
create unique index assistant_turns_one_open
  on public.assistant_turns (conversation_id) where status in ('running', 'awaiting_approval');

create table public.assistant_messages (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references public.tenants (id) on delete cascade,
  conversation_id uuid not null,
  turn_id uuid,
  seq bigint generated always as identity,
  role text not null check (role in ('user', 'assistant')),
  content text not null default '',
  created_at timestamptz not null default date_trunc('milliseconds', now()),
  unique (tenant_id, id),
  foreign key (tenant_id, conversation_id)
    references public.assistant_conversations (tenant_id, id) on delete cascade
);
create index assistant_messages_conversation_idx on public.assistant_messages (tenant_id, conversation_id, seq);

create table public.assistant_tool_calls (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references public.tenants (id) on delete cascade,
  conversation_id uuid not null,
  turn_id uuid not null,
  message_id uuid not null,
  position integer not null,
  -- The provider's id of the call (tool_call_id / tool_use id), echoed back with the result.
  provider_call_id text not null check (length(provider_call_id) between 1 and 200),
  -- The name the model used (provider-safe alias) and the tool's REST name.
  name text not null check (length(name) between 1 and 200),
  tool text not null check (length(tool) between 1 and 200),
  arguments jsonb not null default '{}',
  status text not null check (status in ('running', 'awaiting_approval', 'approved', 'denied', 'ok',
                                         'refused', 'invalid', 'failed', 'interrupted')),
  -- What went back to the model (bounded), or the reason of a refusal.
  result text,
  decided_by uuid references auth.users (id) on delete set null,
  decided_at timestamptz,
  created_at timestamptz not null default date_trunc('milliseconds', now()),
  finished_at timestamptz,
  unique (tenant_id, id),
  foreign key (tenant_id, conversation_id)
    references public.assistant_conversations (tenant_id, id) on delete cascade
);
create index assistant_tool_calls_conversation_idx
  on public.assistant_tool_calls (tenant_id, conversation_id, created_at, position);
create index assistant_tool_calls_turn_idx on public.assistant_tool_calls (turn_id);

alter table public.assistant_turns enable row level security;
alter table public.assistant_messages enable row level security;
alter table public.assistant_tool_calls enable row level security;
create policy assistant_turns_select on public.assistant_turns for select to authenticated
  using (tenant_id in (select private.user_tenant_ids())
         and conversation_id in (select id from public.assistant_conversations));
create policy assistant_messages_select on public.assistant_messages for select to authenticated
  using (tenant_id in (select private.user_tenant_ids())
         and conversation_id in (select id from public.assistant_conversations));
create policy assistant_tool_calls_select on public.assistant_tool_calls for select to authenticated
  using (tenant_id in (select private.user_tenant_ids())
         and conversation_id in (select id from public.assistant_conversations));
grant select on public.assistant_turns, public.assistant_messages, public.assistant_tool_calls to authenticated;

-- Tool permissions may require a person's approval before the assistant runs the tool.
alter table public.integration_tool_permissions add column requires_approval boolean not null default false;
grant update (requires_approval) on public.integration_tool_permissions to authenticated;

-- assistant's sweep: turns whose instance stopped (the job engine's lease) are resumed or failed.
select private.schedule_job('assistant-sweep', '* * * * *', 'assistant/jobs/sweep');
