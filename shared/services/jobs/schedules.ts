/**
 * The schedules a resource that runs on its own (a source's scrape, a destination's sync) may
 * have, and each one's interval in minutes. A resource offers a subset: the database's check
 * constraint on its table names the same subset.
 */
const scheduleMinutes = {
  every_minute: 1,
  every_5_minutes: 5,
  every_15_minutes: 15,
  hourly: 60,
  every_6_hours: 360,
  daily: 1440,
} as const

export type ScheduleName = keyof typeof scheduleMinutes

/**
 * When a resource on `schedule` runs next, counted from `now`; null when it runs only when
 * triggered (no schedule) or is paused.
 */
export function nextRunAt(schedule: ScheduleName | null, enabled: boolean, now: Date): Date | null {
  return schedule && enabled ? new Date(now.getTime() + scheduleMinutes[schedule] * 60_000) : null
}
