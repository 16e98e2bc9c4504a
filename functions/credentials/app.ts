import { createRoute, z } from '@hono/zod-openapi'
import { requireRole } from '../../shared/infra/auth.ts'
import { isPgError, pgErrors, type Tx, withTenant } from '../../shared/infra/db.ts'
import type { FunctionDeps } from '../../shared/infra/deps.ts'
import { notFound, ServiceError } from '../../shared/infra/errors.ts'
import { authenticate, tenantCaller } from '../../shared/infra/http/authenticate.ts'
import { createFunctionApp } from '../../shared/infra/http/function-app.ts'
import { errorResponses } from '../../shared/infra/http/openapi.ts'
import { decodeCursor, pageQuery, paginate } from '../../shared/infra/pagination.ts'
import { credentialStatus } from '../../shared/services/credentials/credential-status.ts'
import { pruneCredentialUsage, sendExpiryAlerts } from '../../shared/services/credentials/expiry-alerts.ts'
import { keyHint } from '../../shared/services/credentials/key-hint.ts'
import {
  type Credential,
  createCredentialBody,
  credentialListQuery,
  credentialListSchema,
  credentialSchema,
  type Environment,
  idParam,
  type Provider,
  providerListSchema,
  providerQuery,
  rotateCredentialBody,
  updateCredentialBody,
  usageListSchema,
} from '../../shared/services/credentials/schema.ts'
import { credentialPurpose } from '../../shared/services/credentials/use-credential.ts'

export const functionName = 'credentials'

interface CredentialRow {
  id: string
  name: string
  environment: Environment
  key_hint: string
  provider_id: string
  scopes: string[]
  expires_at: Date | null
  last_used_at: Date | null
  rotated_at: Date | null
  created_at: Date
  updated_at: Date
  provider_slug: string
  provider_name: string
  provider_category: Provider['category']
  provider_icon_url: string
}

/** Everything a tenant may see of a credential. The ciphertext is not granted to tenants at all. */
const visibleColumns =
  'id, name, environment, key_hint, provider_id, scopes, expires_at, last_used_at, rotated_at, created_at, updated_at'

/** Selects `c` (a credentials row set or CTE) with its provider. */
const withProvider = (tx: Tx, from: string) =>
  tx.unsafe(`
  select c.id, c.name, c.environment, c.key_hint, c.provider_id, c.scopes, c.expires_at, c.last_used_at,
         c.rotated_at, c.created_at, c.updated_at, p.slug as provider_slug, p.name as provider_name,
         p.category as provider_category, p.icon_url as provider_icon_url
  from ${from} c join public.providers p on p.id = c.provider_id`)

function present(row: CredentialRow, now: Date): Credential {
  return {
    id: row.id,
    name: row.name,
    environment: row.environment,
    key_hint: row.key_hint,
    provider_id: row.provider_id,
    provider: {
      id: row.provider_id,
      slug: row.provider_slug,
      name: row.provider_name,
      category: row.provider_category,
      icon_url: row.provider_icon_url,
    },
    scopes: row.scopes,
    expires_at: row.expires_at?.toISOString() ?? null,
    status: credentialStatus(row.expires_at, now),
    last_used_at: row.last_used_at?.toISOString() ?? null,
    rotated_at: row.rotated_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  }
}

/** Translates the database's refusals into API errors. Messages never carry request values. */
function asApiError(err: unknown): never {
  if (isPgError(err, pgErrors.insufficientPrivilege)) {
    throw new ServiceError('INSUFFICIENT_PERMISSIONS', 'Only owners and admins manage credentials')
  }
  if (isPgError(err, pgErrors.uniqueViolation)) {
    throw new ServiceError(
      'CONFLICT',
      'A credential with this name already exists for this provider and environment',
    )
  }
  if (isPgError(err, pgErrors.foreignKeyViolation)) {
    throw new ServiceError('VALIDATION_ERROR', 'Unknown provider_id', {
      details: [{ field: 'provider_id', message: 'no such provider (see GET /api/providers)' }],
    })
  }
  throw err
}

