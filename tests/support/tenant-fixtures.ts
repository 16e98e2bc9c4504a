import { expect } from 'vitest'
import type { TestPlatform, TestTenant } from './platform.ts'

/**
 * One record of each tenant-owned resource, made as `tenant`, for tests that check another tenant
 * cannot reach them (the security matrix). Returns their ids by name. Records are made through the
 * API where one exists; an OAuth connection needs a provider's consent, so it is inserted with its
 * tokens encrypted as the callback stores them.
 */
const FIXTURE_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEklEQVQImWMwTjtjnHaGAUIBACS2BZUFBQd/AAAAAElFTkSuQmCC'

export async function tenantFixtures(tp: TestPlatform, tenant: TestTenant) {
  const post = async (path: string, body: unknown) => {
    const res = await tp.json(path, { token: tenant.token, body })
    expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300)
    return res.body
  }
  const apiKey = await post('/api/api-keys', {
    name: 'fixture',
    environment: 'production',
    scopes: ['content:read'],
    rate_limit_per_minute: 10,
  })
  const site = await post('/v1/content/sites', { name: 'Fixture site' })
  const tag = await post('/v1/content/tags', { name: 'Fixture tag' })
  const article = await post('/v1/content/articles', {
    site_id: site.id,
    title: 'Fixture',
    body: 'text',
    tags: [tag.slug],
  })
  // Saving the article kept its first revision.
  const [articleRevision] = await tp.db.sql<{ id: string }[]>`
    select id from public.article_revisions where article_id = ${article.id}`
  const articlePreview = await post(`/v1/content/articles/${article.id}/previews`, {})
  const providers = (await tp.json('/api/providers', { token: tenant.token })).body.data as { id: string }[]
  const credential = await post('/api/credentials', {
    provider_id: providers[0]!.id,
    name: 'fixture',
    environment: 'production',
    credential: 'sk-fixture-0123456789',
    scopes: [],
  })
  const webhook = await post('/api/webhooks', { url: 'http://127.0.0.1:9/fixture', events: ['site.created'] })
  const products = (await tp.json('/api/usage', { token: tenant.token })).body.products as {
    product_id: string
  }[]
  const alert = await post('/api/usage-alerts', {
    product_id: products[0]!.product_id,
    threshold_percent: 50,
    notification_type: 'email',
    notification_target: 'ops@example.com',
  })
  const invitation = await post('/api/invitations', {
    email: `invitee-${Date.now()}@example.com`,
    role: 'member',
  })
  const catalog = (await tp.json('/api/integrations', { token: tenant.token })).body.data as {
    integration_id: string
    slug: string
    connection_types: string[]
  }[]
  const oauth = catalog.find((e) => e.connection_types.includes('oauth'))!
  const vault = tp.instances[0]!.platform.deps.vault
  const [connection] = await tp.db.sql<{ id: string }[]>`
    insert into public.integration_connections
      (tenant_id, integration_id, integration_slug, connection_type, status, external_account_id, external_account_name,
       scopes, access_token_encrypted, token_expires_at, created_by)
    values (${tenant.tenantId}, ${oauth.integration_id}, ${oauth.slug}, 'oauth', 'active', 'fixture', 'Fixture', '{}',
            ${await vault.encrypt(tenant.tenantId, 'fixture-token', 'oauth-access-token')},
            ${new Date(Date.now() + 86_400_000)}, ${tenant.userId})
    returning id`
  const store = await post('/api/commerce/stores', {
    platform: 'shopify',
    shop_domain: `fixture-${Date.now()}.myshopify.com`,
    name: 'Fixture store',
    secret: 'shpss_fixture_0123456789',
  })
  // A delivery arrives signed from the shop; the row is what receiving would have stored.
  const [delivery] = await tp.db.sql<{ id: string }[]>`
    insert into public.commerce_deliveries (tenant_id, store_id, platform, topic, webhook_id, payload_bytes, status, received_at, updated_at)
    values (${tenant.tenantId}, ${store.id}, 'shopify', 'orders/create', ${`fixture-${Date.now()}`}, 0, 'failed', now(), now())
    returning id`
  // Jobs are made by the server functions; one queued row is enough to be found (or not).
  const [job] = await tp.db.sql<{ id: string }[]>`
    insert into public.jobs (tenant_id, kind) values (${tenant.tenantId}, 'fixture.job') returning id`
  const source = await post('/api/sources', {
    site_id: site.id,
    name: 'Fixture source',
    kind: 'feed',
    config: { url: 'https://example.com/feed.xml' },
  })
  const [destination] = await tp.db.sql<{ id: string }[]>`
    with site as (insert into public.sites (tenant_id, name) values (${tenant.tenantId}, 'Fixture shop') returning id)
    insert into public.affiliate_destinations (tenant_id, site_id, name)
    select ${tenant.tenantId}, id, 'Fixture destination' from site
    returning id`
  // An MCP client connected by OAuth: the grant the token endpoint would have made.
  const [mcpClient] = await tp.db.sql<{ id: string }[]>`
    insert into public.mcp_oauth_grants (tenant_id, user_id, client_id, client_name, scopes, resource)
    values (${tenant.tenantId}, ${tenant.userId}, 'mcpc_fixture', 'Fixture client', '{content:read}', 'http://127.0.0.1/mcp')
    returning id`
  // An image of the media library, uploaded as a form (a 2x2 PNG).
  const form = new FormData()
  form.append('file', new Blob([Buffer.from(FIXTURE_PNG, 'base64')]), 'fixture.png')
  form.append('alt_text', 'Fixture image')
  const mediaRes = await tp.request('/v1/content/media', {
    method: 'POST',
    token: tenant.token,
    body: form,
  })
  const media = await mediaRes.json()
  expect(mediaRes.status, `media: ${JSON.stringify(media)}`).toBe(201)
  const assistantConversation = await post('/v1/assistant/conversations', { title: 'Fixture' })
  const assistantAutomation = await post('/v1/assistant/automations', {
    name: 'Fixture',
    instruction: 'Say hello',
    schedule: '0 8 * * 1-5',
  })
  return {
    apiKey: apiKey.id,
    site: site.id,
    article: article.id,
    articleRevision: articleRevision!.id,
    articlePreview: articlePreview.id,
    /** The preview link's token (shown once when it is made). */
    articlePreviewToken: articlePreview.token,
    tag: tag.id,
    media: media.id,
    credential: credential.id,
    webhook: webhook.id,
    alert: alert.id,
    invitation: invitation.id,
    connection: connection!.id,
    member: tenant.userId,
    store: store.id,
    delivery: delivery!.id,
    job: job!.id,
    source: source.id,
    affiliateDestination: destination!.id,
    mcpClient: mcpClient!.id,
    assistantConversation: assistantConversation.id,
    assistantAutomation: assistantAutomation.id,
  }
}

