-- An approval is of the article as it was when the call began to wait. A call of a platform tool
-- that publishes or schedules an article records the article's current revision here when it
-- starts waiting; when the approved call is about to run, a different revision (the article was
-- edited since) refuses it, so the approver must look again (shared/services/assistant/turn/
-- approval-basis.ts). Null: a call bound to nothing (every other tool).
alter table public.assistant_tool_calls add column approval_basis jsonb;
comment on column public.assistant_tool_calls.approval_basis is
  'What the approval was asked about, recorded when the call began to wait: {"revision_id": <the article''s revision_id or null>}';
