import type { VNode } from 'preact'
import { useState } from 'preact/hooks'
import {
  createUsageAlert,
  type DailyUsage,
  deleteUsageAlert,
  type ProductUsage,
  type Usage,
  useDailyUsage,
  useUsage,
  useUsageAlerts,
} from '../data/usage.ts'
import { num } from '../format.ts'
import { Action, Bar, canWrite, Field, Form, Loaded, ReadOnly, useSession } from '../ui.tsx'
import { MediaStorageUsage } from './media-usage.tsx'

/**
 * What a used-up quota means, in place of a bare QUOTA_EXCEEDED: which product, the month's use
 * against the quota, what is refused until when, and how to get more. Only the Free plan refuses
 * calls past its quota; the others bill the overage.
 */
function QuotaNotice({ usage, product }: { usage: Usage; product: ProductUsage }): VNode {
  const [year, month] = usage.period.split('-').map(Number) as [number, number]
  const resets = new Date(Date.UTC(year, month, 1)).toISOString().slice(0, 10)
  return (
    <div class="note warn" role="status" data-quota={product.product}>
      <strong>
        {product.name}: the {usage.plan} plan's quota is used up
      </strong>
      <p>
        {num(product.used)} of {num(product.quota ?? 0)} {product.unit}s in {usage.period}. Requests made with
        API keys get 429 QUOTA_EXCEEDED until the quota resets on {resets}; working here in the dashboard is
        not counted and goes on.
      </p>
      <p>
        To continue now, move the tenant to a larger plan: Pro, Business and Enterprise raise the quota and
        bill use past it instead of refusing it. Plans are changed through billing (on the local platform:
        <code>npm run plan -- --tenant "your tenant" pro</code>).
      </p>
    </div>
  )
}

const thisMonth = () => new Date().toISOString().slice(0, 7)

