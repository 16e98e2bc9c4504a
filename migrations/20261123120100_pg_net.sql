-- The scheduled jobs (private.invoke_job) and the webhook dispatch kick send their requests
-- through pg_net. New Supabase projects have it; older ones may not, and then the kick trigger
-- of 20261121050000_outbox_kick.sql was skipped. Enable pg_net where it is available (Supabase
-- lets role postgres create it), then add the trigger if it is still missing. Elsewhere (PGlite,
-- plain PostgreSQL, the Supabase schema fixture's stand-in) both are no-ops.
do $$
begin
  if exists (select 1 from pg_available_extensions where name = 'pg_net')
     and not exists (select 1 from pg_extension where extname = 'pg_net') then
    begin
      create extension pg_net;
    exception when others then
      raise notice 'pg_net is available but could not be enabled here: %', sqlerrm;
    end;
  end if;
  if exists (select 1 from pg_extension where extname = 'pg_net')
     and not exists (select 1 from pg_trigger where tgname = 'event_outbox_kick_dispatch'
                     and tgrelid = 'public.event_outbox'::regclass) then
    create trigger event_outbox_kick_dispatch
      after insert on public.event_outbox
      for each statement execute function private.kick_webhook_dispatch();
  end if;
end
$$;
