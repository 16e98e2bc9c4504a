-- Where a conversation came from (docs/assistant.md "Conversations"; docs/adr/0047-chat-page-conversation-origin.md).
--
-- chat: a person started it; automation: an automation's run started it (one conversation per run).
-- The conversation list shows chats by default, so runs do not flood it: they are listed on the
-- Automations page, each linking its conversation. Set once when the conversation is created; the
-- API never takes it from a request body.
--
-- Existing run conversations are those an assistant_automation_runs row points at.

alter table public.assistant_conversations
  add column origin text not null default 'chat' check (origin in ('chat', 'automation'));

update public.assistant_conversations c set origin = 'automation'
where exists (select 1 from public.assistant_automation_runs r
              where r.tenant_id = c.tenant_id and r.conversation_id = c.id);

-- The list's read: one tenant, one origin, newest first (keyset on created_at, id).
create index assistant_conversations_origin_idx
  on public.assistant_conversations (tenant_id, origin, created_at desc, id desc);
