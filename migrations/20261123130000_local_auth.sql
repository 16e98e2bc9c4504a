-- What the local platform's stand-in for Supabase Auth (/auth/v1/..., scripts/platform/auth.ts)
-- needs beyond the minimal auth.users of the bootstrap: the password hash and sign-in times,
-- named as Supabase Auth names them, and a table of hashed refresh tokens.
--
-- On Supabase these columns and Supabase Auth's own tables already exist, and the postgres role
-- may not alter auth tables at all (not even with IF NOT EXISTS), so each change is made only
-- where the catalog shows it missing.
do $$
begin
  if not exists (select 1 from information_schema.columns
                 where table_schema = 'auth' and table_name = 'users' and column_name = 'encrypted_password') then
    alter table auth.users add column encrypted_password text;
  end if;
  if not exists (select 1 from information_schema.columns
                 where table_schema = 'auth' and table_name = 'users' and column_name = 'email_confirmed_at') then
    alter table auth.users add column email_confirmed_at timestamptz;
  end if;
  if not exists (select 1 from information_schema.columns
                 where table_schema = 'auth' and table_name = 'users' and column_name = 'last_sign_in_at') then
    alter table auth.users add column last_sign_in_at timestamptz;
  end if;
  -- Supabase Auth keeps its sessions in auth.sessions and auth.refresh_tokens; only where those
  -- are absent (locally) does the stand-in get its own table.
  if to_regclass('auth.refresh_tokens') is null and to_regclass('auth.local_refresh_tokens') is null then
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
