-- Events are written only through private.record_event, never by a direct insert. On Supabase a
-- member could otherwise insert any event for their tenant through the Data API, and the webhook
-- engine would sign and deliver it. The function lives in schema private, which the Data API
-- does not expose; the functions call it inside the transaction of the change.
create function private.record_event(event_id text, event_tenant uuid, event_type text, event_data jsonb, event_at timestamptz)
returns void
language plpgsql security definer set search_path = '' as $$
begin
  -- A tenant caller (claims present) may only write events of its own tenants; service paths
  -- (no claims) scope by tenant themselves.
  if auth.uid() is not null and not exists (
    select 1 from public.tenant_members where tenant_id = event_tenant and user_id = auth.uid()
  ) then
    raise exception 'not a member of tenant %', event_tenant using errcode = '42501';
  end if;
  insert into public.event_outbox (id, tenant_id, type, data, created_at)
  values (event_id, event_tenant, event_type, event_data, event_at);
end
$$;

revoke all on function private.record_event(text, uuid, text, jsonb, timestamptz) from public;
grant execute on function private.record_event(text, uuid, text, jsonb, timestamptz) to authenticated;

drop policy event_outbox_insert on public.event_outbox;
revoke insert on public.event_outbox from authenticated;
