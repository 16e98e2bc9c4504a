import type { VNode } from 'preact'
import { useState } from 'preact/hooks'
import { api } from '../api.ts'
import { num } from '../format.ts'
import { Action, Bar, canWrite, Field, Form, html, Loaded, ReadOnly, useLoad, useSession } from '../ui.ts'

interface ProductUsage {
  product_id: string
  product: string
  name: string
  unit: 'request' | 'token'
  used: number
  quota: number | null
  percent: number | null
  overage_units: number
  overage_rate: string
  overage_cost: string
}
interface Usage {
  period: string
  plan: string
  currency: string
  products: ProductUsage[]
  total_overage_cost: string
}
interface Alert {
  id: string
  product_id: string
  product: string
  threshold_percent: number
  notification_type: 'email'
  notification_target: string
}

const thisMonth = () => new Date().toISOString().slice(0, 7)

export function UsagePage(): VNode {
  const session = useSession()
  const write = canWrite(session)
  const [period, setPeriod] = useState(thisMonth())
  const usage = useLoad(() => api<Usage>('GET', `/api/usage?period=${period}`), [period])
  const alerts = useLoad(() => api<{ data: Alert[] }>('GET', '/api/usage-alerts'))
  return html`<section>
    <h1>Usage</h1>
    <div class="row">
      <label class="field inline"><span>Month</span>
        <input type="month" value=${period} max=${thisMonth()} onChange=${(e: Event) => setPeriod((e.target as HTMLInputElement).value || thisMonth())} /></label>
    </div>
    <${Loaded} state=${usage}>${(u: Usage) => html`
      <p class="muted">Plan <strong>${u.plan}</strong> · ${u.period}</p>
      <div class="card usage">
        ${u.products.map(
          (p) => html`<div class="product">
            <${Bar} label=${p.name} value=${p.used} max=${p.quota ?? Math.max(p.used, 1)}
              tone=${p.percent === null ? 'a' : p.percent >= 100 ? 'bad' : p.percent >= 80 ? 'warn' : 'ok'}
              text=${p.quota === null ? `${num(p.used)} ${p.unit}s (unlimited)` : `${num(p.used)} / ${num(p.quota)} ${p.unit}s · ${p.percent}%`} />
            ${p.overage_units > 0 ? html`<p class="overage">Overage: ${num(p.overage_units)} ${p.unit}s × ${p.overage_rate} = <strong>${p.overage_cost} ${u.currency}</strong></p>` : null}
          </div>`,
        )}
        <p class="total">Total overage this month: <strong>${u.total_overage_cost} ${u.currency}</strong></p>
      </div>
      <h2>Alerts</h2>
      <p class="muted">An e-mail when a product's use passes a share of its quota (besides the built-in 80% and 100%).</p>
      ${
        write
          ? html`<${Form} label="Add a usage alert" submitLabel="Add alert" class="inline" submit=${async (
              d: FormData,
              f: HTMLFormElement,
            ) => {
              await api('POST', '/api/usage-alerts', {
                product_id: String(d.get('product_id')),
                threshold_percent: Number(d.get('threshold_percent')),
                notification_type: 'email',
                notification_target: String(d.get('target')).trim(),
              })
              f.reset()
              alerts.reload()
            }}>
          <${Field} label="Product"><select name="product_id">${u.products.map((p) => html`<option value=${p.product_id}>${p.name}</option>`)}</select><//>
          <${Field} label="Threshold %"><input name="threshold_percent" type="number" min="1" max="100" value="75" required /><//>
          <${Field} label="E-mail"><input name="target" type="email" required value=${session.email} /><//>
        <//>`
          : html`<${ReadOnly} what="the alerts" />`
      }
      <${Loaded} state=${alerts}>${(a: { data: Alert[] }) =>
        a.data.length
          ? html`<table><caption class="sr">Usage alerts</caption>
          <thead><tr><th>Product</th><th>Threshold</th><th>Notify</th><th><span class="sr">Actions</span></th></tr></thead>
          <tbody>${a.data.map(
            (
              x,
            ) => html`<tr><td data-label="Product">${x.product}</td><td data-label="Threshold">${x.threshold_percent}%</td>
              <td data-label="Notify">${x.notification_target}</td>
              <td>${
                write
                  ? html`<${Action} kind="danger" confirm=${`Delete the ${x.threshold_percent}% alert for ${x.product}?`} confirmLabel="Delete"
                      run=${async () => {
                        await api('DELETE', `/api/usage-alerts/${x.id}`)
                        alerts.reload()
                      }}>Delete<//>`
                  : null
              }</td></tr>`,
          )}</tbody></table>`
          : html`<p class="muted">No alerts of your own.</p>`}<//>
    `}<//>
  </section>`
}