export function UsagePage(): VNode {
  const session = useSession()
  const write = canWrite(session)
  const [period, setPeriod] = useState(thisMonth())
  const usage = useUsage(period)
  const alerts = useUsageAlerts()
  return (
    <section>
      <h1>Usage</h1>
      <div class="row">
        <label class="field inline">
          <span>Month</span>
          <input
            type="month"
            value={period}
            max={thisMonth()}
            onChange={(e: Event) => setPeriod((e.target as HTMLInputElement).value || thisMonth())}
          />
        </label>
      </div>
      <Loaded state={usage}>
        {(u) => (
          <>
            <p class="muted">
              Plan <strong>{u.plan}</strong> · {u.period}
            </p>
            {u.products
              .filter((p) => u.plan === 'free' && p.quota !== null && p.used >= p.quota)
              .map((p) => (
                <QuotaNotice usage={u} product={p} />
              ))}
            <div class="card usage">
              {u.products.map((p) => (
                <div class="product">
                  <Bar
                    label={p.name}
                    value={p.used}
                    max={p.quota ?? Math.max(p.used, 1)}
                    tone={
                      p.percent === null ? 'a' : p.percent >= 100 ? 'bad' : p.percent >= 80 ? 'warn' : 'ok'
                    }
                    text={
                      p.quota === null
                        ? `${num(p.used)} ${p.unit}s (unlimited)`
                        : `${num(p.used)} / ${num(p.quota)} ${p.unit}s · ${p.percent}%`
                    }
                  />
                  {p.overage_units > 0 ? (
                    <p class="overage">
                      Overage: {num(p.overage_units)} {p.unit}s × {p.overage_rate} ={' '}
                      <strong>
                        {p.overage_cost} {u.currency}
                      </strong>
                    </p>
                  ) : null}
                </div>
              ))}
              <p class="total">
                Total overage this month:{' '}
                <strong>
                  {u.total_overage_cost} {u.currency}
                </strong>
              </p>
            </div>
            <MediaStorageUsage />
            <DailyUsageCharts period={period} />
            <h2>Alerts</h2>
            <p class="muted">
              An e-mail when a product's use passes a share of its quota (besides the built-in 80%, 90% and
              100%).
            </p>
            {write ? (
              <Form
                label="Add a usage alert"
                submitLabel="Add alert"
                class="inline"
                submit={async (d: FormData, f: HTMLFormElement) => {
                  await createUsageAlert({
                    product_id: String(d.get('product_id')),
                    threshold_percent: Number(d.get('threshold_percent')),
                    notification_type: 'email',
                    notification_target: String(d.get('target')).trim(),
                  })
                  f.reset()
                  alerts.reload()
                }}
              >
                <Field label="Product">
                  <select name="product_id">
                    {u.products.map((p) => (
                      <option value={p.product_id}>{p.name}</option>
                    ))}
                  </select>
                </Field>
                <Field
                  label="Threshold %"
                  hint="A whole number from 1 to 100: the share of the monthly quota"
                >
                  <input name="threshold_percent" type="number" min="1" max="100" value="75" required />
                </Field>
                <Field label="E-mail" hint="Where this alert is sent">
                  <input name="target" type="email" required value={session.email} />
                </Field>
              </Form>
            ) : (
              <ReadOnly what="the alerts" />
            )}
            <Loaded state={alerts}>
              {(a) =>
                a.data.length ? (
                  <table>
                    <caption class="sr">Usage alerts</caption>
                    <thead>
                      <tr>
                        <th>Product</th>
                        <th>Threshold</th>
                        <th>Notify</th>
                        <th>
                          <span class="sr">Actions</span>
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {a.data.map((x) => (
                        <tr>
                          <td data-label="Product">{x.product}</td>
                          <td data-label="Threshold">{x.threshold_percent}%</td>
                          <td data-label="Notify">{x.notification_target}</td>
                          <td>
                            {write ? (
                              <Action
                                kind="danger"
                                confirm={`Delete the ${x.threshold_percent}% alert for ${x.product}?`}
                                confirmLabel="Delete"
                                run={async () => {
                                  await deleteUsageAlert(x.id)
                                  alerts.reload()
                                }}
                              >
                                Delete
                              </Action>
                            ) : null}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                ) : (
                  <p class="muted">
                    No alerts of your own: owners and admins are e-mailed at 80%, 90% and 100% anyway.
                  </p>
                )
              }
            </Loaded>
          </>
        )}
      </Loaded>
    </section>
  )
}

/**
 * One product's month in plain SVG: a bar per day's use, the running total as a line, and the
 * monthly quota as a dashed line, all on one scale. Each day's bar carries its numbers as a title.
 */
function DailyChart({ days, p }: { days: string[]; p: DailyUsage['products'][number] }): VNode {
  // About the size the card shows it at, so the labels read at their own size.
  const W = 320
  const H = 140
  const pad = { left: 34, right: 6, top: 16, bottom: 18 }
  const running: number[] = []
  for (const n of p.daily) running.push((running[running.length - 1] ?? 0) + n)
  const total = running[running.length - 1] ?? 0
  const top = Math.max(p.quota ?? 0, total, 1)
  const x = (i: number) => pad.left + (i * (W - pad.left - pad.right)) / days.length
  const y = (v: number) => H - pad.bottom - (v / top) * (H - pad.top - pad.bottom)
  const bw = Math.max(1, (W - pad.left - pad.right) / days.length - 2)
  const over = p.quota !== null && total > p.quota
  const label = `${p.name}: ${num(total)} ${p.unit}s this month${p.quota === null ? ' (unlimited)' : ` of a quota of ${num(p.quota)}`}`
  return (
    <figure class="daily">
      <figcaption>
        <strong>{p.name}</strong>{' '}
        <span class="muted">
          {num(total)}
          {p.quota === null ? '' : ` / ${num(p.quota)}`} {p.unit}s
        </span>
      </figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={label}>
        <line class="axis" x1={pad.left} x2={W - pad.right} y1={y(0)} y2={y(0)} />
        <text class="label" x={pad.left - 4} y={y(top) + 4} text-anchor="end">
          {compact(top)}
        </text>
        <text class="label" x={pad.left - 4} y={y(0)} text-anchor="end">
          0
        </text>
        {days.map((d, i) => {
          const n = p.daily[i] ?? 0
          return (
            <rect class="day" x={x(i) + 1} y={y(n)} width={bw} height={Math.max(0, y(0) - y(n))}>
              <title>
                {d}: {num(n)} {p.unit}s (month so far {num(running[i] ?? 0)})
              </title>
            </rect>
          )
        })}
        <polyline
          class={`running ${over ? 'over' : ''}`}
          fill="none"
          points={running.map((v, i) => `${x(i) + bw / 2 + 1},${y(v)}`).join(' ')}
        />
        {p.quota !== null ? (
          <>
            <line class="quota" x1={pad.left} x2={W - pad.right} y1={y(p.quota)} y2={y(p.quota)} />
            <text class="label quota-label" x={W - pad.right} y={y(p.quota) - 4} text-anchor="end">
              quota {compact(p.quota)}
            </text>
          </>
        ) : null}
        <text class="label" x={x(0)} y={H - 4}>
          {days[0]?.slice(5)}
        </text>
        <text class="label" x={W - pad.right} y={H - 4} text-anchor="end">
          {days[days.length - 1]?.slice(5)}
        </text>
      </svg>
    </figure>
  )
}

/** 12500 -> "12.5k": an axis label that fits. */
function compact(n: number): string {
  return new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 }).format(n)
}

/** The month's charts, one per product. */
function DailyUsageCharts({ period }: { period: string }): VNode {
  const daily = useDailyUsage(period)
  return (
    <>
      <h2>Per day</h2>
      <p class="muted">Bars: each day's use. Line: the month's running total. Dashed: the monthly quota.</p>
      <Loaded state={daily}>
        {(d) => (
          <div class="charts">
            {d.products.map((p) => (
              <DailyChart days={d.days} p={p} />
            ))}
          </div>
        )}
      </Loaded>
    </>
  )
}
