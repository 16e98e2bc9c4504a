import { createRoute, type z } from '@hono/zod-openapi'
import { requireRole } from '../../shared/infra/auth.ts'
import { privilegeErrorAs, type Tx, withTenant } from '../../shared/infra/db.ts'
import type { FunctionDeps } from '../../shared/infra/deps.ts'
import { notFound, ServiceError } from '../../shared/infra/errors.ts'
import { newEventId } from '../../shared/infra/events.ts'
import { authenticate, tenantCaller } from '../../shared/infra/http/authenticate.ts'
import { createFunctionApp } from '../../shared/infra/http/function-app.ts'
import { errorResponses } from '../../shared/infra/http/openapi.ts'
import { generateKey } from '../../shared/infra/keys.ts'
import {
  assertPublicUrl,
  OutboundBlockedError,
  type OutboundPolicy,
  outboundPolicyFrom,
} from '../../shared/infra/outbound.ts'
import { decodeCursor, pageQuery, paginate } from '../../shared/infra/pagination.ts'
import { coalescing, dispatchDue } from '../../shared/services/webhooks/dispatcher.ts'
import {
  attemptListSchema,
  createdSubscriptionSchema,
  createSubscriptionBody,
  deliveriesQuery,
  deliverySchema,
  dispatchResultSchema,
  idParam,
  MAX_SUBSCRIPTIONS_PER_TENANT,
  recoverBody,
  recoverResultSchema,
  redeliverBody,
  rotateSecretBody,
  type Subscription,
  secretSchema,
  subscriptionListSchema,
  subscriptionSchema,
  updateSubscriptionBody,
} from '../../shared/services/webhooks/schema.ts'

export const functionName = 'webhooks'

const SECRET_PURPOSE = 'webhook-secret'
export const TEST_EVENT_TYPE = 'webhook.test'

interface SubscriptionRow {
  id: string
  url: string
  events: string[]
  description: string | null
  status: 'active' | 'paused'
  paused_at: Date | null
  paused_reason: 'failures' | 'manual' | null
  previous_secret_expires_at: Date | null
  created_at: Date
  updated_at: Date
}

const columns =
  'id, url, events, description, status, paused_at, paused_reason, previous_secret_expires_at, created_at, updated_at'

function present(row: SubscriptionRow, now: Date): Subscription {
  const overlap =
    row.previous_secret_expires_at && row.previous_secret_expires_at > now
      ? row.previous_secret_expires_at
      : null
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    description: row.description,
    status: row.status,
    paused_at: row.paused_at?.toISOString() ?? null,
    paused_reason: row.paused_reason,
    previous_secret_expires_at: overlap?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  }
}

interface DeliveryRow {
  id: string
  event_id: string
  event_type: string
  status: 'pending' | 'succeeded' | 'failed'
  is_test: boolean
  attempts: number
  next_attempt_at: Date | null
  created_at: Date
  subscription_status: 'active' | 'paused'
}

const deliveryColumns = `d.id, d.event_id, d.event_type, d.status, d.is_test, d.attempts, d.next_attempt_at, d.created_at,
  (select s.status from public.webhook_subscriptions s where s.id = d.subscription_id) as subscription_status`

function presentDelivery(row: DeliveryRow) {
  const held = row.status === 'pending' && row.subscription_status === 'paused' && !row.is_test
  return {
    id: row.id,
    event_id: row.event_id,
    event_type: row.event_type,
    status: held ? ('held' as const) : row.status,
    attempts: row.attempts,
    next_attempt_at: row.next_attempt_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
  }
}

/** RLS refuses members' writes as a privilege error; answer 403. */
const asPermissionError = privilegeErrorAs('Only owners and admins manage webhooks')

const security = [{ bearer: [] }]
const json = <T extends z.ZodType>(schema: T) => ({ content: { 'application/json': { schema } } })

