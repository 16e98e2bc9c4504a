-- scrape-social's sweep: scheduled sources that are due, retries, and stalled scrape jobs.
select private.schedule_job('scrape-social-sweep', '* * * * *', 'scrape-social/jobs/sweep');
