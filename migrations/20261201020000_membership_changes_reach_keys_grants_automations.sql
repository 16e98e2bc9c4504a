-- What a member set up acts with their current role, and ends when they leave (docs/assistant.md,
-- docs/mcp.md):
--   - an MCP client's access token carries its user's current role (private.authorize_mcp_token
--     returns it), as a platform key carries its creator's;
--   - removing a member revokes their MCP OAuth grants and their API keys in that tenant, so
--     inviting them back does not bring either back;
--   - an automation whose creator is removed or demoted to member is disabled at once, with the
--     reason (disabled_reason), and never runs as anyone else (the sweep checks again);
--   - a tenant has at most 20 automations.

drop function private.authorize_mcp_token(text, text, integer, integer, timestamptz);
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
  member_role text,
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
  select gr.id, gr.tenant_id, gr.user_id, m.role, gr.scopes, gr.client_name, gr.last_used_at
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

  return query select g.id, g.tenant_id, g.user_id, g.role, g.scopes, g.client_name, g.last_used_at,
    v_allowed, v_tat, v_limit;
end
$$;
revoke execute on function private.authorize_mcp_token(text, text, integer, integer, timestamptz) from public;

-- Why an automation stopped running on its own: its creator left the tenant or is no longer an
-- owner or admin. Cleared when an owner or admin turns it on again.
alter table public.assistant_automations
  add column disabled_reason text check (disabled_reason in ('creator_removed', 'creator_demoted'));
grant update (disabled_reason) on public.assistant_automations to authenticated;

-- After a member leaves or changes role: their grants and automations in that tenant follow.
-- Skipped while the tenant itself is being deleted (its rows go with it).
create function private.follow_membership_change() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if not exists (select 1 from public.tenants where id = old.tenant_id) then
    return null;
  end if;
  if tg_op = 'DELETE' then
    update public.mcp_oauth_grants set revoked_at = now()
    where tenant_id = old.tenant_id and user_id = old.user_id and revoked_at is null;
    update public.api_keys set revoked_at = now()
    where tenant_id = old.tenant_id and created_by = old.user_id and revoked_at is null;
    update public.assistant_automations set enabled = false, disabled_reason = 'creator_removed',
      updated_at = date_trunc('milliseconds', now())
    where tenant_id = old.tenant_id and created_by = old.user_id and enabled;
  elsif new.role = 'member' and old.role <> 'member' then
    update public.assistant_automations set enabled = false, disabled_reason = 'creator_demoted',
      updated_at = date_trunc('milliseconds', now())
    where tenant_id = old.tenant_id and created_by = old.user_id and enabled;
  end if;
  return null;
end
$$;
revoke execute on function private.follow_membership_change() from public;

create trigger tenant_members_follow_change
  after delete or update of role on public.tenant_members
  for each row execute function private.follow_membership_change();

-- At most 20 automations a tenant (docs/assistant.md): the tenant's row is locked while counting,
-- so concurrent inserts on any number of instances cannot pass the bound together.
create function private.limit_automations() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform 1 from public.tenants where id = new.tenant_id for update;
  if (select count(*) from public.assistant_automations where tenant_id = new.tenant_id) >= 20 then
    raise exception 'a tenant has at most 20 automations' using errcode = 'P0001', hint = 'automation_limit';
  end if;
  return new;
end
$$;
revoke execute on function private.limit_automations() from public;

create trigger assistant_automations_limit
  before insert on public.assistant_automations
  for each row execute function private.limit_automations();

-- The sweep's fair claim ranks due automations per tenant.
create index assistant_automations_tenant_due_idx on public.assistant_automations (tenant_id, next_run_at, id)
  where enabled;
