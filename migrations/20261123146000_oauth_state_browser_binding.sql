-- OAuth state bound to the browser that started the flow (issue 16, item 8; RFC 9700 4.7):
-- the hash of the value the authorize response put in an HttpOnly, SameSite=Lax cookie. A state
-- without it (started before this migration) cannot complete; states live ten minutes.
alter table private.oauth_states add column browser_hash text;
