import type { VNode } from 'preact'
import { useState } from 'preact/hooks'
import {
  createStore,
  type DeliveryStatus,
  deleteStore,
  replayDelivery,
  rotateStoreSecret,
  type Store,
  useDeliveries,
  useStores,
} from '../data/commerce.ts'
import { ago, when } from '../format.ts'
import { Action, canWrite, Field, Form, Loaded, ReadOnly, Refresh, useSession } from '../ui.tsx'

type Platform = Store['platform']

const platformNames: Record<Platform, string> = { shopify: 'Shopify', woocommerce: 'WooCommerce' }
/** Where each platform's admin keeps the secret the store is created with. */
const secretHints: Record<Platform, string> = {
  shopify: "The app's client secret (or the signing key shown under Settings, Notifications, Webhooks)",
  woocommerce: 'The secret you give the webhook (WooCommerce, Settings, Advanced, Webhooks)',
}
const statusClass: Record<DeliveryStatus, string> = {
  pending: '',
  processed: 'ok',
  ignored: '',
  failed: 'bad',
}

/** The delivery URL to paste into the shop, with a copy button. */
function DeliveryUrl({ url }: { url: string }): VNode {
  const [copied, setCopied] = useState(false)
  return (
    <span class="row">
      <code class="url">{url}</code>
      <button
        type="button"
        class="link"
        aria-label="Copy the delivery URL"
        onClick={async () => {
          await navigator.clipboard?.writeText(url).catch(() => {})
          setCopied(true)
        }}
      >
        {copied ? 'Copied' : 'Copy'}
      </button>
    </span>
  )
}

