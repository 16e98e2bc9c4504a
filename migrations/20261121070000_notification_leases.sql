-- Senders claim notifications with a short lease instead of holding row locks across the HTTP
-- call to the e-mail API; a sender that dies mid-send leaves a lease that simply runs out.
alter table public.notifications add column locked_until timestamptz;
