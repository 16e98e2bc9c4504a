-- What each delivery attempt sent and got back (docs/webhooks.md, "The delivery log"): the request
-- headers as sent, with the signatures and any secret-looking value masked before they are stored,
-- and whether the receiver's answer was longer than the stored excerpt. The request body is not
-- stored per attempt: every attempt of an event sends the same bytes, rebuilt from the delivery.
alter table public.webhook_delivery_attempts
  add column request_headers jsonb,
  add column response_truncated boolean not null default false;
