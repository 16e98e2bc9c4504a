-- Tenants and teams (sign-up, active tenant, invitations, the access token hook), the product
-- catalog with plan quotas and overage rates, usage counters and usage alerts.

------------------------------------------------------------------------------------------------
-- Tenants and members
------------------------------------------------------------------------------------------------

-- The plan is set by owners through the tenants function (which checks the role); RLS already
-- limits tenant updates to owners and admins, and the trigger keeps the plan (billing) the
-- owners' for direct (Data API) updates too.
grant update (plan) on public.tenants to authenticated;
create function private.tenant_plan_owners_only() returns trigger
language plpgsql set search_path = '' as $$
begin
  if new.plan is distinct from old.plan and current_user = 'authenticated'
     and not private.has_tenant_role(new.id, array['owner']) then
    raise exception 'only owners change the plan' using errcode = '42501';
  end if;
  return new;
end
$$;
create trigger tenants_plan_owners_only before update of plan on public.tenants
  for each row execute function private.tenant_plan_owners_only();

-- Owners and admins change roles and remove members; anyone may leave. Only owners grant, take
-- or remove the owner role (as the tenants function checks; here too, for direct Data API
-- writes). New memberships are only made by the security-definer functions below (sign-up,
-- accepting an invitation).
create policy tenant_members_update on public.tenant_members for update to authenticated
  using ((select private.has_tenant_role(tenant_id, array['owner']))
         or (role <> 'owner' and (select private.has_tenant_role(tenant_id, array['admin']))))
  with check ((select private.has_tenant_role(tenant_id, array['owner'])) or role <> 'owner');
create policy tenant_members_delete on public.tenant_members for delete to authenticated
  using ((select private.has_tenant_role(tenant_id, array['owner']))
         or (role <> 'owner' and (select private.has_tenant_role(tenant_id, array['admin'])))
         or user_id = (select auth.uid()));
grant update (role), delete on public.tenant_members to authenticated;

-- A tenant always keeps an owner. The tenant row is locked first, so two concurrent removals of
-- the last two owners serialise and the second one sees that it would leave none. Cascades
-- (a deleted tenant or user) run below another trigger and are let through.
create function private.keep_last_owner() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if pg_trigger_depth() > 1 or old.role <> 'owner' then
    return coalesce(new, old);
  end if;
  if tg_op = 'UPDATE' and new.role = 'owner' then
    return new;
  end if;
  perform 1 from public.tenants where id = old.tenant_id for update;
  if not exists (select 1 from public.tenant_members
                 where tenant_id = old.tenant_id and role = 'owner' and user_id <> old.user_id) then
    raise exception 'a tenant must keep at least one owner' using errcode = 'P0001', hint = 'last_owner';
  end if;
  return coalesce(new, old);
end
$$;
create trigger tenant_members_keep_last_owner before update of role or delete on public.tenant_members
  for each row execute function private.keep_last_owner();

-- Which tenant a user works in; the access token hook copies it into app_metadata.tenant_id.
create table private.user_active_tenant (
  user_id uuid primary key references auth.users (id) on delete cascade,
  tenant_id uuid not null references public.tenants (id) on delete cascade,
  updated_at timestamptz not null default now()
);
create index user_active_tenant_tenant_id_idx on private.user_active_tenant (tenant_id);

-- Sign-up: a signed-in user who is not a member yet cannot pass the member policies, so the
-- tenant and the owner membership are made here, for auth.uid() only.
create function private.create_tenant(p_name text, p_plan text) returns uuid
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := auth.uid();
  tid uuid;
begin
  if uid is null then
    raise exception 'no user' using errcode = '42501';
  end if;
  insert into public.tenants (name, plan) values (p_name, p_plan) returning id into tid;
  insert into public.tenant_members (tenant_id, user_id, role) values (tid, uid, 'owner');
  insert into private.user_active_tenant (user_id, tenant_id) values (uid, tid)
    on conflict (user_id) do update set tenant_id = excluded.tenant_id, updated_at = now();
  return tid;
end
$$;

-- Switches the caller's active tenant; false when the caller is not a member of it.
create function private.set_active_tenant(p_tenant uuid) returns boolean
language plpgsql security definer set search_path = '' as $$
begin
  if not exists (select 1 from public.tenant_members where tenant_id = p_tenant and user_id = auth.uid()) then
    return false;
  end if;
  insert into private.user_active_tenant (user_id, tenant_id) values (auth.uid(), p_tenant)
    on conflict (user_id) do update set tenant_id = excluded.tenant_id, updated_at = now();
  return true;
end
$$;

-- Members with their e-mail addresses (auth.users is not readable by tenants), for members only.
create function private.tenant_member_list(p_tenant uuid)
returns table (user_id uuid, email text, role text, created_at timestamptz)
language sql stable security definer set search_path = '' as $$
  select m.user_id, u.email, m.role, m.created_at
  from public.tenant_members m join auth.users u on u.id = m.user_id
  where m.tenant_id = p_tenant and p_tenant in (select private.user_tenant_ids())
  order by m.created_at, m.user_id
