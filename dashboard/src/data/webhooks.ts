/** Webhook subscriptions, their deliveries and the event catalog. */
import { call, platform, type Schema } from '../api.ts'
import { useLoad } from './load.ts'

export type Webhook = Schema<'Webhook'>
export type Attempt = Schema<'WebhookDeliveryAttempt'>
export type EventType = Schema<'WebhookEventTypeList'>['data'][number]
/** The event types a subscription names. */
export type WebhookEvents = Schema<'CreateWebhook'>['events']

export const eventTypes = () => call(platform.GET('/api/webhooks/event-types'))
export const useWebhooks = () =>
  useLoad(() => call(platform.GET('/api/webhooks', { params: { query: { limit: 100 } } })))
export const useWebhook = (id: string) =>
  useLoad(() => call(platform.GET('/api/webhooks/{id}', { params: { path: { id } } })), [id])
export const useDeliveries = (id: string) =>
  useLoad(
    () =>
      call(platform.GET('/api/webhooks/{id}/deliveries', { params: { path: { id }, query: { limit: 50 } } })),
    [id],
  )

export const createWebhook = (body: Schema<'CreateWebhook'>) => call(platform.POST('/api/webhooks', { body }))
export const updateWebhook = (id: string, body: Schema<'UpdateWebhook'>) =>
  call(platform.PATCH('/api/webhooks/{id}', { params: { path: { id } }, body }))
export const deleteWebhook = (id: string) =>
  call(platform.DELETE('/api/webhooks/{id}', { params: { path: { id } } }))
export const pauseWebhook = (id: string) =>
  call(platform.POST('/api/webhooks/{id}/pause', { params: { path: { id } } }))
export const resumeWebhook = (id: string) =>
  call(platform.POST('/api/webhooks/{id}/resume', { params: { path: { id } } }))
export const testWebhook = (id: string) =>
  call(platform.POST('/api/webhooks/{id}/test', { params: { path: { id } } }))
export const webhookSecret = (id: string) =>
  call(platform.GET('/api/webhooks/{id}/secret', { params: { path: { id } } }))
export const rotateWebhookSecret = (id: string) =>
  call(platform.POST('/api/webhooks/{id}/rotate-secret', { params: { path: { id } }, body: {} }))
export const redeliver = (id: string, eventId: string) =>
  call(
    platform.POST('/api/webhooks/{id}/redeliver', { params: { path: { id } }, body: { event_id: eventId } }),
  )
