-- Integrations hub: tenant connections (OAuth 2.0 and MCP), discovered MCP tools, per-connection
-- tool permissions, the usage log, and the single-use OAuth states. The catalog itself is data in
-- functions/integrations/catalog.ts (one definition; its integration_id values are fixed uuids).

create table public.integration_connections (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references public.tenants (id) on delete cascade,
  integration_id uuid not null,
  integration_slug text not null check (integration_slug ~ '^[a-z0-9][a-z0-9-]{0,62}$'),
  connection_type text not null check (connection_type in ('oauth', 'mcp')),
  status text not null default 'active' check (status in ('active', 'needs_reauth')),
  display_name text check (length(display_name) between 1 and 100),
  created_by uuid references auth.users (id) on delete set null,
  -- OAuth
  external_account_id text check (length(external_account_id) <= 200),
  external_account_name text check (length(external_account_name) <= 200),
  scopes text[] not null default '{}',
  access_token_encrypted text,
  refresh_token_encrypted text,
  token_expires_at timestamptz,
  -- Bumped whenever new tokens are stored: names one token generation (notification dedupe).
  token_version integer not null default 1,
  -- Refresh lease: taken atomically by one job run; the token endpoint is called only under it.
  refresh_locked_until timestamptz,
  refresh_lease uuid,
  refresh_failures integer not null default 0,
  refresh_next_attempt_at timestamptz,
  last_refresh_error text,
  last_refreshed_at timestamptz,
  -- MCP
  mcp_server_url text check (length(mcp_server_url) <= 2048),
  mcp_auth_type text check (mcp_auth_type in ('bearer', 'api_key')),
  mcp_auth_token_encrypted text,
  mcp_transport text check (mcp_transport in ('streamable_http', 'sse')),
  tools_discovered_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, id),
  -- Reconnecting the same external account updates its connection (NULLs, i.e. MCP rows, never collide).
  unique (tenant_id, integration_id, external_account_id),
  check (
    (connection_type = 'oauth' and access_token_encrypted is not null and external_account_id is not null)
    or (connection_type = 'mcp' and mcp_server_url is not null and mcp_auth_type is not null and mcp_auth_token_encrypted is not null)
  )
);
create index integration_connections_tenant_idx on public.integration_connections (tenant_id, created_at, id);
-- The refresh job's claim: OAuth tokens by expiry, only those that can be refreshed.
create index integration_connections_refresh_idx on public.integration_connections (token_expires_at)
  where connection_type = 'oauth' and status = 'active' and refresh_token_encrypted is not null;

alter table public.integration_connections enable row level security;
create policy integration_connections_select on public.integration_connections for select to authenticated
  using (tenant_id in (select private.user_tenant_ids()));
create policy integration_connections_insert on public.integration_connections for insert to authenticated
  with check ((select private.has_tenant_role(tenant_id, array['owner', 'admin'])));
create policy integration_connections_update on public.integration_connections for update to authenticated
  using ((select private.has_tenant_role(tenant_id, array['owner', 'admin'])));
create policy integration_connections_delete on public.integration_connections for delete to authenticated
  using ((select private.has_tenant_role(tenant_id, array['owner', 'admin'])));
-- Column grants: the encrypted secrets and the refresh bookkeeping are never readable by tenants
-- (Supabase exposes public tables through PostgREST); only service-role paths read them.
grant select (id, tenant_id, integration_id, integration_slug, connection_type, status, display_name, created_by,
              external_account_id, external_account_name, scopes, token_expires_at, last_refreshed_at,
              mcp_server_url, mcp_auth_type, mcp_transport, tools_discovered_at, created_at, updated_at)
  on public.integration_connections to authenticated;
grant insert (tenant_id, integration_id, integration_slug, connection_type, display_name, created_by,
              mcp_server_url, mcp_auth_type, mcp_auth_token_encrypted, mcp_transport, tools_discovered_at, created_at, updated_at)
  on public.integration_connections to authenticated;
grant update (display_name, mcp_transport, tools_discovered_at, updated_at) on public.integration_connections to authenticated;
grant delete on public.integration_connections to authenticated;