export function CommercePage(): VNode {
  const session = useSession()
  const write = canWrite(session)
  const stores = useStores()
  const [status, setStatus] = useState<DeliveryStatus | ''>('')
  const deliveries = useDeliveries(status)
  const [platform, setPlatform] = useState<Platform>('shopify')
  const [created, setCreated] = useState<Store>()
  const [rotating, setRotating] = useState<string>()
  const storeName = (id: string) => stores.data?.data.find((s) => s.id === id)?.name ?? 'a deleted store'

  return (
    <section>
      <h1>Commerce</h1>
      <p class="muted">
        Shops that send their order and product webhooks to <strong>{session.tenantName}</strong>. Each
        delivery is checked against the store's signing secret, queued, and applied to the synced orders and
        products.
      </p>
      {created ? (
        <div class="card secret" role="status">
          <h3>Store added: {created.name}</h3>
          <p>Paste this delivery URL into the shop's webhook settings for the order and product topics:</p>
          <DeliveryUrl url={created.webhook_url} />
          <div class="row">
            <button type="button" onClick={() => setCreated(undefined)}>
              Done
            </button>
          </div>
        </div>
      ) : null}
      {write ? (
        <details class="card" open={stores.data ? !stores.data.data.length : false}>
          <summary>Add a store</summary>
          <Form
            label="Add a store"
            submitLabel="Add store"
            submit={async (d: FormData, f: HTMLFormElement) => {
              const address = String(d.get('address')).trim()
              const name = String(d.get('name')).trim()
              const secret = String(d.get('secret'))
              const store = await createStore(
                platform === 'shopify'
                  ? { platform, name, secret, shop_domain: address }
                  : { platform, name, secret, site_url: address },
              )
              f.reset()
              setCreated(store)
              stores.reload()
            }}
          >
            <div class="grid2">
              <Field label="Platform">
                <select
                  name="platform"
                  value={platform}
                  onChange={(e: Event) => setPlatform((e.target as HTMLSelectElement).value as Platform)}
                >
                  <option value="shopify">Shopify</option>
                  <option value="woocommerce">WooCommerce</option>
                </select>
              </Field>
              <Field label="Name">
                <input name="name" required maxlength={200} placeholder="Main shop" />
              </Field>
              {platform === 'shopify' ? (
                <Field label="Shop domain">
                  <input name="address" required placeholder="example-shop.myshopify.com" />
                </Field>
              ) : (
                <Field label="Site URL">
                  <input name="address" type="url" required placeholder="https://shop.example.com" />
                </Field>
              )}
              <Field label="Signing secret" hint={secretHints[platform]}>
                <input
                  name="secret"
                  type="password"
                  required
                  minlength={8}
                  maxlength={512}
                  autocomplete="off"
                  class="mono"
                />
              </Field>
            </div>
          </Form>
        </details>
      ) : (
        <ReadOnly what="the stores" />
      )}
      <Loaded state={stores}>
        {(page) =>
          page.data.length ? (
            <table>
              <caption class="sr">Stores</caption>
              <thead>
                <tr>
                  <th>Store</th>
                  <th>Delivery URL</th>
                  <th>Secret set</th>
                  <th>
                    <span class="sr">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {page.data.map((s) => (
                  <>
                    <tr>
                      <td data-label="Store">
                        <strong>{s.name}</strong>
                        <br />
                        <small class="muted">
                          {platformNames[s.platform]}: {s.shop_domain ?? s.site_url}
                        </small>
                      </td>
                      <td data-label="Delivery URL">
                        <DeliveryUrl url={s.webhook_url} />
                      </td>
                      <td data-label="Secret set" title={when(s.secret_updated_at)}>
                        {ago(s.secret_updated_at)}
                      </td>
                      <td>
                        {write ? (
                          <>
                            <button
                              type="button"
                              onClick={() => setRotating(rotating === s.id ? undefined : s.id)}
                              aria-expanded={rotating === s.id}
                            >
                              Rotate secret
                            </button>
                            <Action
                              kind="danger"
                              label={`Delete ${s.name}`}
                              confirm={`Delete the store “${s.name}”? Its deliveries, orders and products are deleted with it, and the shop's deliveries are refused from now on.`}
                              confirmLabel="Delete"
                              run={async () => {
                                await deleteStore(s.id)
                                stores.reload()
                                deliveries.reload()
                              }}
                            >
                              Delete
                            </Action>
                          </>
                        ) : null}
                      </td>
                    </tr>
                    {rotating === s.id ? (
                      <tr class="sub">
                        <td colspan={4}>
                          <Form
                            label={`Rotate the secret of ${s.name}`}
                            submitLabel="Replace secret"
                            class="inline"
                            submit={async (d: FormData) => {
                              await rotateStoreSecret(s.id, String(d.get('secret')))
                              setRotating(undefined)
                              stores.reload()
                            }}
                          >
                            <Field label="New signing secret" hint={secretHints[s.platform]}>
                              <input
                                name="secret"
                                type="password"
                                required
                                minlength={8}
                                maxlength={512}
                                autocomplete="off"
                                class="mono"
                              />
                            </Field>
                          </Form>
                        </td>
                      </tr>
                    ) : null}
                  </>
                ))}
              </tbody>
            </table>
          ) : (
            <p class="note">
              No stores yet. Add your Shopify or WooCommerce store above, then paste the delivery URL it shows
              into the store's webhook settings.
            </p>
          )
        }
      </Loaded>
      <div class="row wrap">
        <h2 class="grow">Recent deliveries</h2>
        <label class="field inline">
          <span>Status</span>
          <select
            aria-label="Delivery status"
            value={status}
            onChange={(e: Event) => setStatus((e.target as HTMLSelectElement).value as DeliveryStatus | '')}
          >
            <option value="">All</option>
            <option value="pending">Pending</option>
            <option value="processed">Processed</option>
            <option value="ignored">Ignored</option>
            <option value="failed">Failed (dead letter)</option>
          </select>
        </label>
        <Refresh state={deliveries} />
      </div>
      <Loaded state={deliveries}>
        {(page) =>
          page.data.length ? (
            <table class="deliveries">
              <caption class="sr">Commerce deliveries</caption>
              <thead>
                <tr>
                  <th>Received</th>
                  <th>Store</th>
                  <th>Topic</th>
                  <th>Result</th>
                  <th>Attempts</th>
                  <th>
                    <span class="sr">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {page.data.map((d) => (
                  <tr data-topic={d.topic}>
                    <td data-label="Received" title={when(d.received_at)}>
                      {ago(d.received_at)}
                    </td>
                    <td data-label="Store">{storeName(d.store_id)}</td>
                    <td data-label="Topic">
                      <code>{d.topic}</code>
                    </td>
                    <td data-label="Result">
                      <span class={`pill ${statusClass[d.status]}`}>{d.status}</span>
                      {d.outcome ? (
                        <>
                          {' '}
                          <small>{d.outcome}</small>
                        </>
                      ) : null}
                      {d.last_error ? (
                        <>
                          <br />
                          <small>{d.last_error}</small>
                        </>
                      ) : null}
                      {d.status === 'pending' && d.next_attempt_at ? (
                        <>
                          <br />
                          <small class="muted">retry {ago(d.next_attempt_at)}</small>
                        </>
                      ) : null}
                    </td>
                    <td data-label="Attempts">{d.attempts}</td>
                    <td>
                      {write && d.status === 'failed' ? (
                        <Action
                          label={`Replay ${d.topic}`}
                          run={async () => {
                            await replayDelivery(d.id)
                            setTimeout(deliveries.reload, 800)
                          }}
                        >
                          Replay
                        </Action>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p class="muted">No deliveries{status ? ` with status ${status}` : ''} yet.</p>
          )
        }
      </Loaded>
    </section>
  )
}
