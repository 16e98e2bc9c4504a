/**
 * Times in the workspace's time zone: the schedule picker shows and takes wall-clock times there
 * and sends the instant as ISO 8601 (UTC). The zone is the workspace's `settings.timezone` when it
 * names an IANA zone, else the browser's.
 */

export function workspaceZone(setting: unknown): string {
  if (typeof setting === 'string' && setting) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: setting })
      return setting
    } catch {
      // Not a zone the browser knows: the browser's own below.
    }
  }
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'
}

function wallClock(ms: number, zone: string): number[] {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(ms)
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value)
  return [get('year'), get('month'), get('day'), get('hour'), get('minute'), get('second')]
}

/** How far the zone's clock is ahead of UTC at an instant, in ms. */
function offsetAt(ms: number, zone: string): number {
  const [y, mo, d, h, mi, s] = wallClock(ms, zone) as [number, number, number, number, number, number]
  return Date.UTC(y, mo - 1, d, h, mi, s) - Math.floor(ms / 1000) * 1000
}

/** `2026-12-24T08:00` as the zone's clocks read it, to the instant. */
export function fromZoned(local: string, zone: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(local)
  if (!m) return null
  const asUtc = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!)
  // Twice: the offset at the first guess may differ from the offset at the answer (a DST change).
  const first = asUtc - offsetAt(asUtc, zone)
  return new Date(asUtc - offsetAt(first, zone))
}

/** An instant as `datetime-local` input value in the zone: `2026-12-24T08:00`. */
export function toZoned(iso: string | Date, zone: string): string {
  const [y, mo, d, h, mi] = wallClock(new Date(iso).getTime(), zone)
  const two = (n: number | undefined) => String(n).padStart(2, '0')
  return `${y}-${two(mo)}-${two(d)}T${two(h)}:${two(mi)}`
}

/** An instant as people read it in the zone: "Dec 24, 2026, 8:00 AM". */
export function whenIn(iso: string, zone: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short', timeZone: zone })
}
