-- Secrets invisible to members (issue 16, item 4). Supabase's Data API (PostgREST) runs a signed-in
-- user's queries as role `authenticated`, so any column that role may SELECT is readable by every
-- member of the tenant. Hashes and ciphertexts are for the service-role paths only:
--   api_keys.key_hash, invitations.token_hash,
--   webhook_subscriptions.secret_ciphertext and previous_secret_ciphertext.
-- credentials.secret_ciphertext and the integration_connections token ciphertexts are already
-- column-granted (20261121010000, 20261121030000); private.oauth_states and private.tenant_data_keys
-- have no grants at all. tests/secret-columns.test.ts checks every one of them as a member and as anon.
--
-- A table-level SELECT covers every column, so it is replaced by a column-level grant of every
-- column but the hidden ones. Columns added later must be granted explicitly (the test lists them).
-- `anon` gets nothing on these tables.

do $$
declare
  t record;
  cols text;
begin
  for t in
    select * from (values
      ('api_keys', array['key_hash']),
      ('invitations', array['token_hash']),
      ('webhook_subscriptions', array['secret_ciphertext', 'previous_secret_ciphertext'])
    ) as v(tbl, hidden)
  loop
    select string_agg(quote_ident(a.attname), ', ' order by a.attnum) into cols
    from pg_attribute a
    where a.attrelid = format('public.%I', t.tbl)::regclass and a.attnum > 0 and not a.attisdropped
      and a.attname <> all (t.hidden);
    execute format('revoke select on public.%I from authenticated', t.tbl);
    execute format('revoke all on public.%I from anon', t.tbl);
    execute format('grant select (%s) on public.%I to authenticated', cols, t.tbl);
  end loop;
end
$$;

-- Also close anon out of the tables that were already column-granted.
revoke all on public.credentials, public.integration_connections from anon;