/**
 * A row of `tenant` in every tenant-owned table: the records of tenantFixtures (made through the
 * API) and, for the tables no route writes directly (usage, counters, logs, synced copies), rows
 * inserted as the workers would store them. The isolation proofs (tests/rls.test.ts) require a
 * row here for every table with a tenant_id column, so a new table must add one.
 */
export async function seedEveryTenantTable(tp: TestPlatform, tenant: TestTenant) {
  const ids = await tenantFixtures(tp, tenant)
  const sql = tp.db.sql
  const t = tenant.tenantId
  const [integration] = await sql<{ integration_id: string }[]>`
    select integration_id from public.integration_connections where id = ${ids.connection}`
  const [product] = await sql<{ id: string }[]>`select id from public.products order by slug limit 1`
  const [program] = await sql<{ id: string }[]>`
    insert into public.affiliate_programs (tenant_id, destination_id, network, name, config)
    values (${t}, ${ids.affiliateDestination}, 'feed', 'Fixture program', '{}') returning id`
  await sql`
    insert into public.affiliate_products (tenant_id, destination_id, program_id, network, external_id, title, price,
      currency, availability, affiliate_url, raw, last_sync_job_id, last_synced_at)
    values (${t}, ${ids.affiliateDestination}, ${program!.id}, 'feed', 'fixture-1', 'Fixture product', 1, 'EUR',
      'in_stock', 'https://example.com/p', '{}', ${ids.job}, now())`
  const [item] = await sql<{ id: string }[]>`
    insert into public.source_items (tenant_id, source_id, external_id, title)
    values (${t}, ${ids.source}, 'fixture-item', 'Fixture item') returning id`
  await sql`
    insert into public.article_source_items (tenant_id, article_id, item_id, job_id)
    values (${t}, ${ids.article}, ${item!.id}, ${ids.job})`
  // A WebSub subscription (the server writes these; the ciphertexts are placeholders nobody reads).
  await sql`
    insert into public.source_push_subscriptions (tenant_id, source_id, hub_url, topic_url, state, token_hash,
      token_ciphertext, secret_ciphertext)
    values (${t}, ${ids.source}, 'https://hub.example/', 'https://feed.example/rss.xml', 'active',
      ${'0'.repeat(64)}, 'x', 'x')`
  // An MCP task over the job (the tool server writes one for a tools/call run as a task).
  await sql`
    insert into public.mcp_tasks (tenant_id, key_id, tool, job_id, ttl_ms, poll_interval_ms, created_at, expires_at)
    values (${t}, 'fixture-key', 'platform:generate_draft', ${ids.job}, 900000, 1000, now(), now() + interval '15 minutes')`
  // A published article's old slug (the API writes one when a published article's slug changes).
  await sql`
    insert into public.article_slug_redirects (tenant_id, site_id, slug, article_id)
    values (${t}, ${ids.site}, 'fixture-old-slug', ${ids.article})`
  await sql`
    insert into public.commerce_orders (tenant_id, store_id, external_id, currency, total_price, line_items,
      source_updated_at, created_at, synced_at)
    values (${t}, ${ids.store}, 'fixture-order', 'EUR', 1, '[]', now(), now(), now())`
  await sql`
    insert into public.commerce_products (tenant_id, store_id, external_id, source_updated_at, created_at, synced_at)
    values (${t}, ${ids.store}, 'fixture-product', now(), now(), now())`
  await sql`
    insert into public.credential_usage (tenant_id, credential_id, caller_kind, function_name)
    values (${t}, ${ids.credential}, 'server_function', 'fixture')`
  await sql`
    insert into public.event_counts_daily (tenant_id, day, type, count) values (${t}, current_date, 'fixture.event', 1)`
  await sql`
    insert into public.integration_tools (tenant_id, connection_id, name, alias, input_schema)
    values (${t}, ${ids.connection}, 'fixture_tool', 'fixture_tool', '{}')`
  await sql`
    insert into public.integration_tool_permissions (tenant_id, connection_id, tool_name, allowed)
    values (${t}, ${ids.connection}, 'fixture:tool', false)`
  await sql`
    insert into public.integration_usage (tenant_id, integration_id, connection_id, tool_name, action, triggered_by, success, response_time_ms)
    values (${t}, ${integration!.integration_id}, ${ids.connection}, 'fixture:tool', 'read', 'manual', true, 1)`
  await sql`
    insert into public.integration_usage_daily (tenant_id, integration_id, day, total_calls, success_count,
      response_time_ms_sum, assistant, automation, manual)
    values (${t}, ${integration!.integration_id}, current_date, 1, 1, 1, 0, 0, 1)`
  await sql`
    insert into public.api_request_log (tenant_id, at, request_id, method, path, status, key_id, user_id, latency_ms)
    values (${t}, now(), 'fixture-request', 'GET', '/v1/content', 200, ${ids.apiKey}, ${tenant.userId}, 1)`
  await sql`
    insert into public.notifications (tenant_id, kind, recipient, subject, body)
    values (${t}, 'fixture', 'fixture@example.com', 'Fixture', 'fixture')`
  await sql`
    insert into public.usage_counters (tenant_id, product_id, period, units)
    values (${t}, ${product!.id}, date_trunc('month', now())::date, 1)`
  await sql`
    insert into public.assistant_settings (tenant_id, provider, model) values (${t}, 'openai', 'fixture-model')`
  const [turn] = await sql<{ id: string }[]>`
    insert into public.assistant_turns (tenant_id, conversation_id, status, triggered_by, provider, model,
      credential_environment, created_by, finished_at)
    values (${t}, ${ids.assistantConversation}, 'completed', 'assistant', 'openai', 'fixture-model', 'production',
      ${tenant.userId}, now()) returning id`
  const [message] = await sql<{ id: string }[]>`
    insert into public.assistant_messages (tenant_id, conversation_id, turn_id, role, content)
    values (${t}, ${ids.assistantConversation}, ${turn!.id}, 'assistant', 'Fixture answer') returning id`
  const [toolCall] = await sql<{ id: string }[]>`
    insert into public.assistant_tool_calls (tenant_id, conversation_id, turn_id, message_id, position,
      provider_call_id, name, tool, status, expires_at, decision, decided_by, decided_at)
    values (${t}, ${ids.assistantConversation}, ${turn!.id}, ${message!.id}, 0, 'call_fixture',
      'platform__list_sites', 'platform:list_sites', 'ok', now(), 'approved', ${tenant.userId}, now()) returning id`
  await sql`
    insert into public.assistant_turn_events (tenant_id, turn_id, seq, event, data)
    values (${t}, ${turn!.id}, 1, 'text.delta', '{"text":"Fixture"}')`
  await sql`
    insert into public.assistant_automation_runs (tenant_id, automation_id, slot, conversation_id, turn_id, status)
    values (${t}, ${ids.assistantAutomation}, date_trunc('minute', now()), ${ids.assistantConversation},
      ${turn!.id}, 'started')`
  const eventId = fixtureEventId(tenant)
  const [delivery] = await sql<{ id: string }[]>`
    insert into public.webhook_deliveries (tenant_id, subscription_id, event_id, event_type, event_created_at, data)
    values (${t}, ${ids.webhook}, ${eventId}, 'site.created', now(), '{}') returning id`
  await sql`
    insert into public.webhook_delivery_attempts (tenant_id, subscription_id, delivery_id, event_id, event_type,
      attempt, success, duration_ms, attempted_at)
    values (${t}, ${ids.webhook}, ${delivery!.id}, ${eventId}, 'site.created', 1, false, 1, now())`
  return {
    ...ids,
    affiliateProgram: program!.id,
    assistantToolCall: toolCall!.id,
    assistantTurn: turn!.id,
    assistantMessage: message!.id,
  }
}

/** The event of the webhook delivery seedEveryTenantTable makes (a redelivery can name it). */
export const fixtureEventId = (tenant: TestTenant) =>
  `evt_fixture${tenant.tenantId.replaceAll('-', '').slice(0, 16)}`
