-- What the local platform's stand-in for Supabase Auth (/auth/v1/..., scripts/platform/auth.ts)
-- needs beyond the minimal auth.users of the bootstrap: the password hash and sign-in times,
-- named as Supabase Auth names them, and a table of hashed refresh tokens.
--
-- On Supabase these columns and Supabase Auth's own tables already exist, and the postgres role
-- may not alter auth tables at all (not even with IF NOT EXISTS), so each change is made only
-- where the catalog shows it missing. The checks read pg_catalog, not information_schema, which
-- hides the columns of tables the current role holds no privilege on.
do $$
declare
  users oid := (select c.oid from pg_class c join pg_namespace n on n.oid = c.relnamespace
                where n.nspname = 'auth' and c.relname = 'users');
  col text;
begin
  foreach col in array array['encrypted_password', 'email_confirmed_at', 'last_sign_in_at'] loop
    if not exists (select 1 from pg_attribute where attrelid = users and attname = col and not attisdropped) then
      execute format('alter table auth.users add column %I %s', col,
                     case when col = 'encrypted_password' then 'text' else 'timestamptz' end);
    end if;
  end loop;
  -- Supabase Auth keeps its sessions in auth.sessions and auth.refresh_tokens; only where those
  -- are absent (locally) does the stand-in get its own table.
  if not exists (select 1 from pg_class c join pg_namespace n on n.oid = c.relnamespace
                 where n.nspname = 'auth' and c.relname in ('refresh_tokens', 'local_refresh_tokens')) then
    create table auth.local_refresh_tokens (
      token_hash text primary key,
      user_id uuid not null references auth.users (id) on delete cascade,
      session_id uuid not null,
      created_at timestamptz not null default now(),
      revoked_at timestamptz
    );
    create index local_refresh_tokens_user_idx on auth.local_refresh_tokens (user_id);
    create index local_refresh_tokens_session_idx on auth.local_refresh_tokens (session_id);
    -- Only the platform's own (owner) connection reads it; no API role may.
    revoke all on auth.local_refresh_tokens from public;
    alter table auth.local_refresh_tokens enable row level security;
  end if;
end
$$;
