-- Rate-limit counters are written on every request and matter only for the current minute:
-- keep them out of the WAL. An unlogged table is emptied after a crash, which at worst gives
-- callers a fresh window; in exchange a request's counter write needs no WAL flush.
alter table private.rate_limit_counters set unlogged;
