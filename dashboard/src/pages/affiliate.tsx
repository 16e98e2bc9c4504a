import type { VNode } from 'preact'
import { useState } from 'preact/hooks'
import {
  addProgram,
  createDestination,
  type Destination as DestinationRow,
  deleteDestination,
  type NewDestination,
  type NewProgram,
  type Program,
  removeProgram,
  setDestinationEnabled,
  syncNow,
  useDestinations,
  useProducts,
} from '../data/affiliate.ts'
import { ago, safeHref, when } from '../format.ts'
import { Action, canWrite, Field, Form, Loaded, ReadOnly, useSession } from '../ui.tsx'
import {
  AddForSite,
  LastRunCell,
  QueuedNote,
  ScheduleCell,
  ScheduledActions,
  ScheduleField,
  type Site,
  SiteField,
  useSites,
} from './scheduled.tsx'

type Network = Program['network']
type Schedule = NonNullable<DestinationRow['schedule']>

const networkNames: Record<Network, string> = {
  awin: 'Awin',
  cj: 'CJ',
  amazon: 'Amazon Creators API',
  feed: 'Product feed',
}
const scheduleNames: Record<Schedule, string> = {
  hourly: 'hourly',
  every_6_hours: 'every 6 hours',
  daily: 'daily',
}

/** A comma-separated list from a form field, without blanks. */
const list = (value: FormDataEntryValue | null) =>
  String(value ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean)
const optional = (value: FormDataEntryValue | null) => String(value ?? '').trim() || null

/** The network's own settings, read from the program form. */
function networkConfig(network: Network, d: FormData): Record<string, unknown> {
  switch (network) {
    case 'awin':
      return { feed_ids: list(d.get('feed_ids')), language: String(d.get('language') || 'en') }
    case 'cj':
      return { company_id: String(d.get('company_id')).trim(), keywords: list(d.get('keywords')) }
    case 'amazon':
      return {
        marketplace: String(d.get('marketplace') || 'www.amazon.com'),
        keywords: String(d.get('keywords')).trim(),
      }
    case 'feed':
      return { url: String(d.get('url')).trim(), format: String(d.get('format')) }
  }
}

function NetworkFields({ network }: { network: Network }): VNode {
  switch (network) {
    case 'awin':
      return (
        <>
          <Field label="Feed ids" hint="Comma-separated fid values from Awin's Create-a-Feed">
            <input name="feed_ids" required placeholder="12345, 67890" />
          </Field>
          <Field label="Language">
            <input name="language" value="en" pattern="[a-z]{2}" />
          </Field>
        </>
      )
    case 'cj':
      return (
        <>
          <Field label="Company id">
            <input name="company_id" required placeholder="1234567" />
          </Field>
          <Field label="Keywords (optional)" hint="Comma-separated">
            <input name="keywords" />
          </Field>
        </>
      )
    case 'amazon':
      return (
        <>
          <Field label="Marketplace">
            <input name="marketplace" value="www.amazon.com" />
          </Field>
          <Field label="Keywords">
            <input name="keywords" required placeholder="espresso machine" />
          </Field>
        </>
      )
    case 'feed':
      return (
        <>
          <Field label="Feed URL">
            <input name="url" type="url" required placeholder="https://shop.example.com/products.csv" />
          </Field>
          <Field label="Format">
            <select name="format">
              <option value="csv">CSV (Google Merchant columns)</option>
              <option value="json">JSON or JSON Lines</option>
              <option value="google_merchant_xml">Google Merchant XML</option>
            </select>
          </Field>
        </>
      )
  }
}