$$;

create function private.is_member_email(p_tenant uuid, p_email text) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (
    select 1 from public.tenant_members m join auth.users u on u.id = m.user_id
    where m.tenant_id = p_tenant and lower(u.email) = lower(p_email)
      and p_tenant in (select private.user_tenant_ids())
  )
$$;

------------------------------------------------------------------------------------------------
-- Supabase custom access token hook
------------------------------------------------------------------------------------------------

-- Supabase Auth calls this before issuing every access token (enable it under Authentication >
-- Hooks > Customize Access Token, or [auth.hook.custom_access_token] in config.toml). It writes
-- the user's active tenant - or, without one, their oldest membership - into
-- claims.app_metadata.tenant_id, and removes a tenant_id the user no longer belongs to.
create or replace function public.custom_access_token_hook(event jsonb) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  uid uuid := (event ->> 'user_id')::uuid;
  tid uuid;
  claims jsonb := coalesce(event -> 'claims', '{}'::jsonb);
  meta jsonb := coalesce(event -> 'claims' -> 'app_metadata', '{}'::jsonb);
begin
  select a.tenant_id into tid
  from private.user_active_tenant a
  join public.tenant_members m on m.tenant_id = a.tenant_id and m.user_id = a.user_id
  where a.user_id = uid;
  if tid is null then
    select m.tenant_id into tid from public.tenant_members m
    where m.user_id = uid order by m.created_at, m.tenant_id limit 1;
  end if;
  if tid is null then
    meta := meta - 'tenant_id';
  else
    meta := meta || jsonb_build_object('tenant_id', tid);
  end if;
  return jsonb_set(event, '{claims}', jsonb_set(claims, '{app_metadata}', meta));
end
$$;
revoke execute on function public.custom_access_token_hook(jsonb) from public;
do $$
begin
  if exists (select 1 from pg_roles where rolname = 'anon') then
    revoke execute on function public.custom_access_token_hook(jsonb) from anon, authenticated;
  end if;
  if exists (select 1 from pg_roles where rolname = 'supabase_auth_admin') then
    grant execute on function public.custom_access_token_hook(jsonb) to supabase_auth_admin;
  end if;
end
$$;

------------------------------------------------------------------------------------------------
-- Invitations
------------------------------------------------------------------------------------------------

create table public.invitations (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references public.tenants (id) on delete cascade,
  email text not null check (length(email) between 3 and 254 and email = lower(email)),
  role text not null check (role in ('owner', 'admin', 'member')),
  -- sha256 of the token; the token itself is only in the e-mail.
  token_hash text not null unique,
  invited_by uuid references auth.users (id) on delete set null,
  expires_at timestamptz not null,
  accepted_at timestamptz,
  accepted_by uuid references auth.users (id) on delete set null,
  revoked_at timestamptz,
  created_at timestamptz not null default now()
);
create index invitations_tenant_id_idx on public.invitations (tenant_id, created_at desc, id);

alter table public.invitations enable row level security;
create policy invitations_select on public.invitations for select to authenticated
  using (tenant_id in (select private.user_tenant_ids()));
create policy invitations_insert on public.invitations for insert to authenticated
  with check ((select private.has_tenant_role(tenant_id, array['owner']))
              or (role <> 'owner' and (select private.has_tenant_role(tenant_id, array['admin']))));
create policy invitations_update on public.invitations for update to authenticated
  using ((select private.has_tenant_role(tenant_id, array['owner', 'admin'])));
grant select, insert on public.invitations to authenticated;
grant update (revoked_at) on public.invitations to authenticated;

-- Accepting: the invitee is not a member yet, so this runs as definer, for auth.uid() only, and
-- only when the signed-in user's e-mail is the invited one. The row lock makes it single use.
-- Returns the outcome and, on success, the tenant and role.
create function private.accept_invitation(p_token_hash text, p_now timestamptz)
returns table (outcome text, invitation_id uuid, tenant_id uuid, role text, email text)
language plpgsql security definer set search_path = '' as $$
declare
  inv public.invitations;
  user_email text;
begin
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

-- A non-consuming look-up for the accept page: what the link invites to.
create function private.preview_invitation(p_token_hash text)
returns table (tenant_name text, email text, role text, expires_at timestamptz, accepted boolean)
language sql stable security definer set search_path = '' as $$
  select t.name, i.email, i.role, i.expires_at, i.accepted_at is not null
  from public.invitations i join public.tenants t on t.id = i.tenant_id
  where i.token_hash = p_token_hash and i.revoked_at is null
$$;

grant execute on function
  private.create_tenant(text, text), private.set_active_tenant(uuid), private.tenant_member_list(uuid),
  private.is_member_email(uuid, text), private.accept_invitation(text, timestamptz), private.preview_invitation(text)
