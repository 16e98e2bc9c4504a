-- The event catalog grows beyond the spec's ten types (connection.reauthorization_required,
-- assistant.approval_required, job.failed, order.created, order.updated): a subscription may name
-- each of them once. The API checks the names; the column keeps a bound with room for more types.
alter table public.webhook_subscriptions drop constraint if exists webhook_subscriptions_events_check;
alter table public.webhook_subscriptions
  add constraint webhook_subscriptions_events_check check (cardinality(events) between 1 and 50);
