-- Tool subsets: a tool-server key or an MCP OAuth grant limited to named connections and tools;
-- NULL: every tool the key's scopes and the connections' permissions allow (as before). Otherwise
-- {"connections": [<connection id>, ...], "tools": ["<tool name>", ...]}, validated by the service
-- (shared/services/tools/tool-subset.ts); the checks here only bound its shape and size.
alter table public.api_keys add column tool_subset jsonb;
alter table public.api_keys add constraint api_keys_tool_subset_shape
  check (tool_subset is null or (jsonb_typeof(tool_subset) = 'object' and octet_length(tool_subset::text) <= 65536));
grant select (tool_subset) on public.api_keys to authenticated;

alter table public.mcp_oauth_grants add column tool_subset jsonb;
alter table public.mcp_oauth_grants add constraint mcp_oauth_grants_tool_subset_shape
  check (tool_subset is null or (jsonb_typeof(tool_subset) = 'object' and octet_length(tool_subset::text) <= 65536));

-- Carried from the consent decision to the grant the code is exchanged for.
alter table private.mcp_oauth_requests add column tool_subset jsonb;

-- A client named by the URL of its metadata document has no row in private.mcp_oauth_clients: its
-- requests refer to no registered client, and its name, read from the document, travels with the
-- request to the consent page.
alter table private.mcp_oauth_requests drop constraint if exists mcp_oauth_requests_client_id_fkey;
alter table private.mcp_oauth_requests add column client_name text;
