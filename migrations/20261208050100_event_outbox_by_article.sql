-- An article's story (GET /v1/content/articles/{id}/story) reads the article's events by
-- data->>'article_id' within its tenant: without this index that is a scan of the tenant's outbox.
create index if not exists event_outbox_article_idx on public.event_outbox (tenant_id, (data ->> 'article_id'));