const routes = {
  create: createRoute({
    method: 'post',
    path: '/',
    summary: 'Create a webhook subscription (returns its signing secret)',
    security,
    request: { body: { ...json(createSubscriptionBody), required: true } },
    responses: {
      201: { description: 'Created', ...json(createdSubscriptionSchema) },
      ...errorResponses(400, 401, 403, 413, 422, 429),
    },
  }),
  list: createRoute({
    method: 'get',
    path: '/',
    summary: "List the tenant's webhook subscriptions, newest first",
    security,
    request: { query: pageQuery },
    responses: {
      200: { description: 'A page', ...json(subscriptionListSchema) },
      ...errorResponses(400, 401, 429),
    },
  }),
  get: createRoute({
    method: 'get',
    path: '/{id}',
    summary: 'Get one webhook subscription',
    security,
    request: { params: idParam },
    responses: {
      200: { description: 'The subscription', ...json(subscriptionSchema) },
      ...errorResponses(400, 401, 404, 429),
    },
  }),
  update: createRoute({
    method: 'patch',
    path: '/{id}',
    summary: 'Update url, events or description',
    security,
    request: { params: idParam, body: { ...json(updateSubscriptionBody), required: true } },
    responses: {
      200: { description: 'The subscription', ...json(subscriptionSchema) },
      ...errorResponses(400, 401, 403, 404, 429),
    },
  }),
  remove: createRoute({
    method: 'delete',
    path: '/{id}',
    summary: 'Delete a subscription with its delivery log',
    security,
    request: { params: idParam },
    responses: { 204: { description: 'Deleted' }, ...errorResponses(400, 401, 403, 404, 429) },
  }),
  secret: createRoute({
    method: 'get',
    path: '/{id}/secret',
    summary: 'Reveal the signing secret (owners and admins)',
    security,
    request: { params: idParam },
    responses: {
      200: { description: 'The secret', ...json(secretSchema) },
      ...errorResponses(400, 401, 403, 404, 429),
    },
  }),
  rotate: createRoute({
    method: 'post',
    path: '/{id}/rotate-secret',
    summary: 'Rotate the signing secret; the previous one keeps signing during the overlap',
    security,
    request: { params: idParam, body: { ...json(rotateSecretBody), required: false } },
    responses: {
      200: { description: 'The new secret', ...json(secretSchema) },
      ...errorResponses(400, 401, 403, 404, 429),
    },
  }),
  pause: createRoute({
    method: 'post',
    path: '/{id}/pause',
    summary: 'Pause deliveries (events are held until resume)',
    security,
    request: { params: idParam },
    responses: {
      200: { description: 'The subscription', ...json(subscriptionSchema) },
      ...errorResponses(400, 401, 403, 404, 429),
    },
  }),
  resume: createRoute({
    method: 'post',
    path: '/{id}/resume',
    summary: 'Reactivate a paused subscription and deliver the events held while it was paused',
    security,
    request: { params: idParam },
    responses: {
      200: { description: 'The subscription', ...json(subscriptionSchema) },
      ...errorResponses(400, 401, 403, 404, 429),
    },
  }),
  deliveries: createRoute({
    method: 'get',
    path: '/{id}/deliveries',
    summary: 'The delivery log: attempts, newest first',
    security,
    request: { params: idParam, query: deliveriesQuery },
    responses: {
      200: { description: 'A page of attempts', ...json(attemptListSchema) },
      ...errorResponses(400, 401, 404, 429),
    },
  }),
  redeliver: createRoute({
    method: 'post',
    path: '/{id}/redeliver',
    summary: 'Send one event again (a new run of the retry schedule, same event id)',
    security,
    request: { params: idParam, body: { ...json(redeliverBody), required: true } },
    responses: {
      202: { description: 'Queued', ...json(deliverySchema) },
      ...errorResponses(400, 401, 403, 404, 409, 429),
    },
  }),
  recover: createRoute({
    method: 'post',
    path: '/{id}/recover',
    summary: 'Requeue every failed delivery of events created since a time',
    security,
    request: { params: idParam, body: { ...json(recoverBody), required: true } },
    responses: {
      202: { description: 'Queued', ...json(recoverResultSchema) },
      ...errorResponses(400, 401, 403, 404, 429),
    },
  }),
  test: createRoute({
    method: 'post',
    path: '/{id}/test',
    summary: `Send a ${TEST_EVENT_TYPE} event (one attempt, no retries, also while paused)`,
    security,
    request: { params: idParam },
    responses: {
      202: { description: 'Queued', ...json(deliverySchema) },
      ...errorResponses(400, 401, 403, 404, 429),
    },
  }),
  dispatch: createRoute({
    method: 'post',
    path: '/jobs/dispatch',
    summary: 'Job: send due deliveries (service role only; pg_cron every minute)',
    security: [{ serviceRole: [] }],
    responses: { 200: { description: 'Counts', ...json(dispatchResultSchema) }, ...errorResponses(401) },
  }),
}

