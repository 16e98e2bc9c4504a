import type { FunctionDeps } from '@shared/infra/deps.ts'
import { createFunctionApp } from '@shared/infra/http/function-app.ts'
import { registerEventWebhooks } from '@shared/infra/http/openapi-webhooks.ts'
import { createDispatcher } from '@shared/services/webhooks/dispatcher.ts'
import { registerListDeliveryAttempts } from './routes/deliveries/list.ts'
import { registerRecoverDeliveries } from './routes/deliveries/recover.ts'
import { registerRedeliverEvent } from './routes/deliveries/redeliver.ts'
import { registerSendTestEvent } from './routes/deliveries/test.ts'
import { registerDispatchJob } from './routes/jobs/dispatch.ts'
import { registerRevealSecret } from './routes/secret/reveal.ts'
import { registerRotateSecret } from './routes/secret/rotate.ts'
import { registerCreateSubscription } from './routes/subscriptions/create.ts'
import { registerDeleteSubscription } from './routes/subscriptions/delete.ts'
import { registerListEventTypes } from './routes/subscriptions/event-types.ts'
import { registerGetSubscription } from './routes/subscriptions/get.ts'
import { registerListSubscriptions } from './routes/subscriptions/list.ts'
import { registerPauseSubscription } from './routes/subscriptions/pause.ts'
import { registerResumeSubscription } from './routes/subscriptions/resume.ts'
import { registerUpdateSubscription } from './routes/subscriptions/update.ts'

export const functionName = 'webhooks'

/** Outbound webhooks: subscriptions, their signing secrets, the delivery log and the dispatch job. */
export function createApp(deps: FunctionDeps) {
  const app = createFunctionApp(
    functionName,
    deps,
    'Outbound webhooks: subscriptions, signed deliveries, delivery log',
  )
  for (const register of [
    registerCreateSubscription,
    registerListSubscriptions,
    registerListEventTypes, // before /{id}, which would take it for an id
    registerGetSubscription,
    registerUpdateSubscription,
    registerDeleteSubscription,
    registerRevealSecret,
    registerRotateSecret,
    registerPauseSubscription,
    registerResumeSubscription,
    registerListDeliveryAttempts,
    registerRedeliverEvent,
    registerRecoverDeliveries,
    registerSendTestEvent,
  ])
    register(app)
  // The event catalog: what each subscribed event's delivery carries (the document's `webhooks`).
  registerEventWebhooks(app.openAPIRegistry)
  // The one use of deps here: the dispatcher's in-flight slots belong to the app instance, so they
  // must outlive a request. Every trigger of the job route (the in-process kick after an outbox
  // commit, the poll, pg_cron) shares them; runs never queue behind each other.
  const dispatcher = createDispatcher(deps)
  registerDispatchJob(app, () => dispatcher.run())
  return app
}
