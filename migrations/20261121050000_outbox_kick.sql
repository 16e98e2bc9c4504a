-- On Supabase, start webhook dispatch as soon as an outbox write commits, not at the next
-- pg_cron minute: pg_net queues the request inside the writing transaction and sends it only
-- after commit, so a rolled-back change sends nothing. Where pg_net is missing (the embedded
-- database, plain PostgreSQL) no trigger is created; the local platform signals in process.
-- The kick is only a shortcut (pg_cron dispatches every minute anyway), so it must never fail
-- the write that fired it: without the Vault secrets (project_url is null) or on any pg_net
-- error it warns and lets the transaction commit.
create or replace function private.kick_webhook_dispatch() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  begin
    perform private.invoke_job('webhooks/jobs/dispatch');
  exception when others then
    raise warning 'webhook dispatch kick skipped: %', sqlerrm;
  end;
  return null;
end
$$;
revoke all on function private.kick_webhook_dispatch() from public;

do $$
begin
  if exists (select 1 from pg_extension where extname = 'pg_net') then
    drop trigger if exists event_outbox_kick_dispatch on public.event_outbox;
    create trigger event_outbox_kick_dispatch
      after insert on public.event_outbox
      for each statement execute function private.kick_webhook_dispatch();
  end if;
end
$$;
