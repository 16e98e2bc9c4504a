import type { FunctionDeps } from '@shared/infra/deps.ts'
import { createFunctionApp } from '@shared/infra/http/function-app.ts'
import { registerGetDelivery } from './routes/deliveries/get.ts'
import { registerListDeliveries } from './routes/deliveries/list.ts'
import { registerReplayDelivery } from './routes/deliveries/replay.ts'
import { registerProcessJob } from './routes/jobs/process.ts'
import { registerListOrders } from './routes/orders/list.ts'
import { registerListProducts } from './routes/products/list.ts'
import { registerReceiveShopify } from './routes/receive/shopify.ts'
import { registerReceiveForStore } from './routes/receive/store.ts'
import { registerCreateStore } from './routes/stores/create.ts'
import { registerDeleteStore } from './routes/stores/delete.ts'
import { registerGetStore } from './routes/stores/get.ts'
import { registerListStores } from './routes/stores/list.ts'
import { registerRotateStoreSecret } from './routes/stores/rotate-secret.ts'
import { registerUpdateStore } from './routes/stores/update.ts'

export const functionName = 'commerce-webhook'

/**
 * Inbound Shopify and WooCommerce webhooks (verified, deduplicated, acknowledged at once and
 * processed afterwards), the stores that send them, the delivery log, and the synced orders and
 * products. The spec has no commerce scope: synced orders and products are read-only content the
 * tenant publishes from, so a key reads them with content:read.
 */
export function createApp(deps: FunctionDeps) {
  const app = createFunctionApp(
    functionName,
    deps,
    'Commerce webhooks: stores, deliveries, orders, products',
    {
      // Deliveries are verified over their raw bytes; a signed body that is no JSON is dead-lettered.
      ownsBody: (path, method) => method === 'POST' && (path === '/' || /^\/stores\/[^/]+$/.test(path)),
    },
  )
  for (const register of [
    registerReceiveShopify,
    registerReceiveForStore,
    registerCreateStore,
    registerListStores,
    registerGetStore,
    registerUpdateStore,
    registerRotateStoreSecret,
    registerDeleteStore,
    registerListDeliveries,
    registerGetDelivery,
    registerReplayDelivery,
    registerListOrders,
    registerListProducts,
    registerProcessJob,
  ])
    register(app)
  return app
}
