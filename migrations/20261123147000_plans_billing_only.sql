-- Plans are billing data (issue 16, item 3). New tenants start on Free, and only the service role
-- changes a plan: the tenants function's admin endpoint (POST /functions/v1/tenants/admin/tenants/
-- {id}/plan) today, a billing provider's webhook later. Tenant users cannot, through our API or
-- the Data API: no UPDATE privilege on the column, and the trigger refuses as a second line.

revoke update (plan) on public.tenants from authenticated, anon;

create or replace function private.tenant_plan_owners_only() returns trigger
language plpgsql set search_path = '' as $$
begin
  if new.plan is distinct from old.plan and current_user in ('authenticated', 'anon') then
    raise exception 'plans change only through billing' using errcode = '42501';
  end if;
  return new;
end
$$;

-- Sign-up creates Free tenants only (the function runs as definer, so it checks itself).
create or replace function private.create_tenant(p_name text, p_plan text) returns uuid
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := auth.uid();
  tid uuid;
begin
  if uid is null or not exists (select 1 from auth.users where id = uid) then
    raise exception 'no user' using errcode = '42501';
  end if;
  if p_plan is distinct from 'free' then
    raise exception 'new tenants start on the free plan' using errcode = '42501';
  end if;
  insert into public.tenants (name, plan) values (p_name, 'free') returning id into tid;
  insert into public.tenant_members (tenant_id, user_id, role) values (tid, uid, 'owner');
  insert into private.user_active_tenant (user_id, tenant_id) values (uid, tid)
    on conflict (user_id) do update set tenant_id = excluded.tenant_id, updated_at = now();
  return tid;
end
$$;
