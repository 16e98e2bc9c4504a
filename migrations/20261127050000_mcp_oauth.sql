-- OAuth sign-in for MCP clients at the tool server (docs/mcp.md, docs/adr/0008-mcp-oauth-server.md).
-- The tool server is its own authorization server: clients register themselves (RFC 7591), a
-- signed-in owner or admin approves a request on the dashboard's consent page, and the client
-- gets an access token and a refresh token bound to one grant: the tenant, the user who approved
-- it, the tool server as audience and the scopes. Only hashes of codes and tokens are stored.

-- Registered clients: public clients (no secret), exact redirect URIs.
create table private.mcp_oauth_clients (
  client_id text primary key,
  client_name text not null check (length(client_name) between 1 and 200),
  redirect_uris text[] not null check (cardinality(redirect_uris) between 1 and 10),
  created_at timestamptz not null default date_trunc('milliseconds', now())
);
alter table private.mcp_oauth_clients enable row level security;

-- Authorization requests waiting for the user's decision, then their single-use code.
create table private.mcp_oauth_requests (
  id uuid primary key,
  client_id text not null references private.mcp_oauth_clients (client_id) on delete cascade,
  redirect_uri text not null,
  state text,
  code_challenge text not null,
  scopes text[] not null,
  resource text not null,
  tenant_id uuid references public.tenants (id) on delete cascade,
  user_id uuid references auth.users (id) on delete cascade,
  code_hash text unique,
  expires_at timestamptz not null
);
create index mcp_oauth_requests_expires_idx on private.mcp_oauth_requests (expires_at);
alter table private.mcp_oauth_requests enable row level security;

-- Connected clients: what an owner sees and revokes (GET/DELETE /api/mcp-clients).
create table public.mcp_oauth_grants (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references public.tenants (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  client_id text not null,
  client_name text not null,
  scopes text[] not null,
  resource text not null,
  created_at timestamptz not null default date_trunc('milliseconds', now()),
  last_used_at timestamptz,
  revoked_at timestamptz
);
create index mcp_oauth_grants_tenant_idx on public.mcp_oauth_grants (tenant_id, created_at desc, id);
alter table public.mcp_oauth_grants enable row level security;
create policy mcp_oauth_grants_select on public.mcp_oauth_grants for select to authenticated
  using (tenant_id in (select private.user_tenant_ids()));
create policy mcp_oauth_grants_update on public.mcp_oauth_grants for update to authenticated
  using ((select private.has_tenant_role(tenant_id, array['owner', 'admin'])));
grant select on public.mcp_oauth_grants to authenticated;
grant update (revoked_at) on public.mcp_oauth_grants to authenticated;

-- Access and refresh tokens of a grant. A refresh token is used once (rotation); presenting a
-- used one again revokes the grant (RFC 9700: refresh token reuse means it leaked).
create table private.mcp_oauth_tokens (
  token_hash text primary key,
  grant_id uuid not null references public.mcp_oauth_grants (id) on delete cascade,
  kind text not null check (kind in ('access', 'refresh')),
  expires_at timestamptz not null,
  used_at timestamptz
);
create index mcp_oauth_tokens_grant_idx on private.mcp_oauth_tokens (grant_id);
create index mcp_oauth_tokens_expires_idx on private.mcp_oauth_tokens (expires_at);
alter table private.mcp_oauth_tokens enable row level security;

revoke all on private.mcp_oauth_clients, private.mcp_oauth_requests, private.mcp_oauth_tokens
  from public, authenticated, anon;

-- private.authorize_mcp_token: an access token as private.authorize_key takes a tool-server key,
-- in one statement: the lookup (not expired, grant not revoked, its user still a member), the
-- rate-limit take (the grant's bucket at the tool-server limit, or the address's), and the
-- transaction's claims for a valid token whose take was allowed.
create function private.authorize_mcp_token(
  p_token_hash text,
  p_ip_bucket text,
  p_ip_limit integer,
  p_tool_limit integer,
  p_now timestamptz
)
returns table (
  grant_id uuid,
  tenant_id uuid,
  user_id uuid,
  scopes text[],
  client_name text,
  last_used_at timestamptz,
  allowed boolean,
  tat timestamptz,
  rate_limit integer
)
language plpgsql security definer set search_path = '' as $$
declare
  g record;
  v_limit integer;
  v_allowed boolean;
  v_tat timestamptz;
begin
  select gr.id, gr.tenant_id, gr.user_id, gr.scopes, gr.client_name, gr.last_used_at
  into g
  from private.mcp_oauth_tokens t
  join public.mcp_oauth_grants gr on gr.id = t.grant_id
  join public.tenant_members m on m.tenant_id = gr.tenant_id and m.user_id = gr.user_id
  where t.token_hash = p_token_hash
    and t.kind = 'access'
    and t.expires_at > p_now
    and gr.revoked_at is null;

  v_limit := case when g.id is null then p_ip_limit else p_tool_limit end;
  select r.allowed, r.tat into v_allowed, v_tat
  from private.take_rate_limit(case when g.id is null then p_ip_bucket else 'grant:' || g.id end, v_limit, p_now) r;

  perform set_config('request.jwt.claims', case when g.id is not null and v_allowed then json_build_object(
    'sub', g.user_id,
    'role', 'authenticated',
    'app_metadata', json_build_object('tenant_id', g.tenant_id)
  )::text else '' end, true);

  return query select g.id, g.tenant_id, g.user_id, g.scopes, g.client_name, g.last_used_at, v_allowed, v_tat, v_limit;
end
$$;

revoke execute on function private.authorize_mcp_token(text, text, integer, integer, timestamptz) from public;