function futureExpiry(value: string | null | undefined, now: Date): Date | null | undefined {
  if (value === undefined || value === null) return value
  const at = new Date(value)
  if (at <= now) {
    throw new ServiceError('VALIDATION_ERROR', 'expires_at must lie in the future', {
      details: [{ field: 'expires_at', message: 'must lie in the future' }],
    })
  }
  return at
}

const security = [{ bearer: [] }]
const serviceSecurity = [{ serviceRole: [] }]
const json = <T extends z.ZodType>(schema: T) => ({ 'application/json': { schema } })

const listProviders = createRoute({
  method: 'get',
  path: '/providers',
  summary: 'List the provider catalog (public path /api/providers)',
  security: [...security, ...serviceSecurity],
  request: { query: providerQuery },
  responses: {
    200: { description: 'Providers by category and name', content: json(providerListSchema) },
    ...errorResponses(400, 401, 429),
  },
})

const createCredential = createRoute({
  method: 'post',
  path: '/',
  summary: 'Store a credential (the secret is encrypted at once; only key_hint is ever shown)',
  security,
  request: { body: { content: json(createCredentialBody), required: true } },
  responses: {
    201: { description: 'Created', content: json(credentialSchema) },
    ...errorResponses(400, 401, 403, 409, 413, 429),
  },
})

const listCredentials = createRoute({
  method: 'get',
  path: '/',
  summary: "List the tenant's credentials, newest first",
  security,
  request: { query: credentialListQuery },
  responses: {
    200: { description: 'A page of credentials', content: json(credentialListSchema) },
    ...errorResponses(400, 401, 429),
  },
})

const getCredential = createRoute({
  method: 'get',
  path: '/{id}',
  summary: 'Get one credential (never its secret)',
  security,
  request: { params: idParam },
  responses: {
    200: { description: 'The credential', content: json(credentialSchema) },
    ...errorResponses(400, 401, 404, 429),
  },
})

const updateCredential = createRoute({
  method: 'patch',
  path: '/{id}',
  summary: "Change a credential's name, scopes or expiry",
  security,
  request: { params: idParam, body: { content: json(updateCredentialBody), required: true } },
  responses: {
    200: { description: 'The updated credential', content: json(credentialSchema) },
    ...errorResponses(400, 401, 403, 404, 409, 429),
  },
})

const rotateCredential = createRoute({
  method: 'post',
  path: '/{id}/rotate',
  summary: 'Replace the secret (new key_hint; the old ciphertext is overwritten)',
  security,
  request: { params: idParam, body: { content: json(rotateCredentialBody), required: true } },
  responses: {
    200: { description: 'The rotated credential', content: json(credentialSchema) },
    ...errorResponses(400, 401, 403, 404, 413, 429),
  },
})

const deleteCredential = createRoute({
  method: 'delete',
  path: '/{id}',
  summary: 'Delete a credential and its usage records',
  security,
  request: { params: idParam },
  responses: { 204: { description: 'Deleted' }, ...errorResponses(400, 401, 403, 404, 429) },
})

const listUsage = createRoute({
  method: 'get',
  path: '/{id}/usage',
  summary: 'Usage history of a credential: which server code used it and when, newest first',
  security,
  request: { params: idParam, query: pageQuery },
  responses: {
    200: { description: 'A page of usage records', content: json(usageListSchema) },
    ...errorResponses(400, 401, 404, 429),
  },
})

const expiryAlertsJob = createRoute({
  method: 'post',
  path: '/jobs/expiry-alerts',
  summary: 'Job (daily): alert owners and admins 7 days and 1 day before a credential expires',
  security: serviceSecurity,
  responses: {
    200: {
      description: 'Counts',
      content: json(z.object({ expiring: z.number().int(), notified: z.number().int() })),
    },
    ...errorResponses(401),
  },
})

const pruneUsageJob = createRoute({
  method: 'post',
  path: '/jobs/prune-usage',
  summary: 'Job (daily): delete usage records past their retention',
  security: serviceSecurity,
  responses: {
    200: { description: 'Count', content: json(z.object({ deleted: z.number().int() })) },
    ...errorResponses(401),
  },
})

