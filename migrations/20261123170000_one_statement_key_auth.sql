-- Key authentication in one statement, and row-level security helpers whose plans are cached.
-- See docs/adr/0004-rate-limits-in-postgres.md ("One statement per key").

-- private.authorize_key: everything a key-authenticated request needs from the database, in one
-- call: the key lookup (a credential: not revoked or expired, of the family its prefix says, its
-- creator still a member), the rate-limit take (from the key's bucket, or from the client
-- address's when the key is no credential, which also throttles key guessing), and the
-- transaction's request.jwt.claims, set to the key's creator and tenant only when the key is a
-- credential holding p_scope (if any) and the take was allowed. Row-level security then shows a
-- read that follows in the same transaction that tenant's rows, and nothing otherwise.
--
-- PL/pgSQL rather than SQL: its statements' plans are cached for the session, where a SQL
-- function that cannot be inlined (security definer) is planned again on every call.
create function private.authorize_key(
  p_key_hash text,
  p_family text,
  p_scope text,
  p_ip_bucket text,
  p_ip_limit integer,
  p_tool_limit integer,
  p_now timestamptz
)
returns table (
  key_id uuid,
  tenant_id uuid,
  user_id uuid,
  scopes text[],
  last_used_at timestamptz,
  scope_ok boolean,
  allowed boolean,
  tat timestamptz,
  rate_limit integer
)
language plpgsql security definer set search_path = '' as $$
declare
  k record;
  v_limit integer;
  v_allowed boolean;
  v_tat timestamptz;
  v_scope_ok boolean;
begin
  select ak.id, ak.tenant_id, ak.created_by, ak.scopes, ak.last_used_at,
         case when ak.family = 'tool_server' then least(ak.rate_limit_per_minute, p_tool_limit)
              else ak.rate_limit_per_minute end as rate_limit
  into k
  from public.api_keys ak
  join public.tenant_members m on m.tenant_id = ak.tenant_id and m.user_id = ak.created_by
  where ak.key_hash = p_key_hash
    and ak.family = p_family
    and ak.revoked_at is null
    and (ak.expires_at is null or ak.expires_at > p_now);

  v_limit := coalesce(k.rate_limit, p_ip_limit);
  select t.allowed, t.tat into v_allowed, v_tat
  from private.take_rate_limit(case when k.id is null then p_ip_bucket else 'key:' || k.id end, v_limit, p_now) t;

  v_scope_ok := k.id is not null and (p_scope is null or p_scope = any (k.scopes));
  perform set_config('request.jwt.claims', case when v_scope_ok and v_allowed then json_build_object(
    'sub', k.created_by,
    'role', 'authenticated',
    'app_metadata', json_build_object('tenant_id', k.tenant_id),
    'api_key_id', k.id
  )::text else '' end, true);

  return query select k.id, k.tenant_id, k.created_by, k.scopes, k.last_used_at, v_scope_ok, v_allowed, v_tat, v_limit;
end
$$;

revoke execute on function private.authorize_key(text, text, text, text, integer, integer, timestamptz) from public;

-- Replaced by authorize_key (they looked the key up twice per request between them).
drop function private.claim_key(text, text, text, integer, timestamptz);
drop function private.charge_key(text, text, text, integer, integer, timestamptz);
drop function private.find_key(text, text, integer, timestamptz);

-- The helpers every tenant policy calls, in PL/pgSQL for the same reason: as SQL security
-- definer functions each was parsed and planned again in every statement that read a tenant
-- table (measured: a third of a key-authenticated GET /v1/content on PostgreSQL). Same
-- signatures, results and grants.
create or replace function private.user_tenant_ids() returns setof uuid
language plpgsql stable security definer set search_path = '' as $$
begin
  return query select tm.tenant_id from public.tenant_members tm where tm.user_id = auth.uid();
end
$$;

create or replace function private.has_tenant_role(target_tenant uuid, roles text[]) returns boolean
language plpgsql stable security definer set search_path = '' as $$
begin
  return exists (
    select 1 from public.tenant_members tm
    where tm.tenant_id = target_tenant and tm.user_id = auth.uid() and tm.role = any (roles)
  );
end
$$;

-- The GCRA take (see 20261123140000) without private.gcra_base: a SQL function with a SET
-- clause is never inlined, so each take planned it three times (measured: half the take's cost).
-- The base is the bucket's TAT, or now when that lies in the past (a full bucket) or more than a
-- period ahead (a clock that went back: start afresh); it is written out in both places.
create or replace function private.take_rate_limit(p_bucket text, p_limit integer, p_now timestamptz)
returns table (allowed boolean, tat timestamptz)
language plpgsql set search_path = '' as $$
declare
  v_step interval := interval '60 seconds' / p_limit;
  v_tat timestamptz;
begin
  insert into private.rate_limit_buckets as b (bucket, tat)
  values (p_bucket, p_now + v_step)
  on conflict (bucket) do update
    set tat = (case when b.tat > p_now + interval '60 seconds' then p_now else greatest(b.tat, p_now) end) + v_step
    where (case when b.tat > p_now + interval '60 seconds' then p_now else greatest(b.tat, p_now) end) + v_step
          <= p_now + interval '60 seconds'
  returning b.tat into v_tat;
  if v_tat is not null then
    return query select true, v_tat;
    return;
  end if;
  -- Refused. The upsert locked the row; this statement's fresh snapshot sees its newest TAT.
  return query select false, b.tat from private.rate_limit_buckets b where b.bucket = p_bucket;
end
$$;

drop function private.gcra_base(timestamptz, timestamptz);
