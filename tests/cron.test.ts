import postgres from 'postgres'
import { describe, expect, it } from 'vitest'
import { registeredSchedule, scheduledJobs } from '../shared/infra/jobs/schedule.ts'

/**
 * On a database with pg_cron (CI sets CRON_DATABASE_URL to one, migrated), every job the
 * migrations schedule is registered and calls its function through private.invoke_job.
 * Without pg_cron the migrations create no job and the local platform runs them in process.
 */
const url = process.env.CRON_DATABASE_URL

describe.skipIf(!url)('pg_cron jobs (CRON_DATABASE_URL)', () => {
  it('registers every job of the schedule table', async () => {
    const sql = postgres(url!, { max: 1, onnotice: () => {} })
    try {
      const [ext] = await sql<{ extversion: string }[]>`
        select extversion from pg_extension where extname = 'pg_cron'`
      expect(ext, 'pg_cron installed in this database').toBeDefined()
      const rows = await sql<{ jobname: string; schedule: string; command: string }[]>`
        select jobname, schedule, command from cron.job`
      const expected = scheduledJobs
      expect(expected.map((j) => j.name)).toEqual(
        expect.arrayContaining(['webhook-dispatch', 'oauth-token-refresh']),
      )
      expect(rows.find((r) => r.jobname === 'webhook-dispatch')?.schedule).toBe('* * * * *')
      for (const job of expected) {
        const row = rows.find((r) => r.jobname === job.name)
        expect(row, job.name).toBeDefined()
        // A sub-minute job runs every minute on a pg_cron older than 1.5 (private.schedule_job).
        expect(row!.schedule, job.name).toBe(registeredSchedule(job, ext!.extversion))
        expect(row!.command).toContain(`private.invoke_job('${job.path}')`)
      }
    } finally {
      await sql.end()
    }
  })
})
