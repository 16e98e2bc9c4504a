-- Tool server (functions/mcp-sse): HTTP+SSE sessions and the messages waiting for their stream.
-- A session is held by one instance (the one serving its GET /sse stream); a POST that lands on
-- any instance stores its JSON-RPC response here and wakes the holder with pg_notify('mcp_sse',
-- '<session id>'): the payload travels by reference, never in the notification. Service role only:
-- schema private is not exposed by the Data API, and role authenticated has no policy here.

create table private.mcp_sse_sessions (
  id uuid primary key,
  tenant_id uuid not null references public.tenants (id) on delete cascade,
  key_id uuid not null references public.api_keys (id) on delete cascade,
  -- sha-256 of the key that opened the stream: a POST must present the same key.
  key_hash text not null,
  instance_id text not null,
  opened_at timestamptz not null default date_trunc('milliseconds', now()),
  expires_at timestamptz not null
);
create index mcp_sse_sessions_tenant_idx on private.mcp_sse_sessions (tenant_id);
create index mcp_sse_sessions_expires_idx on private.mcp_sse_sessions (expires_at);
alter table private.mcp_sse_sessions enable row level security;

create table private.mcp_sse_messages (
  id bigint generated always as identity primary key,
  session_id uuid not null references private.mcp_sse_sessions (id) on delete cascade,
  tenant_id uuid not null,
  payload jsonb not null,
  created_at timestamptz not null default date_trunc('milliseconds', now())
);
create index mcp_sse_messages_session_idx on private.mcp_sse_messages (session_id, id);
create index mcp_sse_messages_tenant_idx on private.mcp_sse_messages (tenant_id);
alter table private.mcp_sse_messages enable row level security;

revoke all on private.mcp_sse_sessions, private.mcp_sse_messages from public, authenticated, anon;
