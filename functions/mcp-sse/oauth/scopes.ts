/**
 * The scopes an MCP client may ask for: the ones the tool server's own tools are gated by (the
 * connections' tools need none beyond a grant). A grant without a scope gets both.
 */
export const toolScopes = ['content:read', 'content:write'] as const
