-- generate-article: which scraped items an article was written from, and by which job. One row
-- per (article, item); the job id makes a retried job find the article it already made.
create table public.article_source_items (
  tenant_id uuid not null references public.tenants (id) on delete cascade,
  article_id uuid not null references public.articles (id) on delete cascade,
  item_id uuid not null,
  job_id uuid references public.jobs (id) on delete set null,
  created_at timestamptz not null default date_trunc('milliseconds', now()),
  primary key (article_id, item_id),
  foreign key (tenant_id, item_id) references public.source_items (tenant_id, id) on delete cascade
);
create index article_source_items_tenant_id_idx on public.article_source_items (tenant_id, article_id);
create index article_source_items_job_id_idx on public.article_source_items (job_id);
create index article_source_items_item_id_idx on public.article_source_items (item_id);

alter table public.article_source_items enable row level security;
create policy article_source_items_select on public.article_source_items for select to authenticated
  using (tenant_id in (select private.user_tenant_ids()));
grant select on public.article_source_items to authenticated;

select private.schedule_job('generate-article-sweep', '* * * * *', 'generate-article/jobs/sweep');
