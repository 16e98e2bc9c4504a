import type { VNode } from 'preact'
import { api } from '../api.ts'
import { Bar, html, Loaded, useLoad } from '../ui.tsx'

interface MediaUsage {
  plan: string
  items: number
  used_bytes: number
  quota_bytes: number
  max_file_bytes: number
  percent: number
}

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

/** The media library's storage against the plan's quota (GET /v1/content/media-usage): a gauge, not monthly. */
export function MediaStorageUsage(): VNode {
  const usage = useLoad(() => api<MediaUsage>('GET', '/v1/content/media-usage'))
  return html`<${Loaded} state=${usage}>${(u: MediaUsage) => html`<div class="card usage" data-media-usage>
    <div class="product">
      <${Bar} label="Media storage" value=${u.used_bytes} max=${u.quota_bytes}
        tone=${u.percent >= 100 ? 'bad' : u.percent >= 80 ? 'warn' : 'ok'}
        text=${`${bytes(u.used_bytes)} / ${bytes(u.quota_bytes)} · ${u.percent}% · ${u.items} images · files up to ${bytes(u.max_file_bytes)}`} />
    </div>
  </div>`}<//>`
}
