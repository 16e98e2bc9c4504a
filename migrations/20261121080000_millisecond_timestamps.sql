-- Keyset cursors carry JavaScript timestamps, which have millisecond precision. A default of
-- now() stores microseconds, so rows that differ below the millisecond could be skipped between
-- pages. Every timestamp default becomes now() truncated to the millisecond (the application
-- already writes millisecond values); tests/rls.test.ts keeps later migrations to this rule.
do $$
declare
  col record;
begin
  for col in
    select table_schema, table_name, column_name from information_schema.columns
    where table_schema in ('public', 'private') and data_type = 'timestamp with time zone'
      and column_default = 'now()'
  loop
    execute format('alter table %I.%I alter column %I set default date_trunc(''milliseconds'', now())',
                   col.table_schema, col.table_name, col.column_name);
  end loop;
end
$$;
