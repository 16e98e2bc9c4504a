-- An OpenAI-compatible credential may name its own API base URL (OpenRouter, Azure, a self-hosted
-- server); the assistant's model calls go there instead of the platform's OPENAI_BASE_URL. The
-- API checks it against the outbound address policy when it is set, and the guarded fetch again
-- at every call.
alter table public.credentials add column base_url text
  check (base_url is null or (char_length(base_url) <= 500 and base_url ~ '^https?://'));
grant select (base_url), insert (base_url), update (base_url) on public.credentials to authenticated;