to authenticated;

------------------------------------------------------------------------------------------------
-- Products, quotas, usage
------------------------------------------------------------------------------------------------

-- The spec's API products. The ids are fixed so every deployment shares them (the spec's
-- product_id); shared/metering.ts names the same ids.
create table public.products (
  id uuid primary key,
  slug text not null unique,
  name text not null,
  unit text not null check (unit in ('request', 'token')),
  -- USD per unit over quota, exact.
  overage_rate numeric(20, 10) not null
);
insert into public.products (id, slug, name, unit, overage_rate) values
  ('0f3c6a52-6f0e-4c51-9a10-000000000001', 'content', 'Content API', 'request', 0.05),
  ('0f3c6a52-6f0e-4c51-9a10-000000000002', 'assistant', 'Assistant API', 'token', 0.00001),
  ('0f3c6a52-6f0e-4c51-9a10-000000000003', 'analytics', 'Analytics API', 'request', 0.001),
  ('0f3c6a52-6f0e-4c51-9a10-000000000004', 'distribution', 'Distribution API', 'request', 0.02),
  ('0f3c6a52-6f0e-4c51-9a10-000000000005', 'identity', 'Identity API', 'request', 0.10);

-- Monthly quota per plan and product; null is unlimited.
create table public.plan_quotas (
  plan text not null check (plan in ('free', 'pro', 'business', 'enterprise')),
  product_id uuid not null references public.products (id),
  monthly_quota bigint check (monthly_quota >= 0),
  primary key (plan, product_id)
);
insert into public.plan_quotas (plan, product_id, monthly_quota)
select q.plan, p.id, q.quota
from (values
  ('free', 'content', 100), ('free', 'assistant', 10000), ('free', 'analytics', 1000),
  ('free', 'distribution', 100), ('free', 'identity', 1000),
  ('pro', 'content', 5000), ('pro', 'assistant', 500000), ('pro', 'analytics', 50000),
  ('pro', 'distribution', 5000), ('pro', 'identity', 50000),
  ('business', 'content', 50000), ('business', 'assistant', 5000000), ('business', 'analytics', 500000),
  ('business', 'distribution', 50000), ('business', 'identity', 500000),
  ('enterprise', 'content', null), ('enterprise', 'assistant', null), ('enterprise', 'analytics', null),
  ('enterprise', 'distribution', null), ('enterprise', 'identity', null)
) as q (plan, slug, quota)
join public.products p on p.slug = q.slug;

-- The catalog is public reference data.
alter table public.products enable row level security;
create policy products_select on public.products for select to anon, authenticated using (true);
alter table public.plan_quotas enable row level security;
create policy plan_quotas_select on public.plan_quotas for select to anon, authenticated using (true);
grant select on public.products, public.plan_quotas to anon, authenticated;

-- One row per tenant, product and calendar month (UTC), incremented by one atomic upsert per
-- metered call (shared/metering.ts). Tenants read their own; only the service writes.
create table public.usage_counters (
  tenant_id uuid not null references public.tenants (id) on delete cascade,
  product_id uuid not null references public.products (id),
  period date not null check (extract(day from period) = 1),
  units bigint not null check (units >= 0),
  primary key (tenant_id, product_id, period)
);
create index usage_counters_period_idx on public.usage_counters (period);
alter table public.usage_counters enable row level security;
create policy usage_counters_select on public.usage_counters for select to authenticated
  using (tenant_id in (select private.user_tenant_ids()));
grant select on public.usage_counters to authenticated;

create table public.usage_alerts (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references public.tenants (id) on delete cascade,
  product_id uuid not null references public.products (id),
  threshold_percent integer not null check (threshold_percent between 1 and 100),
  notification_type text not null check (notification_type in ('email')),
  notification_target text not null check (length(notification_target) between 3 and 254),
  created_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  unique (tenant_id, product_id, threshold_percent, notification_type, notification_target)
);
create index usage_alerts_product_idx on public.usage_alerts (product_id);
alter table public.usage_alerts enable row level security;
create policy usage_alerts_select on public.usage_alerts for select to authenticated
  using (tenant_id in (select private.user_tenant_ids()));
create policy usage_alerts_insert on public.usage_alerts for insert to authenticated
  with check ((select private.has_tenant_role(tenant_id, array['owner', 'admin'])));
create policy usage_alerts_delete on public.usage_alerts for delete to authenticated
  using ((select private.has_tenant_role(tenant_id, array['owner', 'admin'])));
grant select, insert, delete on public.usage_alerts to authenticated;

-- Backstop for alerts that the metered call could not send (a crash after counting, an alert
-- created after its threshold was already passed, a plan change).
select private.schedule_job('check-usage-alerts', '* * * * *', 'usage/jobs/check-usage-alerts');