-- Tools discovered from a connected MCP server (OAuth connections take their tools from the catalog).
create table public.integration_tools (
  tenant_id uuid not null,
  connection_id uuid not null,
  name text not null check (length(name) between 3 and 200),
  alias text not null check (alias ~ '^[A-Za-z0-9_-]{1,64}$'),
  description text not null default '' check (length(description) <= 4000),
  input_schema jsonb not null,
  created_at timestamptz not null default now(),
  primary key (connection_id, name),
  unique (connection_id, alias),
  foreign key (tenant_id, connection_id) references public.integration_connections (tenant_id, id) on delete cascade
);
create index integration_tools_tenant_idx on public.integration_tools (tenant_id, connection_id);

alter table public.integration_tools enable row level security;
create policy integration_tools_select on public.integration_tools for select to authenticated
  using (tenant_id in (select private.user_tenant_ids()));
create policy integration_tools_insert on public.integration_tools for insert to authenticated
  with check ((select private.has_tenant_role(tenant_id, array['owner', 'admin'])));
create policy integration_tools_delete on public.integration_tools for delete to authenticated
  using ((select private.has_tenant_role(tenant_id, array['owner', 'admin'])));
grant select, insert, delete on public.integration_tools to authenticated;

create table public.integration_tool_permissions (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null,
  connection_id uuid not null,
  tool_name text not null check (length(tool_name) between 3 and 200),
  allowed boolean not null,
  restrictions jsonb not null default '{}',
  created_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (connection_id, tool_name),
  foreign key (tenant_id, connection_id) references public.integration_connections (tenant_id, id) on delete cascade
);
create index integration_tool_permissions_tenant_idx on public.integration_tool_permissions (tenant_id, connection_id);

alter table public.integration_tool_permissions enable row level security;
create policy integration_tool_permissions_select on public.integration_tool_permissions for select to authenticated
  using (tenant_id in (select private.user_tenant_ids()));
create policy integration_tool_permissions_insert on public.integration_tool_permissions for insert to authenticated
  with check ((select private.has_tenant_role(tenant_id, array['owner', 'admin'])));
create policy integration_tool_permissions_update on public.integration_tool_permissions for update to authenticated
  using ((select private.has_tenant_role(tenant_id, array['owner', 'admin'])));
grant select, insert on public.integration_tool_permissions to authenticated;
grant update (allowed, restrictions, created_by, updated_at) on public.integration_tool_permissions to authenticated;

-- One record per integration call. connection_id has no foreign key on purpose: statistics
-- outlive a deleted connection.
create table public.integration_usage (
  id bigint generated always as identity primary key,
  tenant_id uuid not null references public.tenants (id) on delete cascade,
  integration_id uuid not null,
  connection_id uuid,
  tool_name text not null check (length(tool_name) <= 200),
  action text not null check (action in ('read', 'write', 'discover')),
  triggered_by text not null check (triggered_by in ('assistant', 'automation', 'manual')),
  user_id uuid,
  success boolean not null,
  response_time_ms integer not null check (response_time_ms >= 0),
  created_at timestamptz not null default now()
);
-- The statistics query reads one tenant's integration over a time range; the included columns
-- make it an index-only scan.
create index integration_usage_stats_idx on public.integration_usage (tenant_id, integration_id, created_at)
  include (success, triggered_by, response_time_ms);

alter table public.integration_usage enable row level security;
create policy integration_usage_select on public.integration_usage for select to authenticated
  using (tenant_id in (select private.user_tenant_ids()));
create policy integration_usage_insert on public.integration_usage for insert to authenticated
  with check (tenant_id in (select private.user_tenant_ids()));
grant select, insert on public.integration_usage to authenticated;

-- OAuth authorization requests in flight: the state is stored hashed, single use, minutes long.
create table private.oauth_states (
  state_hash text primary key,
  tenant_id uuid not null references public.tenants (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  integration_slug text not null,
  code_verifier_encrypted text,
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);
create index oauth_states_tenant_idx on private.oauth_states (tenant_id);
create index oauth_states_expires_idx on private.oauth_states (expires_at);

select private.schedule_job('oauth-token-refresh', '0 * * * *', 'integrations/jobs/refresh-tokens');
