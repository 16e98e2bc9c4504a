import { createRoute } from '@hono/zod-openapi'
import { createFunctionApp } from '../../shared/app.ts'
import { authenticate, requireRole, tenantCaller } from '../../shared/auth.ts'
import { privilegeErrorAs, type Tx, withTenant } from '../../shared/db.ts'
import type { FunctionDeps } from '../../shared/deps.ts'
import { ApiError, notFound } from '../../shared/errors.ts'
import { recordEvent } from '../../shared/events.ts'
import { displayPrefix, generateKey, hashKey } from '../../shared/keys.ts'
import { errorResponses } from '../../shared/openapi.ts'
import { decodeCursor, pageQuery, paginate } from '../../shared/pagination.ts'
import {
  type ApiKey,
  apiKeyListSchema,
  apiKeySchema,
  createApiKeyBody,
  createdApiKeySchema,
  environmentsByKind,
  idParam,
  RATE_LIMIT_MAX,
} from './schema.ts'

export const functionName = 'api-keys'

interface ApiKeyRow {
  id: string
  name: string
  family: ApiKey['kind']
  environment: string
  key_prefix: string
  scopes: string[]
  rate_limit_per_minute: number
  expires_at: Date | null
  last_used_at: Date | null
  revoked_at: Date | null
  created_at: Date
}

const columns =
  'id, name, family, environment, key_prefix, scopes, rate_limit_per_minute, expires_at, last_used_at, revoked_at, created_at'

function present(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    kind: row.family,
    environment: row.environment,
    key_prefix: row.key_prefix,
    scopes: row.scopes,
    rate_limit_per_minute: row.rate_limit_per_minute,
    expires_at: row.expires_at?.toISOString() ?? null,
    last_used_at: row.last_used_at?.toISOString() ?? null,
    revoked_at: row.revoked_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
  }
}

/** RLS refuses members' writes as a privilege error; answer 403. */
const asPermissionError = privilegeErrorAs('Only owners and admins manage API keys')

const security = [{ bearer: [] }]

const createKey = createRoute({
  method: 'post',
  path: '/',
  summary: 'Create an API key (the secret is shown once)',
  security,
  request: { body: { content: { 'application/json': { schema: createApiKeyBody } }, required: true } },
  responses: {
    201: { description: 'Created', content: { 'application/json': { schema: createdApiKeySchema } } },
    ...errorResponses(400, 401, 403, 413, 429),
  },
})

const listKeys = createRoute({
  method: 'get',
  path: '/',
  summary: "List the tenant's API keys (never a secret)",
  security,
  request: { query: pageQuery },
  responses: {
    200: {
      description: 'A page of keys, newest first',
      content: { 'application/json': { schema: apiKeyListSchema } },
    },
    ...errorResponses(400, 401, 429),
  },
})

const getKey = createRoute({
  method: 'get',
  path: '/{id}',
  summary: 'Get one API key',
  security,
  request: { params: idParam },
  responses: {
    200: { description: 'The key', content: { 'application/json': { schema: apiKeySchema } } },
    ...errorResponses(400, 401, 404, 429),
  },
})

const revokeKey = createRoute({
  method: 'post',
  path: '/{id}/revoke',
  summary: 'Revoke an API key (takes effect at once; idempotent)',
  security,
  request: { params: idParam },
  responses: {
    200: { description: 'The revoked key', content: { 'application/json': { schema: apiKeySchema } } },
    ...errorResponses(400, 401, 403, 404, 429),
  },
})

