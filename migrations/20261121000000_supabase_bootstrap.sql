-- Creates what a Supabase project already has, and only where it is missing, so the same
-- migrations run on Supabase, on a plain PostgreSQL 15+ and on the embedded PGlite.

do $$
begin
  if not exists (select 1 from pg_roles where rolname = 'anon') then
    create role anon nologin noinherit;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'authenticated') then
    create role authenticated nologin noinherit;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'service_role') then
    create role service_role nologin noinherit bypassrls;
  end if;
end
$$;

create schema if not exists auth;

-- On Supabase auth.users belongs to supabase_auth_admin and postgres has no CREATE on schema
-- auth: CREATE TABLE IF NOT EXISTS checks that privilege before it looks for the table, so the
-- table is created only where it is really missing.
do $$
begin
  if to_regclass('auth.users') is null then
    create table auth.users (
      id uuid primary key default gen_random_uuid(),
      email text unique,
      raw_app_meta_data jsonb not null default '{}',
      raw_user_meta_data jsonb not null default '{}',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
  end if;
end
$$;

-- The request helpers read the claims that PostgREST (or our withTenant) puts in the
-- transaction-local setting request.jwt.claims.
do $$
begin
  if not exists (select 1 from pg_proc p join pg_namespace n on n.oid = p.pronamespace
                 where n.nspname = 'auth' and p.proname = 'jwt') then
    create function auth.jwt() returns jsonb language sql stable as $f$
      select coalesce(
        nullif(current_setting('request.jwt.claim', true), ''),
        nullif(current_setting('request.jwt.claims', true), '')
      )::jsonb
    $f$;
  end if;
  if not exists (select 1 from pg_proc p join pg_namespace n on n.oid = p.pronamespace
                 where n.nspname = 'auth' and p.proname = 'uid') then
    create function auth.uid() returns uuid language sql stable as $f$
      select nullif(coalesce(
        current_setting('request.jwt.claim.sub', true),
        (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub')
      ), '')::uuid
    $f$;
  end if;
  if not exists (select 1 from pg_proc p join pg_namespace n on n.oid = p.pronamespace
                 where n.nspname = 'auth' and p.proname = 'role') then
    create function auth.role() returns text language sql stable as $f$
      select coalesce(
        current_setting('request.jwt.claim.role', true),
        (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role')
      )::text
    $f$;
  end if;
end
$$;

-- On Supabase these grants exist already and belong to supabase_auth_admin (postgres may not
-- grant them again); elsewhere this migration made the schema and functions, so grant them.
do $$
begin
  if has_schema_privilege('auth', 'USAGE WITH GRANT OPTION') then
    grant usage on schema auth to anon, authenticated, service_role;
  end if;
  if has_function_privilege('auth.uid()', 'EXECUTE WITH GRANT OPTION') then
    grant execute on function auth.uid(), auth.jwt(), auth.role() to anon, authenticated, service_role;
  end if;
end
$$;
grant usage on schema public to anon, authenticated, service_role;