export function createApp(deps: FunctionDeps) {
  const app = createFunctionApp(
    functionName,
    deps,
    'Credentials vault: provider catalog and encrypted provider credentials',
  )

  // Credentials are managed from the dashboard by signed-in users; keys cannot reach them.
  // The catalog is also open to the anon key; jobs take only the service-role key.
  const asUser = authenticate({ allow: ['user'] })
  const asCatalogReader = authenticate({ allow: ['user', 'anon'] })
  const asService = authenticate({ allow: ['service'] })
  app.use('*', (c, next) => {
    const path = c.req.path
    if (path.startsWith('/jobs/')) return asService(c, next)
    if (path === '/providers') return asCatalogReader(c, next)
    return asUser(c, next)
  })

  // Registered before '/{id}' so that 'providers' is not read as an id.
  app.openapi(listProviders, async (c) => {
    const { category } = c.req.valid('query')
    const rows = await deps.sql<Provider[]>`
      select id, slug, name, category, icon_url from public.providers
      ${category ? deps.sql`where category = ${category}` : deps.sql``}
      order by category, name`
    return c.json({ data: rows.map((r) => ({ ...r })) }, 200)
  })

  app.openapi(createCredential, async (c) => {
    const body = c.req.valid('json')
    const caller = tenantCaller(c)
    requireRole(c.var.caller, ['owner', 'admin'])
    const now = deps.clock.now()
    const expiresAt = futureExpiry(body.expires_at, now) ?? null
    const id = crypto.randomUUID()
    // The secret's first and only stop: from here on only its ciphertext and hint exist.
    const ciphertext = await deps.vault.encrypt(caller.tenantId, body.credential, credentialPurpose(id))
    const hint = keyHint(body.credential)
    const [row] = await withTenant(
      deps.sql,
      caller.claims,
      (tx) => tx<CredentialRow[]>`
      with c as (
        insert into public.credentials (id, tenant_id, provider_id, name, environment, key_hint, secret_ciphertext,
                                        scopes, expires_at, created_by, created_at, updated_at)
        values (${id}, ${caller.tenantId}, ${body.provider_id}, ${body.name}, ${body.environment}, ${hint}, ${ciphertext},
                ${body.scopes}, ${expiresAt}, ${caller.userId}, ${now}, ${now})
        returning ${tx.unsafe(visibleColumns)}
      )
      ${withProvider(tx, 'c')}`,
    ).catch(asApiError)
    return c.json(present(row!, now), 201)
  })

  app.openapi(listCredentials, async (c) => {
    const { limit, cursor, provider_id, environment } = c.req.valid('query')
    const caller = tenantCaller(c)
    const after = decodeCursor(cursor)
    const rows = await withTenant(
      deps.sql,
      caller.claims,
      (tx) => tx<CredentialRow[]>`
      ${withProvider(tx, 'public.credentials')}
      where c.tenant_id = ${caller.tenantId}
        ${provider_id ? tx`and c.provider_id = ${provider_id}` : tx``}
        ${environment ? tx`and c.environment = ${environment}` : tx``}
        ${after ? tx`and (c.created_at, c.id) < (${after.at}, ${after.id})` : tx``}
      order by c.created_at desc, c.id desc
      limit ${limit + 1}`,
    )
    const now = deps.clock.now()
    const page = paginate(rows, limit, (r) => ({ at: r.created_at, id: r.id }))
    return c.json({ data: page.data.map((r) => present(r, now)), next_cursor: page.next_cursor }, 200)
  })

  app.openapi(getCredential, async (c) => {
    const { id } = c.req.valid('param')
    const caller = tenantCaller(c)
    const [row] = await withTenant(
      deps.sql,
      caller.claims,
      (tx) => tx<CredentialRow[]>`
      ${withProvider(tx, 'public.credentials')} where c.id = ${id} and c.tenant_id = ${caller.tenantId}`,
    )
    if (!row) throw notFound('Credential')
    return c.json(present(row, deps.clock.now()), 200)
  })

  app.openapi(updateCredential, async (c) => {
    const { id } = c.req.valid('param')
    const body = c.req.valid('json')
    const caller = tenantCaller(c)
    requireRole(c.var.caller, ['owner', 'admin'])
    const now = deps.clock.now()
    const changes: Record<string, unknown> = { updated_at: now }
    if (body.name !== undefined) changes.name = body.name
    if (body.scopes !== undefined) changes.scopes = body.scopes
    if (body.expires_at !== undefined) changes.expires_at = futureExpiry(body.expires_at, now)
    const [row] = await withTenant(
      deps.sql,
      caller.claims,
      (tx) => tx<CredentialRow[]>`
      with c as (
        update public.credentials set ${tx(changes)}
        where id = ${id} and tenant_id = ${caller.tenantId}
        returning ${tx.unsafe(visibleColumns)}
      )
      ${withProvider(tx, 'c')}`,
    ).catch(asApiError)
    if (!row) throw notFound('Credential')
    return c.json(present(row, now), 200)
  })

  app.openapi(rotateCredential, async (c) => {
    const { id } = c.req.valid('param')
    const body = c.req.valid('json')
    const caller = tenantCaller(c)
    requireRole(c.var.caller, ['owner', 'admin'])
    const now = deps.clock.now()
    const expiresAt = futureExpiry(body.expires_at, now)
    // Encrypted for this row before anything else; a wrong-tenant id simply updates nothing.
    const ciphertext = await deps.vault.encrypt(caller.tenantId, body.credential, credentialPurpose(id))
    const changes: Record<string, unknown> = {
      secret_ciphertext: ciphertext,
      key_hint: keyHint(body.credential),
      rotated_at: now,
      updated_at: now,
      ...(expiresAt !== undefined && { expires_at: expiresAt }),
    }
    const [row] = await withTenant(
      deps.sql,
      caller.claims,
      (tx) => tx<CredentialRow[]>`
      with c as (
        update public.credentials set ${tx(changes)}
        where id = ${id} and tenant_id = ${caller.tenantId}
        returning ${tx.unsafe(visibleColumns)}
      )
      ${withProvider(tx, 'c')}`,
    ).catch(asApiError)
    if (!row) throw notFound('Credential')
    return c.json(present(row, now), 200)
  })

  app.openapi(deleteCredential, async (c) => {
    const { id } = c.req.valid('param')
    const caller = tenantCaller(c)
    requireRole(c.var.caller, ['owner', 'admin'])
    const deleted = await withTenant(
      deps.sql,
      caller.claims,
      (tx) => tx`
      delete from public.credentials where id = ${id} and tenant_id = ${caller.tenantId} returning id`,
    ).catch(asApiError)
    if (deleted.length === 0) throw notFound('Credential')
    return c.body(null, 204)
  })

  app.openapi(listUsage, async (c) => {
    const { id } = c.req.valid('param')
    const { limit, cursor } = c.req.valid('query')
    const caller = tenantCaller(c)
    const after = decodeCursor(cursor)
    const rows = await withTenant(deps.sql, caller.claims, async (tx) => {
      const [credential] =
        await tx`select id from public.credentials where id = ${id} and tenant_id = ${caller.tenantId}`
      if (!credential) return null
      return tx<{ id: string; caller_kind: 'assistant'; function_name: string; used_at: Date }[]>`
        select id, caller_kind, function_name, used_at from public.credential_usage
        where credential_id = ${id} and tenant_id = ${caller.tenantId}
          ${after ? tx`and (used_at, id) < (${after.at}, ${after.id})` : tx``}
        order by used_at desc, id desc
        limit ${limit + 1}`
    })
    if (!rows) throw notFound('Credential')
    const page = paginate(rows, limit, (r) => ({ at: r.used_at, id: r.id }))
    return c.json(
      {
        data: page.data.map((r) => ({ ...r, used_at: r.used_at.toISOString() })),
        next_cursor: page.next_cursor,
      },
      200,
    )
  })

  app.openapi(expiryAlertsJob, async (c) => c.json(await sendExpiryAlerts(deps), 200))
  app.openapi(pruneUsageJob, async (c) => c.json(await pruneCredentialUsage(deps), 200))

  return app
}
