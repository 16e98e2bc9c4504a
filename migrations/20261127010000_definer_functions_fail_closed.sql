-- Security-definer functions fail closed (issue 28, item 4). private.record_event and
-- private.enqueue_job skipped their membership check whenever auth.uid() was null, meaning "a
-- service path": but an `authenticated` session whose claims carry no sub (or no claims at all)
-- has a null auth.uid() too, and could write events and jobs for any tenant.
--
-- Who is trusted is now said positively: only a connection acting in its own login role (the
-- platform's service paths connect as the database owner and never switch role) with no request
-- claims. A caller that switched to an API role (`set role authenticated`, as withTenant and
-- PostgREST do; the `role` setting keeps that name inside a definer function) or that carries
-- claims must be a signed-in member of the tenant. Everything else raises 42501.
--
-- The other definer functions an API role may execute were audited and already fail closed
-- without a user (tests/function-privileges.test.ts calls each as such a caller): the membership
-- helpers compare with auth.uid() (null matches nothing), create_tenant refuses a null user,
-- accept_invitation answers wrong_user, and preview_invitation needs the invitation's token.

create or replace function private.record_event(event_id text, event_tenant uuid, event_type text, event_data jsonb, event_at timestamptz)
returns void
language plpgsql security definer set search_path = '' as $$
begin
  if (current_setting('role') <> 'none' or coalesce(current_setting('request.jwt.claims', true), '') <> '')
     and (auth.uid() is null or not exists (
       select 1 from public.tenant_members where tenant_id = event_tenant and user_id = auth.uid()
     )) then
    raise exception 'not a member of tenant %', event_tenant using errcode = '42501';
  end if;
  insert into public.event_outbox (id, tenant_id, type, data, created_at)
  values (event_id, event_tenant, event_type, event_data, event_at);
end
$$;

create or replace function private.enqueue_job(job_tenant uuid, job_kind text, job_input jsonb, job_max_attempts integer,
                                               job_run_after timestamptz, job_at timestamptz)
returns public.jobs
language plpgsql security definer set search_path = '' as $$
declare
  created public.jobs;
begin
  if (current_setting('role') <> 'none' or coalesce(current_setting('request.jwt.claims', true), '') <> '')
     and (auth.uid() is null or not exists (
       select 1 from public.tenant_members where tenant_id = job_tenant and user_id = auth.uid()
     )) then
    raise exception 'not a member of tenant %', job_tenant using errcode = '42501';
  end if;
  insert into public.jobs (tenant_id, kind, input, max_attempts, run_after, created_by, created_at, updated_at)
  values (job_tenant, job_kind, job_input, job_max_attempts, job_run_after, auth.uid(), job_at, job_at)
  returning * into created;
  return created;
end
$$;
