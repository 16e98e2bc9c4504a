-- Security-definer functions that act as auth.uid() refuse a published-only claim (ADR 0029).
--
-- A published-only key's claims carry its creator's sub, so a definer function that trusts
-- auth.uid() alone acted as that member: it could create a tenant, accept an invitation, switch
-- the active tenant, queue jobs and record events. Each now calls one guard first, which raises
-- 42501 under the claim; request_role (a helper the contributor policies call, where an error
-- would break the published reads) answers as for nobody instead. tests/function-privileges.test.ts
-- calls every definer function an API role may execute under a member's published-only claim.

create function private.refuse_published_only() returns void
language plpgsql stable set search_path = ''
as $$
begin
  if private.request_published_only() then
    raise exception 'a published-only key may only read published content' using errcode = '42501';
  end if;
end
$$;
-- Called from within the definer functions below (as their owner): no API role needs it.
revoke execute on function private.refuse_published_only() from public;

create or replace function private.create_tenant(p_name text, p_plan text) returns uuid
language plpgsql security definer set search_path = ''
as $$
declare
  uid uuid := auth.uid();
  tid uuid;
begin
  perform private.refuse_published_only();
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

create or replace function private.accept_invitation(p_token_hash text, p_now timestamp with time zone)
returns table(outcome text, invitation_id uuid, tenant_id uuid, role text, email text)
language plpgsql security definer set search_path = ''
as $$
declare
  inv public.invitations;
  user_email text;
begin
  perform private.refuse_published_only();
  select * into inv from public.invitations i where i.token_hash = p_token_hash for update;
  if not found or inv.revoked_at is not null then
    return query select 'not_found', null::uuid, null::uuid, null::text, null::text;
    return;
  end if;
  if inv.accepted_at is not null then
    return query select 'used', inv.id, null::uuid, null::text, null::text;
    return;
  end if;
  if inv.expires_at <= p_now then
    return query select 'expired', inv.id, null::uuid, null::text, null::text;
    return;
  end if;
  select lower(u.email) into user_email from auth.users u where u.id = auth.uid();
  if user_email is distinct from inv.email then
    return query select 'wrong_user', inv.id, null::uuid, null::text, null::text;
    return;
  end if;
  if exists (select 1 from public.tenant_members m where m.tenant_id = inv.tenant_id and m.user_id = auth.uid()) then
    return query select 'already_member', inv.id, null::uuid, null::text, null::text;
    return;
  end if;
  insert into public.tenant_members (tenant_id, user_id, role) values (inv.tenant_id, auth.uid(), inv.role);
  update public.invitations set accepted_at = p_now, accepted_by = auth.uid() where id = inv.id;
  -- A user's first tenant becomes the active one; otherwise they switch when they choose to.
  insert into private.user_active_tenant (user_id, tenant_id) values (auth.uid(), inv.tenant_id)
    on conflict (user_id) do nothing;
  return query select 'accepted', inv.id, inv.tenant_id, inv.role, inv.email;
end
$$;

create or replace function private.set_active_tenant(p_tenant uuid) returns boolean
language plpgsql security definer set search_path = ''
as $$
begin
  perform private.refuse_published_only();
  if not exists (select 1 from public.tenant_members where tenant_id = p_tenant and user_id = auth.uid()) then
    return false;
  end if;
  insert into private.user_active_tenant (user_id, tenant_id) values (auth.uid(), p_tenant)
    on conflict (user_id) do update set tenant_id = excluded.tenant_id, updated_at = now();
  return true;
end
$$;

create or replace function private.enqueue_job(job_tenant uuid, job_kind text, job_input jsonb,
  job_max_attempts integer, job_run_after timestamp with time zone, job_at timestamp with time zone)
returns public.jobs
language plpgsql security definer set search_path = ''
as $$
declare
  created public.jobs;
begin
  perform private.refuse_published_only();
  if (current_setting('role') <> 'none' or coalesce(current_setting('request.jwt.claims', true), '') <> '')
     and (auth.uid() is null or not exists (
       select 1 from public.tenant_members where tenant_id = job_tenant and user_id = auth.uid()
     )) then
    raise exception 'not a member of tenant %', job_tenant using errcode = '42501';
  end if;
  insert into public.jobs (tenant_id, kind, input, max_attempts, run_after, created_by, created_at, updated_at)
  values (job_tenant, job_kind, job_input, job_max_attempts, job_run_after, auth.uid(), job_at, job_at)
  returning * into created;
  return created;
end
$$;

create or replace function private.record_event(event_id text, event_tenant uuid, event_type text,
  event_data jsonb, event_at timestamp with time zone)
returns void
language plpgsql security definer set search_path = ''
as $$
begin
  perform private.refuse_published_only();
  if (current_setting('role') <> 'none' or coalesce(current_setting('request.jwt.claims', true), '') <> '')
     and (auth.uid() is null or not exists (
       select 1 from public.tenant_members where tenant_id = event_tenant and user_id = auth.uid()
     )) then
    raise exception 'not a member of tenant %', event_tenant using errcode = '42501';
  end if;
  insert into public.event_outbox (id, tenant_id, type, data, created_at)
  values (event_id, event_tenant, event_type, event_data, event_at);
end
$$;

-- A policy helper: the contributor's write policies call it, and the published reads pass through
-- policies that may evaluate it, so it answers as for nobody (no role) rather than raising.
create or replace function private.request_role() returns text
language sql stable security definer set search_path = ''
as $$
  select m.role from public.tenant_members m
  where m.tenant_id = (select private.request_tenant_id()) and m.user_id = auth.uid()
    and not (select private.request_published_only())
$$;
