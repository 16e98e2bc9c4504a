-- Two functions that no code and no other function calls: private.authorize_key, the
-- one-statement key authentication that the key cache and rate leases replaced
-- (docs/adr/0004-rate-limits-in-postgres.md; its figures stay in docs/performance.md), and
-- private.release_usage. A function nobody calls still has to be read, granted and kept safe.
drop function private.authorize_key(text, text, text, text, integer, integer, timestamptz);
drop function private.release_usage(uuid, uuid, bigint, date);
