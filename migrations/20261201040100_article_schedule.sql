-- Scheduled publishing (docs/content.md): an article is a draft, scheduled (publish_at in the
-- future), or published. The publish-scheduled job publishes what is due, each article once:
-- its UPDATE requires status = 'scheduled', so of two instances racing for a row the second finds
-- it published and skips it (the job also skips rows another transaction holds locked).
alter table public.articles
  add column publish_at timestamptz,
  drop constraint articles_status_check,
  add constraint articles_status_check check (status in ('draft', 'scheduled', 'published')),
  add constraint articles_publish_at_check check ((status = 'scheduled') = (publish_at is not null));
create index articles_due_idx on public.articles (publish_at) where status = 'scheduled';

select private.schedule_job('content-publish-scheduled', '* * * * *', 'content/jobs/publish-scheduled');
