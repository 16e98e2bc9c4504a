-- Functions in schema private are for the platform's own code (and, where granted below in
-- earlier migrations, for role authenticated through RLS and the tenant routes), never for
-- everyone. PostgreSQL grants EXECUTE on every new function to PUBLIC; the per-schema default
-- in 20261121000100_foundation.sql could not take that away (per-schema defaults only add to
-- the global ones), so anon and authenticated could call private.invoke_job, schedule_job and
-- the rest. Take EXECUTE from PUBLIC on every function there, and make functions that role
-- postgres (the migration role, here and on Supabase) creates from now on start without it:
-- every grant is then explicit. tests/function-privileges.test.ts holds the result to a list.

do $$
declare
  fn regprocedure;
begin
  for fn in
    select p.oid::regprocedure from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = 'private'
  loop
    execute format('revoke execute on function %s from public', fn);
  end loop;
end
$$;

-- Global (not per-schema) default of the owner role. As role postgres on Supabase this is
-- allowed: a role may always change its own defaults.
alter default privileges for role postgres revoke execute on functions from public;

