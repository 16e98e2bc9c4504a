import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { productionEveryMs, registeredSchedule, scheduledJobs } from '../shared/infra/jobs/schedule.ts'

/**
 * shared/infra/jobs/schedule.ts is the one schedule. pg_cron registration lives in SQL
 * migrations (which cannot import it), and the README repeats it for operators, so this test
 * holds both to the table; the local scheduler reads the table directly.
 */
function registeredByMigrations() {
  const jobs = new Map<string, { cron: string; path: string }>()
  for (const file of readdirSync('migrations').sort()) {
    const text = readFileSync(`migrations/${file}`, 'utf8')
    for (const m of text.matchAll(
      /private\.schedule_job\(\s*'([^']+)'\s*,\s*'([^']+)'\s*,\s*'([^']+)'\s*\)/g,
    )) {
      // A later migration may re-register a job with a new schedule; the last one wins, as in pg_cron.
      jobs.set(m[1]!, { cron: m[2]!, path: m[3]! })
    }
    for (const m of text.matchAll(/cron\.unschedule\(\s*'([^']+)'\s*\)/g)) jobs.delete(m[1]!)
  }
  return jobs
}

function readmeJobTable() {
  const readme = readFileSync('README.md', 'utf8')
  const rows = new Map<string, { description: string; path: string }>()
  const header = readme.indexOf('| job ')
  expect(header, 'README has a job table').toBeGreaterThan(0)
  for (const line of readme.slice(header).split('\n').slice(2)) {
    if (!line.startsWith('|')) break
    const [name, description, path] = line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim())
    rows.set(name!, { description: description!, path: path!.replace(/`/g, '') })
  }
  return rows
}

describe('the schedule table', () => {
  it('is what the migrations register with pg_cron', () => {
    const registered = registeredByMigrations()
    expect([...registered.keys()].sort()).toEqual(scheduledJobs.map((j) => j.name).sort())
    for (const job of scheduledJobs) {
      expect(registered.get(job.name), job.name).toEqual({ cron: job.cron, path: job.path })
    }
  })

  it('is what the README tells operators', () => {
    const rows = readmeJobTable()
    expect([...rows.keys()].sort()).toEqual(scheduledJobs.map((j) => j.name).sort())
    for (const job of scheduledJobs) {
      expect(rows.get(job.name), job.name).toEqual({ description: job.description, path: job.path })
    }
  })

  it('names only job routes, each run locally no less often than pg_cron would', () => {
    for (const job of scheduledJobs) {
      expect(job.path).toMatch(/^[a-z-]+\/jobs\/[a-z-]+$/)
      const every = productionEveryMs(job)
      if (every) expect(job.localEverySeconds * 1000, job.name).toBeLessThanOrEqual(every)
    }
  })
})

describe('sub-minute schedules', () => {
  it('run every 10 seconds where pg_cron takes them (1.5 and later), every minute before', () => {
    const publish = scheduledJobs.find((j) => j.name === 'content-publish-scheduled')!
    expect(publish.cron).toBe('10 seconds')
    expect(productionEveryMs(publish)).toBe(10_000)
    expect(registeredSchedule(publish, '1.6')).toBe('10 seconds')
    expect(registeredSchedule(publish, '1.5-1')).toBe('10 seconds')
    expect(registeredSchedule(publish, '1.4-1')).toBe('* * * * *')
    expect(registeredSchedule({ cron: '*/5 * * * *' }, '1.4-1')).toBe('*/5 * * * *')
    expect(productionEveryMs({ cron: '*/5 * * * *' })).toBe(300_000)
    expect(productionEveryMs({ cron: '0 * * * *' })).toBeNull()
  })
})
