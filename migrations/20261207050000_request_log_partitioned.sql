-- Issue 45 (item 3) and issue 44 (item 4): a request log the database barely notices, and
-- refusals that cannot fill it (docs/adr/0022-request-log-buffered.md, docs/request-log.md).
--
-- public.api_request_log is made again, cheaper per row:
--  - a bigint identity key instead of a uuid (8 bytes, no random-page index inserts), and no
--    primary-key index: nothing looks a row up by id (pages walk (at, id) within a tenant);
--  - only the indexes its reads use: (tenant_id, at, id) for the log's pages, (key_id, at, id) for
--    a key's page. The index on at alone served the retention DELETE, which is gone;
--  - no foreign key to tenants (a per-row check on every insert): a deleted tenant's rows go with
--    their day's partition, at most REQUEST_LOG_RETENTION_DAYS later;
--  - partitioned by day (range on at), so retention drops a whole day's partition instead of
--    deleting rows one by one. The partitions live in the private schema (no API role has a grant
--    on them; reads go through the parent, under its row-level security). Each day's partition is
--    made ahead of time by private.ensure_request_log_partitions, which the daily prune-retention
--    job calls (through private.prune_request_log) for the next 7 days; a row for a day without a
--    partition (a fresh database, the job down a week) lands in the default partition, which the
--    same job prunes row by row. Plain DDL in one transaction: PGlite, PostgreSQL 15, Supabase,
--    through a transaction pooler (the only lock is a transaction-level advisory lock).
--  - requests: how many requests the row stands for. 1 for every answered request, and more for
--    the refusals over a key's rate limit (429 RATE_LIMITED), which each instance counts per key
--    and minute instead of writing a row each (shared/infra/hot-path/request-log.ts), so the rows
--    a caller can make the database write stay bounded by the rate limit, whatever it sends.

