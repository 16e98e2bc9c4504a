/**
 * The one table of scheduled jobs. Each is an HTTP POST, with the service-role key, to a job
 * route inside the function that owns its data.
 *
 * - Production: pg_cron runs `cron` (a cron line, or '10 seconds': pg_cron 1.5+'s sub-minute
 *   interval) and calls `path` through private.invoke_job (pg_net). The
 *   migrations register each job with private.schedule_job; tests/schedule.test.ts holds the
 *   migrations, the local scheduler and the README's job table to this list.
 * - Local platform: the same path is called in process every `localEverySeconds`, which may be
 *   shorter than the cron interval where prompt local feedback helps (notifications, dispatch).
 */
export interface ScheduledJob {
  /** pg_cron job name. */
  name: string
  /** pg_cron schedule, UTC. */
  cron: string
  /** `<function>/jobs/<job>`, under /functions/v1. */
  path: string
  localEverySeconds: number
  /** What the README's job table says of the schedule. */
  description: string
}

/** pg_cron's interval syntax (1.5 and later): every N seconds, 1 to 59. */
const SECONDS = /^([1-9]|[1-5][0-9]) seconds$/

/**
 * The schedule pg_cron holds for a job: its own, except that pg_cron before 1.5 takes no
 * sub-minute interval, where private.schedule_job registers it every minute instead.
 */
export function registeredSchedule(job: Pick<ScheduledJob, 'cron'>, pgCronVersion: string): string {
  if (!SECONDS.test(job.cron)) return job.cron
  const [major = 0, minor = 0] = pgCronVersion.split('-')[0]!.split('.').map(Number)
  return major > 1 || (major === 1 && minor >= 5) ? job.cron : '* * * * *'
}

/**
 * How often pg_cron runs a job, in ms, for the schedules that repeat within an hour (an interval
 * of seconds, every minute, every n minutes); null for the rest (hourly, daily). The local
 * scheduler's production cadence (startScheduler's `cadence: 'production'`) runs jobs at this.
 */
export function productionEveryMs(job: Pick<ScheduledJob, 'cron'>): number | null {
  const seconds = SECONDS.exec(job.cron)
  if (seconds) return Number(seconds[1]) * 1000
  if (job.cron === '* * * * *') return 60_000
  const minutes = /^\*\/([0-9]+) \* \* \* \*$/.exec(job.cron)
  return minutes ? Number(minutes[1]) * 60_000 : null
}

export const scheduledJobs: readonly ScheduledJob[] = [
  {
    name: 'send-notifications',
    cron: '* * * * *',
    path: 'tenants/jobs/send-notifications',
    localEverySeconds: 10,
    description: 'every minute',
  },
  {
    name: 'prune-rate-limits',
    cron: '*/5 * * * *',
    path: 'tenants/jobs/prune-rate-limits',
    localEverySeconds: 300,
    description: 'every 5 minutes',
  },
  {
    // Polled every second locally so any instance delivers promptly; attempt 1 is also kicked on commit.
    name: 'webhook-dispatch',
    cron: '* * * * *',
    path: 'webhooks/jobs/dispatch',
    localEverySeconds: 1,
    description:
      'every minute, plus an immediate kick after each outbox commit (pg_net trigger; in process locally)',
  },
  {
    // Tokens expiring within the hour.
    name: 'oauth-token-refresh',
    cron: '0 * * * *',
    path: 'integrations/jobs/refresh-tokens',
    localEverySeconds: 3600,
    description: 'hourly',
  },
  {
    name: 'check-usage-alerts',
    cron: '* * * * *',
    path: 'usage/jobs/check-usage-alerts',
    localEverySeconds: 60,
    description: 'every minute',
  },
  {
    name: 'credential-expiry-alerts',
    cron: '0 7 * * *',
    path: 'credentials/jobs/expiry-alerts',
    localEverySeconds: 86_400,
    description: 'daily 07:00 UTC',
  },
  {
    // Retention periods: RETENTION_* settings (README "Retention").
    name: 'prune-retention',
    cron: '15 4 * * *',
    path: 'tenants/jobs/prune-retention',
    localEverySeconds: 86_400,
    description: 'daily 04:15 UTC',
  },
  {
    name: 'credential-usage-prune',
    cron: '30 3 * * *',
    path: 'credentials/jobs/prune-usage',
    localEverySeconds: 86_400,
    description: 'daily 03:30 UTC',
  },
  {
    // Each receipt also kicks processing in process; the sweep catches what a kick missed.
    name: 'commerce-process',
    cron: '* * * * *',
    path: 'commerce-webhook/jobs/process',
    localEverySeconds: 10,
    description: 'every minute, plus an immediate kick after each receipt (in process)',
  },
  {
    // Scheduled sources that are due, retries whose backoff ran out, and scrapes a dead instance left.
    name: 'scrape-social-sweep',
    cron: '* * * * *',
    path: 'scrape-social/jobs/sweep',
    localEverySeconds: 30,
    description: 'every minute',
  },
  {
    // Generation retries whose backoff ran out, and jobs a stopped instance left.
    name: 'generate-article-sweep',
    cron: '* * * * *',
    path: 'generate-article/jobs/sweep',
    localEverySeconds: 30,
    description: 'every minute',
  },
  {
    // Scheduled destinations that are due, retries, and syncs a dead instance left behind.
    name: 'sync-affiliate-sweep',
    cron: '*/5 * * * *',
    path: 'sync-affiliate/jobs/sweep',
    localEverySeconds: 60,
    description: 'every 5 minutes',
  },
  {
    // Scheduled articles whose publish_at has come: published within 10 s, each once; and
    // published ones whose unpublish_at has come: back to draft, each once.
    name: 'content-publish-scheduled',
    cron: '10 seconds',
    path: 'content/jobs/publish-scheduled',
    localEverySeconds: 10,
    description: 'every 10 seconds',
  },
  {
    // Event runs a kick missed, scheduled automations, expired approvals, and turns whose instance
    // stopped (lease ran out): resumed or marked failed. An event's runs are also kicked at once
    // (pg_net trigger on Supabase, in process locally), so this is the safety net.
    name: 'assistant-sweep',
    cron: '10 seconds',
    path: 'assistant/jobs/sweep',
    localEverySeconds: 10,
    description:
      'every 10 seconds, plus an immediate kick after an event queues a run (pg_net trigger; in process locally)',
  },
]
