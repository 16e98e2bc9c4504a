import type { VNode } from 'preact'
import { type MediaUsage, useMediaUsage } from '../data/media.ts'
import { Bar, Loaded } from '../ui.tsx'

/** Bytes as people read them: 1.5 MB, 500 MB, 10 GB. */
function bytes(n: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB']
  let i = 0
  let v = n
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024
    i++
  }
  return `${i === 0 ? v : v.toFixed(v >= 10 ? 0 : 1)} ${units[i]}`
}

/** The media library's storage against the plan's quota: a gauge, not monthly. */
export function MediaStorageUsage(): VNode {
  const usage = useMediaUsage()
  return (
    <Loaded state={usage}>
      {(u: MediaUsage) => (
        <div class="card usage" data-media-usage>
          <div class="product">
            <Bar
              label="Media storage"
              value={u.used_bytes}
              max={u.quota_bytes}
              tone={u.percent >= 100 ? 'bad' : u.percent >= 80 ? 'warn' : 'ok'}
              text={`${bytes(u.used_bytes)} / ${bytes(u.quota_bytes)} · ${u.percent}% · ${u.items} images · files up to ${bytes(u.max_file_bytes)}`}
            />
          </div>
        </div>
      )}
    </Loaded>
  )
}
