-- Retention, continued (issue 16, item 9): two more tables that grew without bound, pruned by the
-- same daily prune-retention job, in the same statement as private.prune_retention (so in its
-- transaction). Periods come from the job's configuration (README "Retention").
--
-- - Commerce deliveries (the inbound webhook queue) that are done with: processed, ignored, or
--   dead-lettered (failed, replayable until then), by their last change. Pending ones stay. The
--   row is also what dedupes a shop's redelivery of the same webhook; shops stop retrying within
--   days (Shopify: 48 hours), so the period is at least 7 days.
-- - Background jobs that finished (succeeded or failed), by finished_at; GET /api/jobs lists them
--   until then. Queued and running jobs stay. Generated articles keep their content and lose only
--   the link to the job (job_id is set null by its foreign key).

create index commerce_deliveries_finished_idx on public.commerce_deliveries (updated_at)
  where status <> 'pending';
create index jobs_finished_idx on public.jobs (finished_at)
  where status in ('succeeded', 'failed');

create function private.prune_finished_work(p_now timestamptz, p_commerce_days integer, p_job_days integer)
returns jsonb
language plpgsql set search_path = '' as $$
declare
  n_commerce integer;
  n_jobs integer;
begin
  delete from public.commerce_deliveries
  where status <> 'pending' and updated_at < p_now - make_interval(days => greatest(p_commerce_days, 7));
  get diagnostics n_commerce = row_count;
  delete from public.jobs
  where status in ('succeeded', 'failed') and finished_at < p_now - make_interval(days => greatest(p_job_days, 1));
  get diagnostics n_jobs = row_count;
  return jsonb_build_object('commerce_deliveries', n_commerce, 'jobs', n_jobs);
end
$$;
revoke all on function private.prune_finished_work(timestamptz, integer, integer) from public;