export function createApp(deps: FunctionDeps) {
  const app = createFunctionApp(functionName, deps, 'Platform and tool-server API keys')
  // Keys are managed from the dashboard by signed-in users only; a key cannot mint keys.
  app.use('/*', authenticate({ allow: ['user'] }))

  app.openapi(createKey, async (c) => {
    const body = c.req.valid('json')
    const caller = tenantCaller(c)
    requireRole(c, ['owner', 'admin'])
    const now = deps.clock.now()
    const prefixes: Record<string, string> = environmentsByKind[body.kind]
    const prefix = prefixes[body.environment]
    if (!prefix) {
      const allowed = Object.keys(prefixes).join(', ')
      throw new ApiError('VALIDATION_ERROR', `A ${body.kind} key's environment is one of: ${allowed}`, {
        details: [{ field: 'environment', message: `one of ${allowed}` }],
      })
    }
    if (body.rate_limit_per_minute > RATE_LIMIT_MAX[body.kind]) {
      throw new ApiError(
        'VALIDATION_ERROR',
        `rate_limit_per_minute is at most ${RATE_LIMIT_MAX[body.kind]} for ${body.kind} keys`,
        {
          details: [{ field: 'rate_limit_per_minute', message: `at most ${RATE_LIMIT_MAX[body.kind]}` }],
        },
      )
    }
    const expiresAt = body.expires_at ? new Date(body.expires_at) : null
    if (expiresAt && expiresAt <= now) {
      throw new ApiError('VALIDATION_ERROR', 'expires_at must lie in the future', {
        details: [{ field: 'expires_at', message: 'must lie in the future' }],
      })
    }
    const key = generateKey(prefix as Parameters<typeof generateKey>[0])
    const keyHash = await hashKey(key)
    const row = await withTenant(deps.sql, caller.claims, async (tx) => {
      const [created] = await tx<ApiKeyRow[]>`
        insert into public.api_keys (tenant_id, created_by, name, family, environment, key_prefix, key_hash, scopes, rate_limit_per_minute, expires_at, created_at)
        values (${caller.tenantId}, ${caller.userId}, ${body.name}, ${body.kind}, ${body.environment}, ${displayPrefix(key)},
                ${keyHash}, ${body.scopes}, ${body.rate_limit_per_minute}, ${expiresAt}, ${now})
        returning ${tx.unsafe(columns)}`
      await recordEvent(tx, {
        tenantId: caller.tenantId,
        type: 'api_key.created',
        at: now,
        data: eventData(created!),
      })
      return created!
    }).catch(asPermissionError)
    deps.onOutboxCommitted?.()
    return c.json({ ...present(row), key }, 201)
  })

  app.openapi(listKeys, async (c) => {
    const { limit, cursor } = c.req.valid('query')
    const caller = tenantCaller(c)
    const after = decodeCursor(cursor)
    const rows = await withTenant(
      deps.sql,
      caller.claims,
      (tx) => tx<ApiKeyRow[]>`
      select ${tx.unsafe(columns)} from public.api_keys
      where tenant_id = ${caller.tenantId}
        ${after ? tx`and (created_at, id) < (${after.at}, ${after.id})` : tx``}
      order by created_at desc, id desc
      limit ${limit + 1}`,
    )
    const page = paginate(rows, limit, (r) => ({ at: r.created_at, id: r.id }))
    return c.json({ data: page.data.map(present), next_cursor: page.next_cursor }, 200)
  })

  app.openapi(getKey, async (c) => {
    const { id } = c.req.valid('param')
    const caller = tenantCaller(c)
    const [row] = await withTenant(
      deps.sql,
      caller.claims,
      (tx) => tx<ApiKeyRow[]>`
      select ${tx.unsafe(columns)} from public.api_keys where id = ${id} and tenant_id = ${caller.tenantId}`,
    )
    if (!row) throw notFound('API key')
    return c.json(present(row), 200)
  })

  app.openapi(revokeKey, async (c) => {
    const { id } = c.req.valid('param')
    const caller = tenantCaller(c)
    requireRole(c, ['owner', 'admin'])
    const now = deps.clock.now()
    const row = await withTenant(deps.sql, caller.claims, async (tx: Tx) => {
      const [revoked] = await tx<ApiKeyRow[]>`
        update public.api_keys set revoked_at = ${now}
        where id = ${id} and tenant_id = ${caller.tenantId} and revoked_at is null
        returning ${tx.unsafe(columns)}`
      if (revoked) {
        await recordEvent(tx, {
          tenantId: caller.tenantId,
          type: 'api_key.revoked',
          at: now,
          data: eventData(revoked),
        })
        return revoked
      }
      // Already revoked (idempotent) or not this tenant's (404).
      const [existing] = await tx<
        ApiKeyRow[]
      >`select ${tx.unsafe(columns)} from public.api_keys where id = ${id} and tenant_id = ${caller.tenantId}`
      return existing ?? null
    }).catch(asPermissionError)
    if (!row) throw notFound('API key')
    deps.onOutboxCommitted?.()
    return c.json(present(row), 200)
  })

  return app
}

/** Event data for api_key.created / api_key.revoked: identifies the key, never its secret. */
function eventData(row: ApiKeyRow) {
  return {
    api_key_id: row.id,
    name: row.name,
    kind: row.family,
    environment: row.environment,
    key_prefix: row.key_prefix,
    scopes: row.scopes,
    ...(row.revoked_at && { revoked_at: row.revoked_at.toISOString() }),
  }
}
