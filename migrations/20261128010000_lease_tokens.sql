-- One claim-and-lease mechanism (shared/infra/leases.ts, docs/adr/0006-job-engine.md): a claim
-- stamps its rows with a token as well as a time, and an outcome is written only while the row
-- still carries that token. Jobs were fenced by their attempt number and notifications not at
-- all (a sender whose lease ran out could overwrite the newer sender's outcome); both now carry
-- the token like webhook deliveries, commerce deliveries and token refreshes.
alter table public.jobs add column lease_id uuid;
alter table public.notifications add column lease_id uuid;