-- The rows so far wait in a temporary table while the table is made again (so that every name
-- the new table's constraints take is free: as the schema snapshot makes them).
create temporary table request_log_rows on commit drop as
select tenant_id, at, request_id, method, path, status, key_id, user_id, latency_ms, rate_limit,
       rate_remaining, quota
from public.api_request_log;
-- Any policy on it besides the select policy below, to make again on the new table.
create temporary table request_log_policies on commit drop as
select format('create policy %I on public.api_request_log as %s for %s to %s%s%s',
         pol.polname,
         case when pol.polpermissive then 'permissive' else 'restrictive' end,
         case pol.polcmd when 'r' then 'select' when 'a' then 'insert' when 'w' then 'update'
                         when 'd' then 'delete' else 'all' end,
         array_to_string(array(select case when r = 0 then 'public' else quote_ident(rl.rolname) end
                               from unnest(pol.polroles) r left join pg_roles rl on rl.oid = r), ', '),
         coalesce(' using (' || pg_get_expr(pol.polqual, pol.polrelid) || ')', ''),
         coalesce(' with check (' || pg_get_expr(pol.polwithcheck, pol.polrelid) || ')', '')) as statement
from pg_policy pol
where pol.polrelid = 'public.api_request_log'::regclass and pol.polname <> 'api_request_log_select';
drop table public.api_request_log;

create table public.api_request_log (
  id bigint generated always as identity,
  tenant_id uuid not null,
  at timestamptz not null,
  request_id text not null check (length(request_id) <= 128),
  method text not null check (length(method) <= 10),
  path text not null check (length(path) <= 512),
  status smallint not null check (status between 100 and 599),
  -- The key that made the request (null: a signed-in member).
  key_id uuid,
  -- The acting user: the member, or the key's creator.
  user_id uuid,
  latency_ms integer not null check (latency_ms >= 0),
  -- allowed | limited; null when no rate limit was taken.
  rate_limit text check (rate_limit in ('allowed', 'limited')),
  rate_remaining integer,
  -- counted | exceeded; null when the request was not metered.
  quota text check (quota in ('counted', 'exceeded')),
  -- How many requests the row stands for: 1, or a key's refusals over its rate limit in a minute.
  requests integer not null default 1 check (requests between 1 and 1000000)
) partition by range (at);

-- The default partition: rows of a day that has no partition of its own. Made as a table and then
-- attached (as the schema snapshot makes it), so both ways give its constraints the same names.
create table private.api_request_log_default (
  id bigint not null,
  tenant_id uuid not null,
  at timestamptz not null,
  request_id text not null constraint api_request_log_request_id_check check (length(request_id) <= 128),
  method text not null constraint api_request_log_method_check check (length(method) <= 10),
  path text not null constraint api_request_log_path_check check (length(path) <= 512),
  status smallint not null constraint api_request_log_status_check check (status between 100 and 599),
  key_id uuid,
  user_id uuid,
  latency_ms integer not null constraint api_request_log_latency_ms_check check (latency_ms >= 0),
  rate_limit text constraint api_request_log_rate_limit_check check (rate_limit in ('allowed', 'limited')),
  rate_remaining integer,
  quota text constraint api_request_log_quota_check check (quota in ('counted', 'exceeded')),
  requests integer not null default 1
    constraint api_request_log_requests_check check (requests between 1 and 1000000)
);
alter table public.api_request_log attach partition private.api_request_log_default default;
alter table private.api_request_log_default enable row level security;

create index api_request_log_tenant_at_idx on public.api_request_log (tenant_id, at desc, id desc);
create index api_request_log_key_at_idx on public.api_request_log (key_id, at desc, id desc) where key_id is not null;

alter table public.api_request_log enable row level security;
create policy api_request_log_select on public.api_request_log for select to authenticated
  using ((select private.has_tenant_role(tenant_id, array['owner', 'admin']))
         or (tenant_id in (select private.user_tenant_ids()) and user_id = (select auth.uid())));
grant select on public.api_request_log to authenticated;

-- Any other policy the old table had (a restrictive one added meanwhile) is kept as it was.
do $$
declare
  statement text;
begin
  for statement in select p.statement from request_log_policies p loop
    execute statement;
  end loop;
end
$$;

-- Makes the day partitions from p_now's UTC day to p_days_ahead days after it, each in the
-- private schema with row-level security on (no policy: only the owner reads a partition
-- directly). A day that already has rows in the default partition gets none (they would have to
-- move); its rows stay there until retention deletes them. Returns how many it made.
create function private.ensure_request_log_partitions(p_now timestamptz, p_days_ahead integer)
returns integer
language plpgsql set search_path = '' as $$
declare
  v_day date := (p_now at time zone 'UTC')::date;
  v_last date := (p_now at time zone 'UTC')::date + least(greatest(p_days_ahead, 0), 31);
  v_from timestamptz;
  v_to timestamptz;
  v_name text;
  made integer := 0;
begin
  -- Two callers at once would race to create the same table.
  perform pg_advisory_xact_lock(hashtext('private.ensure_request_log_partitions'));
  while v_day <= v_last loop
    v_name := 'api_request_log_' || to_char(v_day, 'YYYYMMDD');
    v_from := v_day::timestamp at time zone 'UTC';
    v_to := (v_day + 1)::timestamp at time zone 'UTC';
    if to_regclass('private.' || v_name) is null
       and not exists (select 1 from private.api_request_log_default d where d.at >= v_from and d.at < v_to) then
      execute format('create table private.%I partition of public.api_request_log for values from (%L) to (%L)',
        v_name, v_from, v_to);
      execute format('alter table private.%I enable row level security', v_name);
      made := made + 1;
    end if;
    v_day := v_day + 1;
  end loop;
  return made;
end
$$;
revoke all on function private.ensure_request_log_partitions(timestamptz, integer) from public;

-- The rows so far, in time order (so ids keep that order), into the default partition (no day
-- partition exists yet); retention ages them out.
insert into public.api_request_log (tenant_id, at, request_id, method, path, status, key_id, user_id,
  latency_ms, rate_limit, rate_remaining, quota)
select tenant_id, at, request_id, method, path, status, key_id, user_id, latency_ms, rate_limit,
       rate_remaining, quota
from request_log_rows
order by at;

-- Retention by the day: drops each day partition that lies wholly before p_now - p_days, deletes
-- such rows from the default partition, and makes the next 7 days' partitions. Returns the rows
-- removed (a dropped partition's rows counted before it goes: a read, not a write per row).
create or replace function private.prune_request_log(p_now timestamptz, p_days integer)
returns jsonb
language plpgsql set search_path = '' as $$
declare
  v_cutoff timestamptz := p_now - make_interval(days => greatest(p_days, 1));
  part record;
  n bigint := 0;
  rows_in bigint;
begin
  perform pg_advisory_xact_lock(hashtext('private.ensure_request_log_partitions'));
  for part in
    select c.relname
    from pg_inherits i
    join pg_class c on c.oid = i.inhrelid
    join pg_namespace ns on ns.oid = c.relnamespace
    where i.inhparent = 'public.api_request_log'::regclass and ns.nspname = 'private'
      and c.relname ~ '^api_request_log_[0-9]{8}$'
      and (to_date(right(c.relname, 8), 'YYYYMMDD') + 1)::timestamp at time zone 'UTC' <= v_cutoff
  loop
    execute format('select count(*) from private.%I', part.relname) into rows_in;
    execute format('drop table private.%I', part.relname);
    n := n + rows_in;
  end loop;
  delete from private.api_request_log_default where at < v_cutoff;
  get diagnostics rows_in = row_count;
  n := n + rows_in;
  perform private.ensure_request_log_partitions(p_now, 7);
  return jsonb_build_object('request_log', n);
end
$$;
revoke all on function private.prune_request_log(timestamptz, integer) from public;
