-- Issue 47 (item 1): sources may run every minute or every 5 minutes, so a connected feed's new
-- items reach its automations within about a minute (the scrape sweep runs every minute). The
-- list is the one in shared/services/sources/schema.ts (`schedules`).
alter table public.sources drop constraint sources_schedule_check;
alter table public.sources
  add constraint sources_schedule_check
  check (schedule in ('every_minute', 'every_5_minutes', 'every_15_minutes', 'hourly', 'every_6_hours', 'daily'));
