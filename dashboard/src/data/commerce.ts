/** Shop stores (Shopify, WooCommerce) and the signed deliveries they send. */
import { call, platform, type Schema } from '../api.ts'
import { useLoad } from './load.ts'

export type Store = Schema<'CommerceStore'>
type Delivery = Schema<'CommerceDelivery'>
export type DeliveryStatus = Delivery['status']

export const useStores = () =>
  useLoad(() => call(platform.GET('/api/commerce/stores', { params: { query: { limit: 100 } } })))
export const useDeliveries = (status: DeliveryStatus | '') =>
  useLoad(
    () =>
      call(
        platform.GET('/api/commerce/deliveries', {
          params: { query: { limit: 50, ...(status && { status }) } },
        }),
      ),
    [status],
  )
export const createStore = (body: Schema<'CreateCommerceStore'>) =>
  call(platform.POST('/api/commerce/stores', { body }))
export const deleteStore = (id: string) =>
  call(platform.DELETE('/api/commerce/stores/{id}', { params: { path: { id } } }))
export const rotateStoreSecret = (id: string, secret: string) =>
  call(
    platform.POST('/api/commerce/stores/{id}/rotate-secret', { params: { path: { id } }, body: { secret } }),
  )
export const replayDelivery = (id: string) =>
  call(platform.POST('/api/commerce/deliveries/{id}/replay', { params: { path: { id } } }))
