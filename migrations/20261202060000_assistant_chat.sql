-- The assistant as a chat (docs/assistant.md): stop, regenerate and edit, titles and search.
--
-- Stop: a turn is marked (cancel_requested_at) by whoever asks, on any instance; the instance that
-- runs it reads the mark at its next step and records `cancelled`. A call not yet started is
-- recorded `cancelled` and never runs.
alter table public.assistant_turns drop constraint assistant_turns_status_check;
alter table public.assistant_turns add constraint assistant_turns_status_check
  check (status in ('running', 'awaiting_approval', 'completed', 'failed', 'stopped', 'cancelled'));
alter table public.assistant_tool_calls drop constraint assistant_tool_calls_status_check;
alter table public.assistant_tool_calls add constraint assistant_tool_calls_status_check
  check (status in ('running', 'awaiting_approval', 'approved', 'denied', 'ok', 'refused', 'invalid',
                    'failed', 'interrupted', 'cancelled'));

-- Regenerate and edit: one exchange (a user message and the turn that answers it) may have
-- several versions, each a turn of the same exchange_id. Only the newest is in the conversation
-- (and in the model's history); the earlier ones are kept, superseded, as alternatives.
alter table public.assistant_turns
  add column cancel_requested_at timestamptz,
  add column exchange_id uuid,
  add column version integer not null default 1 check (version between 1 and 1000),
  add column user_message_id uuid,
  add column superseded_at timestamptz;
update public.assistant_turns t set exchange_id = t.id,
  user_message_id = (select m.id from public.assistant_messages m
                     where m.turn_id = t.id and m.role = 'user' order by m.seq limit 1);
create index assistant_turns_exchange_idx on public.assistant_turns (tenant_id, exchange_id);

alter table public.assistant_messages add column superseded_at timestamptz;

-- Titles: where the title came from. 'default' until the first message; 'rule' (the first
-- message, shortened) or 'model' (a short model call) from the first exchange; 'user' once set
-- by a person, which nothing automatic overwrites.
alter table public.assistant_conversations
  add column title_source text not null default 'default'
    check (title_source in ('default', 'rule', 'model', 'user'));
update public.assistant_conversations set title_source = 'rule' where title <> 'New conversation';
grant update (title_source) on public.assistant_conversations to authenticated;

-- Search: full-text over titles and message content ('simple': no language is assumed), each a
-- stored tsvector under a GIN index, read under the tables' row-level security.
alter table public.assistant_conversations
  add column search tsvector generated always as (to_tsvector('simple', title)) stored;
create index assistant_conversations_search_idx on public.assistant_conversations using gin (search);
alter table public.assistant_messages
  add column search tsvector generated always as (to_tsvector('simple', content)) stored;
create index assistant_messages_search_idx on public.assistant_messages using gin (search);
