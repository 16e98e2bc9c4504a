-- Tool search (docs/mcp.md "Tool search"; docs/adr/0043-connection-elicitation-and-tool-search.md).
--
-- How the tool server lists tools to a tool-server key or an MCP OAuth grant: 'all' (every tool
-- it may call, as before) or 'search' (tools/list offers search_tools and call_tool instead, and
-- the client finds the tools it needs). Calls, permissions and metering are the same either way.
alter table public.api_keys add column tool_listing text not null default 'all'
  constraint api_keys_tool_listing_check check (tool_listing in ('all', 'search'));
grant select (tool_listing) on public.api_keys to authenticated;

alter table public.mcp_oauth_grants add column tool_listing text not null default 'all'
  constraint mcp_oauth_grants_tool_listing_check check (tool_listing in ('all', 'search'));

-- Carried from the consent decision to the grant the code is exchanged for.
alter table private.mcp_oauth_requests add column tool_listing text not null default 'all'
  constraint mcp_oauth_requests_tool_listing_check check (tool_listing in ('all', 'search'));