/** A destination's programs, the form that adds one, and its synced products. */
function Destination({ d, write, reload }: { d: DestinationRow; write: boolean; reload: () => void }): VNode {
  const [network, setNetwork] = useState<Network>('feed')
  // Loaded again after each sync (the destination's last run changes when the list is reloaded).
  const products = useProducts(d.id, d.last_run_at)
  return (
    <div class="detail">
      <h3>Programs</h3>
      {d.programs.length ? (
        <ul class="items">
          {d.programs.map((p) => (
            <li>
              <strong>{p.name}</strong>{' '}
              <small class="muted">
                {networkNames[p.network]}
                {p.tracking_id ? `, tracking ${p.tracking_id}` : ''}
                {p.currency ? `, ${p.currency}` : ''}
              </small>
              {write ? (
                <Action
                  kind="link"
                  label={`Remove ${p.name}`}
                  confirm={`Remove the program “${p.name}” and its products?`}
                  confirmLabel="Remove"
                  run={async () => {
                    await removeProgram(d.id, p.id)
                    reload()
                  }}
                >
                  Remove
                </Action>
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p class="muted">No programs yet: add one to sync its products.</p>
      )}
      {write ? (
        <Form
          label={`Add a program to ${d.name}`}
          submitLabel="Add program"
          submit={async (f: FormData, form: HTMLFormElement) => {
            // networkConfig builds the config of this network's form; the API checks it against the network.
            await addProgram(d.id, {
              network,
              name: String(f.get('name')).trim(),
              config: networkConfig(network, f),
              merchant_ids: list(f.get('merchant_ids')),
              tracking_id: optional(f.get('tracking_id')),
              currency: optional(f.get('currency')),
            } as NewProgram)
            form.reset()
            reload()
          }}
        >
          <div class="grid2">
            <Field label="Network">
              <select
                name="network"
                value={network}
                onChange={(e: Event) => setNetwork((e.target as HTMLSelectElement).value as Network)}
              >
                {Object.entries(networkNames).map(([v, label]) => (
                  <option value={v}>{label}</option>
                ))}
              </select>
            </Field>
            <Field label="Program name">
              <input name="name" required maxlength={200} />
            </Field>
            <NetworkFields network={network} />
            <Field label="Tracking id (optional)" hint="Awin clickref, CJ website id, Amazon partner tag">
              <input name="tracking_id" />
            </Field>
            <Field label="Merchant ids (optional)" hint="Comma-separated; only their products are kept">
              <input name="merchant_ids" />
            </Field>
            <Field label="Currency (optional)" hint="ISO 4217: a feed priced in another fails the sync">
              <input name="currency" pattern="[A-Z]{3}" placeholder="EUR" />
            </Field>
          </div>
        </Form>
      ) : null}
      <h3>Products</h3>
      <Loaded state={products}>
        {(page) =>
          page.data.length ? (
            <table>
              <caption class="sr">Products of {d.name}</caption>
              <thead>
                <tr>
                  <th>Product</th>
                  <th>Price</th>
                  <th>Availability</th>
                  <th>Synced</th>
                </tr>
              </thead>
              <tbody>
                {page.data.map((p) => (
                  <tr>
                    <td data-label="Product">
                      {safeHref(p.affiliate_url) ? (
                        <a
                          href={safeHref(p.affiliate_url)}
                          rel="noopener noreferrer sponsored"
                          target="_blank"
                        >
                          {p.title}
                        </a>
                      ) : (
                        p.title
                      )}
                      {p.merchant ? (
                        <>
                          <br />
                          <small class="muted">{p.merchant}</small>
                        </>
                      ) : null}
                    </td>
                    <td data-label="Price">
                      {p.sale_price ? (
                        <>
                          <s>{p.price}</s> {p.sale_price}
                        </>
                      ) : (
                        p.price
                      )}{' '}
                      {p.currency}
                    </td>
                    <td data-label="Availability">{p.availability.replace(/_/g, ' ')}</td>
                    <td data-label="Synced" title={when(p.last_synced_at)}>
                      {ago(p.last_synced_at)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p class="muted">
              No products yet: press <strong>Sync now</strong> to fetch them.
            </p>
          )
        }
      </Loaded>
    </div>
  )
}

export function AffiliatePage(): VNode {
  const session = useSession()
  const write = canWrite(session)
  const destinations = useDestinations()
  const { sites, siteName } = useSites()
  const [open, setOpen] = useState<string>()
  const [queued, setQueued] = useState<string>()

  return (
    <section>
      <h1>Affiliate</h1>
      <p class="muted">
        Product catalogs from affiliate networks and product feeds (sync-affiliate), synced for the sites of{' '}
        <strong>{session.tenantName}</strong>. A network's key comes from Credentials.
      </p>
      <QueuedNote run={queued} />
      {write ? (
        <AddForSite
          title="Add a destination"
          plural="Destinations"
          open={destinations.data ? !destinations.data.data.length : false}
          sites={sites}
          form={(sites: Site[]) => (
            <Form
              label="Add a destination"
              submitLabel="Add destination"
              submit={async (d: FormData, f: HTMLFormElement) => {
                const created = await createDestination({
                  name: String(d.get('name')).trim(),
                  site_id: String(d.get('site_id')),
                  // One of the select's schedules; the API checks it again.
                  schedule: (String(d.get('schedule')) || null) as NewDestination['schedule'],
                })
                f.reset()
                setOpen(created.id)
                destinations.reload()
              }}
            >
              <div class="grid2">
                <Field label="Name">
                  <input name="name" required maxlength={200} placeholder="Kitchen reviews" />
                </Field>
                <SiteField sites={sites} />
                <ScheduleField names={scheduleNames} preselected="daily" />
              </div>
            </Form>
          )}
        />
      ) : (
        <ReadOnly what="the destinations" />
      )}
      <Loaded state={destinations}>
        {(page) =>
          page.data.length ? (
            <table>
              <caption class="sr">Destinations</caption>
              <thead>
                <tr>
                  <th>Destination</th>
                  <th>Schedule</th>
                  <th>Last sync</th>
                  <th>
                    <span class="sr">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {page.data.map((d) => (
                  <>
                    <tr>
                      <td data-label="Destination">
                        <strong>{d.name}</strong>
                        <br />
                        <small class="muted">
                          {d.programs.length} program{d.programs.length === 1 ? '' : 's'}
                          {siteName(d.site_id) ? ` → ${siteName(d.site_id)}` : ''}
                        </small>
                      </td>
                      <td data-label="Schedule">
                        <ScheduleCell r={d} label={d.schedule ? scheduleNames[d.schedule] : null} />
                      </td>
                      <td data-label="Last sync">
                        <LastRunCell r={d} />
                      </td>
                      <td>
                        <button
                          type="button"
                          onClick={() => setOpen(open === d.id ? undefined : d.id)}
                          aria-expanded={open === d.id}
                        >
                          Programs and products
                        </button>
                        {write ? (
                          <ScheduledActions
                            name={d.name}
                            verb="Sync"
                            enabled={d.enabled}
                            canRun={d.programs.length > 0}
                            run={async () => {
                              await syncNow(d.id)
                              setQueued(`Sync of ${d.name}`)
                              setTimeout(destinations.reload, 1500)
                            }}
                            setEnabled={async (enabled: boolean) => {
                              await setDestinationEnabled(d.id, enabled)
                              destinations.reload()
                            }}
                            remove={async () => {
                              await deleteDestination(d.id)
                              destinations.reload()
                            }}
                            removeWarning={`Delete the destination “${d.name}”, its programs and its products?`}
                          />
                        ) : null}
                      </td>
                    </tr>
                    {open === d.id ? (
                      <tr class="sub">
                        <td colspan={4}>
                          <Destination d={d} write={write} reload={destinations.reload} />
                        </td>
                      </tr>
                    ) : null}
                  </>
                ))}
              </tbody>
            </table>
          ) : (
            <p class="note">No destinations yet. Add one above, then a program whose products it syncs.</p>
          )
        }
      </Loaded>
    </section>
  )
}
