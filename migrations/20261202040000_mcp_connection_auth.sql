-- MCP connections without a credential ('none') and with an OAuth sign-in at the server's own
-- authorization server ('oauth', the MCP authorization flow run as a client). An 'oauth' MCP
-- connection keeps its tokens where OAuth connections keep theirs (access_token_encrypted,
-- refresh_token_encrypted, token_expires_at), so the hourly refresh job claims both kinds.
-- mcp_oauth holds what a refresh needs besides the tokens: the authorization server's metadata,
-- the client_id it registered and the resource indicator; a registered client secret, if the
-- server issued one, is encrypted beside it. Neither column is granted to the API roles.

alter table public.integration_connections drop constraint integration_connections_mcp_auth_type_check;
alter table public.integration_connections add constraint integration_connections_mcp_auth_type_check
  check (mcp_auth_type in ('bearer', 'api_key', 'none', 'oauth'));

alter table public.integration_connections add column mcp_oauth jsonb
  check (mcp_oauth is null or (jsonb_typeof(mcp_oauth) = 'object' and octet_length(mcp_oauth::text) <= 16384));
alter table public.integration_connections add column mcp_oauth_client_secret_encrypted text;

alter table public.integration_connections drop constraint integration_connections_check;
alter table public.integration_connections add constraint integration_connections_check check (
  (connection_type = 'oauth' and access_token_encrypted is not null and external_account_id is not null)
  or (connection_type = 'mcp' and mcp_server_url is not null and (
    (mcp_auth_type in ('bearer', 'api_key') and mcp_auth_token_encrypted is not null)
    or (mcp_auth_type = 'none' and mcp_auth_token_encrypted is null)
    or (mcp_auth_type = 'oauth' and access_token_encrypted is not null and mcp_oauth is not null)))
);

-- The refresh job's claim covers OAuth MCP connections too.
drop index public.integration_connections_refresh_idx;
create index integration_connections_refresh_idx on public.integration_connections (token_expires_at)
  where status = 'active' and refresh_token_encrypted is not null;

-- An authorization started by connecting an OAuth-protected MCP server carries the pending
-- connection (server, client registration, verifier) to the callback, encrypted.
alter table private.oauth_states add column mcp_flow_encrypted text;