export function createApp(deps: FunctionDeps) {
  const app = createFunctionApp(
    functionName,
    deps,
    'Outbound webhooks: subscriptions, signed deliveries, delivery log',
  )
  const policy: OutboundPolicy = outboundPolicyFrom(deps.config)
  const runDispatch = coalescing(() => dispatchDue(deps))
  /** Deliveries became due: let the in-process dispatcher send them now rather than at its next poll. */
  const deliverSoon = () => deps.onOutboxCommitted?.()

  const userAuth = authenticate({ allow: ['user'] })
  app.use('/jobs/*', authenticate({ allow: ['service'] }))
  app.use('/*', async (c, next) => (c.req.path.startsWith('/jobs/') ? next() : userAuth(c, next)))

  /** The SSRF policy at registration; the dispatcher applies it again at every send (DNS rebinding). */
  async function assertDeliverable(url: string): Promise<void> {
    try {
      await assertPublicUrl(url, policy)
    } catch (err) {
      const message =
        err instanceof OutboundBlockedError ? `refused: ${err.reason}` : 'the host does not resolve'
      throw new ServiceError('VALIDATION_ERROR', `url ${message}`, { details: [{ field: 'url', message }] })
    }
  }

  async function findSubscription(tx: Tx, tenantId: string, id: string): Promise<SubscriptionRow> {
    const [row] = await tx<SubscriptionRow[]>`
      select ${tx.unsafe(columns)} from public.webhook_subscriptions where id = ${id} and tenant_id = ${tenantId}`
    if (!row) throw notFound('Webhook subscription')
    return row
  }

  app.openapi(routes.create, async (c) => {
    const body = c.req.valid('json')
    const caller = tenantCaller(c)
    requireRole(c.var.caller, ['owner', 'admin'])
    await assertDeliverable(body.url)
    const now = deps.clock.now()
    const secret = generateKey('whsec_')
    // Encrypt before the transaction: the vault uses its own connection.
    const ciphertext = await deps.vault.encrypt(caller.tenantId, secret, SECRET_PURPOSE)
    const row = await withTenant(deps.sql, caller.claims, async (tx) => {
      // Serialise creations per tenant so the cap holds under concurrent requests.
      await tx`select pg_advisory_xact_lock(hashtextextended(${`webhooks:${caller.tenantId}`}, 0))`
      const [{ n }] =
        (await tx`select count(*)::int as n from public.webhook_subscriptions where tenant_id = ${caller.tenantId}`) as unknown as [
          { n: number },
        ]
      if (n >= MAX_SUBSCRIPTIONS_PER_TENANT) {
        throw new ServiceError(
          'UNPROCESSABLE',
          `A tenant has at most ${MAX_SUBSCRIPTIONS_PER_TENANT} webhook subscriptions`,
        )
      }
      const [created] = await tx<SubscriptionRow[]>`
        insert into public.webhook_subscriptions (tenant_id, url, events, description, secret_ciphertext, created_by, created_at, updated_at)
        values (${caller.tenantId}, ${body.url}, ${body.events}, ${body.description ?? null}, ${ciphertext}, ${caller.userId}, ${now}, ${now})
        returning ${tx.unsafe(columns)}`
      return created!
    }).catch(asPermissionError)
    return c.json({ ...present(row, now), secret }, 201)
  })

  app.openapi(routes.list, async (c) => {
    const { limit, cursor } = c.req.valid('query')
    const caller = tenantCaller(c)
    const after = decodeCursor(cursor)
    const rows = await withTenant(
      deps.sql,
      caller.claims,
      (tx) => tx<SubscriptionRow[]>`
      select ${tx.unsafe(columns)} from public.webhook_subscriptions
      where tenant_id = ${caller.tenantId}
        ${after ? tx`and (created_at, id) < (${after.at}, ${after.id})` : tx``}
      order by created_at desc, id desc
      limit ${limit + 1}`,
    )
    const page = paginate(rows, limit, (r) => ({ at: r.created_at, id: r.id }))
    const now = deps.clock.now()
    return c.json({ data: page.data.map((r) => present(r, now)), next_cursor: page.next_cursor }, 200)
  })

  app.openapi(routes.get, async (c) => {
    const { id } = c.req.valid('param')
    const caller = tenantCaller(c)
    const row = await withTenant(deps.sql, caller.claims, (tx) => findSubscription(tx, caller.tenantId, id))
    return c.json(present(row, deps.clock.now()), 200)
  })

  app.openapi(routes.update, async (c) => {
    const { id } = c.req.valid('param')
    const body = c.req.valid('json')
    const caller = tenantCaller(c)
    requireRole(c.var.caller, ['owner', 'admin'])
    if (body.url !== undefined) await assertDeliverable(body.url)
    const now = deps.clock.now()
    const row = await withTenant(deps.sql, caller.claims, async (tx) => {
      const [updated] = await tx<SubscriptionRow[]>`
        update public.webhook_subscriptions set
          url = coalesce(${body.url ?? null}, url),
          events = coalesce(${body.events ?? null}::text[], events),
          description = ${body.description === undefined ? tx`description` : body.description},
          updated_at = ${now}
        where id = ${id} and tenant_id = ${caller.tenantId}
        returning ${tx.unsafe(columns)}`
      if (!updated) throw notFound('Webhook subscription')
      return updated
    }).catch(asPermissionError)
    return c.json(present(row, now), 200)
  })

  app.openapi(routes.remove, async (c) => {
    const { id } = c.req.valid('param')
    const caller = tenantCaller(c)
    requireRole(c.var.caller, ['owner', 'admin'])
    const deleted = await withTenant(
      deps.sql,
      caller.claims,
      (tx) =>
        tx`delete from public.webhook_subscriptions where id = ${id} and tenant_id = ${caller.tenantId} returning id`,
    ).catch(asPermissionError)
    if (deleted.length === 0) throw notFound('Webhook subscription')
    return c.body(null, 204)
  })

  app.openapi(routes.secret, async (c) => {
    const { id } = c.req.valid('param')
    const caller = tenantCaller(c)
    requireRole(c.var.caller, ['owner', 'admin'])
    const [row] = await withTenant(
      deps.sql,
      caller.claims,
      (tx) => tx<{ secret_ciphertext: string; previous_secret_expires_at: Date | null }[]>`
      select secret_ciphertext, previous_secret_expires_at from public.webhook_subscriptions
      where id = ${id} and tenant_id = ${caller.tenantId}`,
    )
    if (!row) throw notFound('Webhook subscription')
    const now = deps.clock.now()
    const secret = await deps.vault.decrypt(caller.tenantId, row.secret_ciphertext, SECRET_PURPOSE)
    const overlap =
      row.previous_secret_expires_at && row.previous_secret_expires_at > now
        ? row.previous_secret_expires_at
        : null
    return c.json({ secret, previous_secret_expires_at: overlap?.toISOString() ?? null }, 200)
  })

  app.openapi(routes.rotate, async (c) => {
    const { id } = c.req.valid('param')
    const caller = tenantCaller(c)
    requireRole(c.var.caller, ['owner', 'admin'])
    // The body is optional: no body means the default overlap.
    const raw = (await c.req.text()).trim()
    let parsedJson: unknown = {}
    if (raw) {
      try {
        parsedJson = JSON.parse(raw)
      } catch {
        throw new ServiceError('VALIDATION_ERROR', 'Malformed JSON body')
      }
    }
    const parsed = rotateSecretBody.safeParse(parsedJson)
    if (!parsed.success) {
      const details = parsed.error.issues.map((i) => ({
        field: i.path.length ? i.path.join('.') : '(body)',
        message: i.message,
      }))
      throw new ServiceError(
        'VALIDATION_ERROR',
        `Invalid request: ${details.map((d) => d.field).join(', ')}`,
        {
          details,
        },
      )
    }
    const now = deps.clock.now()
    const secret = generateKey('whsec_')
    const ciphertext = await deps.vault.encrypt(caller.tenantId, secret, SECRET_PURPOSE)
    const overlapSeconds = parsed.data.overlap_seconds
    const expiresAt = overlapSeconds > 0 ? new Date(now.getTime() + overlapSeconds * 1000) : null
    // One statement: the outgoing secret becomes the previous one, whatever concurrent rotations do.
    const [row] = await withTenant(
      deps.sql,
      caller.claims,
      (tx) => tx<{ id: string }[]>`
      update public.webhook_subscriptions set
        previous_secret_ciphertext = ${expiresAt ? tx`secret_ciphertext` : null},
        previous_secret_expires_at = ${expiresAt},
        secret_ciphertext = ${ciphertext},
        updated_at = ${now}
      where id = ${id} and tenant_id = ${caller.tenantId}
      returning id`,
    ).catch(asPermissionError)
    if (!row) throw notFound('Webhook subscription')
    return c.json({ secret, previous_secret_expires_at: expiresAt?.toISOString() ?? null }, 200)
  })

  app.openapi(routes.pause, async (c) => {
    const { id } = c.req.valid('param')
    const caller = tenantCaller(c)
    requireRole(c.var.caller, ['owner', 'admin'])
    const now = deps.clock.now()
    const row = await withTenant(deps.sql, caller.claims, async (tx) => {
      await tx`update public.webhook_subscriptions set status = 'paused', paused_at = ${now}, paused_reason = 'manual', updated_at = ${now}
               where id = ${id} and tenant_id = ${caller.tenantId} and status = 'active'`
      return findSubscription(tx, caller.tenantId, id)
    }).catch(asPermissionError)
    return c.json(present(row, now), 200)
  })

  app.openapi(routes.resume, async (c) => {
    const { id } = c.req.valid('param')
    const caller = tenantCaller(c)
    requireRole(c.var.caller, ['owner', 'admin'])
    const now = deps.clock.now()
    const row = await withTenant(deps.sql, caller.claims, async (tx) => {
      const resumed = await tx`
        update public.webhook_subscriptions set status = 'active', paused_at = null, paused_reason = null, updated_at = ${now}
        where id = ${id} and tenant_id = ${caller.tenantId} and status = 'paused' returning id`
      if (resumed.length > 0) {
        // Held deliveries go out now, each with a fresh run of the retry schedule. In-flight
        // ones (leased) are left to their dispatcher.
        await tx`
          update public.webhook_deliveries set next_attempt_at = ${now}, schedule_base = attempts, updated_at = ${now}
          where subscription_id = ${id} and tenant_id = ${caller.tenantId} and status = 'pending'
            and (locked_until is null or locked_until <= ${now})`
      }
      return findSubscription(tx, caller.tenantId, id)
    }).catch(asPermissionError)
    deliverSoon()
    return c.json(present(row, now), 200)
  })

  app.openapi(routes.deliveries, async (c) => {
    const { id } = c.req.valid('param')
    const { limit, cursor, event_id } = c.req.valid('query')
    const caller = tenantCaller(c)
    const after = decodeCursor(cursor)
    const rows = await withTenant(deps.sql, caller.claims, async (tx) => {
      await findSubscription(tx, caller.tenantId, id)
      return tx<
        {
          id: string
          delivery_id: string
          event_id: string
          event_type: string
          attempt: number
          success: boolean
          status_code: number | null
          duration_ms: number
          response_excerpt: string | null
          error: string | null
          attempted_at: Date
          next_attempt_at: Date | null
        }[]
      >`
        select id, delivery_id, event_id, event_type, attempt, success, status_code, duration_ms, response_excerpt, error,
               attempted_at, next_attempt_at
        from public.webhook_delivery_attempts
        where tenant_id = ${caller.tenantId} and subscription_id = ${id}
          ${event_id ? tx`and event_id = ${event_id}` : tx``}
          ${after ? tx`and (attempted_at, id) < (${after.at}, ${after.id})` : tx``}
        order by attempted_at desc, id desc
        limit ${limit + 1}`
    })
    const page = paginate(rows, limit, (r) => ({ at: r.attempted_at, id: r.id }))
    const data = page.data.map((r) => ({
      ...r,
      attempted_at: r.attempted_at.toISOString(),
      next_attempt_at: r.next_attempt_at?.toISOString() ?? null,
    }))
    return c.json({ data, next_cursor: page.next_cursor }, 200)
  })

  app.openapi(routes.redeliver, async (c) => {
    const { id } = c.req.valid('param')
    const { event_id } = c.req.valid('json')
    const caller = tenantCaller(c)
    requireRole(c.var.caller, ['owner', 'admin'])
    const now = deps.clock.now()
    const row = await withTenant(deps.sql, caller.claims, async (tx) => {
      await findSubscription(tx, caller.tenantId, id)
      const [queued] = await tx<DeliveryRow[]>`
        update public.webhook_deliveries d set status = 'pending', next_attempt_at = ${now}, schedule_base = attempts, updated_at = ${now}
        where d.subscription_id = ${id} and d.tenant_id = ${caller.tenantId} and d.event_id = ${event_id}
          and (d.locked_until is null or d.locked_until <= ${now})
        returning ${tx.unsafe(deliveryColumns)}`
      if (queued) return queued
      const [exists] =
        await tx`select 1 from public.webhook_deliveries where subscription_id = ${id} and event_id = ${event_id}`
      if (!exists) throw notFound('Delivery of this event to this subscription')
      throw new ServiceError(
        'CONFLICT',
        'An attempt of this delivery is in flight; try again when it has finished',
      )
    }).catch(asPermissionError)
    deliverSoon()
    return c.json(presentDelivery(row), 202)
  })

  app.openapi(routes.recover, async (c) => {
    const { id } = c.req.valid('param')
    const { since } = c.req.valid('json')
    const caller = tenantCaller(c)
    requireRole(c.var.caller, ['owner', 'admin'])
    const now = deps.clock.now()
    const requeued = await withTenant(deps.sql, caller.claims, async (tx) => {
      await findSubscription(tx, caller.tenantId, id)
      const rows = await tx`
        update public.webhook_deliveries set status = 'pending', next_attempt_at = ${now}, schedule_base = attempts, updated_at = ${now}
        where subscription_id = ${id} and tenant_id = ${caller.tenantId} and status = 'failed' and not is_test
          and event_created_at >= ${new Date(since)}
        returning id`
      return rows.length
    }).catch(asPermissionError)
    if (requeued > 0) deliverSoon()
    return c.json({ requeued }, 202)
  })

  app.openapi(routes.test, async (c) => {
    const { id } = c.req.valid('param')
    const caller = tenantCaller(c)
    requireRole(c.var.caller, ['owner', 'admin'])
    const now = deps.clock.now()
    const row = await withTenant(deps.sql, caller.claims, async (tx) => {
      await findSubscription(tx, caller.tenantId, id)
      const data = {
        subscription_id: id,
        message: 'A test event: your endpoint received and can verify this delivery.',
      }
      const [created] = await tx<DeliveryRow[]>`
        insert into public.webhook_deliveries as d
          (tenant_id, subscription_id, event_id, event_type, event_created_at, data, is_test, next_attempt_at, created_at, updated_at)
        values (${caller.tenantId}, ${id}, ${newEventId()}, ${TEST_EVENT_TYPE}, ${now}, ${tx.json(data)}, true, ${now}, ${now}, ${now})
        returning ${tx.unsafe(deliveryColumns)}`
      return created!
    }).catch(asPermissionError)
    deliverSoon()
    return c.json(presentDelivery(row), 202)
  })

  app.openapi(routes.dispatch, async (c) => c.json(await runDispatch(), 200))

  return app
}
